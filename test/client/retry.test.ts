import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NetworkError, type RetryInfo } from '../../packages/contract/src/index.js';
import { ids } from './fixtures.js';
import { recordingSleep, testClientA } from './harness.js';
import { problemReply, startScriptedServer, type ScriptedServer } from './server.js';

const page = { status: 200, body: { data: [], pagination: { total: 0, limit: 20, offset: 0 } } };
const payment = { status: 200, body: { data: { id: ids.payment } } };

describe('retries', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  it('retries a GET after 503 and 500 and returns the success', async () => {
    const { delays, sleep } = recordingSleep();
    server.reply(problemReply(503, 'unavailable'), problemReply(500, 'internal_error'), page);
    const client = testClientA(server.url, { retry: { baseDelayMs: 100, sleep } });
    const { data, error, response } = await client.GET('/payments');
    expect(response.status).toBe(200);
    expect(error).toBeUndefined();
    expect(data).toEqual(page.body);
    expect(server.requests).toHaveLength(3);
    expect(delays).toEqual([100, 200]);
  });

  it('stops after `attempts` and returns the last 5xx as a typed error, without throwing', async () => {
    const { delays, sleep } = recordingSleep();
    server.reply(problemReply(500, 'first'), problemReply(500, 'second'), problemReply(502, 'third'), page);
    const client = testClientA(server.url, { retry: { attempts: 3, baseDelayMs: 50, sleep } });
    const { data, error, response } = await client.GET('/payments');
    expect(server.requests).toHaveLength(3);
    expect(delays).toEqual([50, 100]);
    expect(response.status).toBe(502);
    expect(data).toBeUndefined();
    expect(error).toMatchObject({ status: 502, code: 'third' });
  });

  it('caps the exponential backoff at maxDelayMs', async () => {
    const { delays, sleep } = recordingSleep();
    server.reply(...Array.from({ length: 5 }, () => problemReply(503, 'unavailable')), page);
    const client = testClientA(server.url, { retry: { attempts: 6, baseDelayMs: 1000, maxDelayMs: 3000, sleep } });
    await client.GET('/payments');
    expect(delays).toEqual([1000, 2000, 3000, 3000, 3000]);
  });

  it('draws a jittered delay between 0 and the backoff ceiling', async () => {
    const { delays, sleep } = recordingSleep();
    server.reply(...Array.from({ length: 4 }, () => problemReply(503, 'unavailable')), page);
    const client = testClientA(server.url, { retry: { attempts: 5, baseDelayMs: 100, jitter: true, sleep } });
    await client.GET('/payments');
    expect(delays).toHaveLength(4);
    delays.forEach((delay, i) => {
      expect(Number.isInteger(delay)).toBe(true);
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThan(100 * 2 ** i);
    });
  });

  it('waits what Retry-After asks on 429, in seconds, instead of the backoff', async () => {
    const { delays, sleep } = recordingSleep();
    server.reply(
      problemReply(429, 'rate_limited', { 'retry-after': '2' }),
      problemReply(429, 'rate_limited', { 'retry-after': '0' }),
      page,
    );
    const client = testClientA(server.url, { retry: { baseDelayMs: 100, sleep } });
    const { response } = await client.GET('/payments');
    expect(response.status).toBe(200);
    expect(delays).toEqual([2000, 0]);
  });

  it('honours Retry-After as an HTTP date', async () => {
    const { delays, sleep } = recordingSleep();
    const inAMinute = new Date(Date.now() + 60_000).toUTCString();
    server.reply(problemReply(429, 'rate_limited', { 'retry-after': inAMinute }), page);
    const client = testClientA(server.url, { retry: { baseDelayMs: 100, maxDelayMs: 120_000, sleep } });
    await client.GET('/payments');
    // Note: the date has whole seconds, so the wait is between 59 and 60 s whatever the clock reads.
    expect(delays[0]).toBeGreaterThan(58_000);
    expect(delays[0]).toBeLessThanOrEqual(60_000);
  });

  it('never waits longer than maxDelayMs, even when Retry-After asks for more', async () => {
    const { delays, sleep } = recordingSleep();
    server.reply(problemReply(429, 'rate_limited', { 'retry-after': '3600' }), page);
    const client = testClientA(server.url, { retry: { maxDelayMs: 5000, sleep } });
    await client.GET('/payments');
    expect(delays).toEqual([5000]);
  });

  it.each([400, 401, 403, 404, 409, 422])('does not retry a %i', async (status) => {
    const { delays, sleep } = recordingSleep();
    server.reply(problemReply(status, 'refused'), page);
    const client = testClientA(server.url, { retry: { sleep } });
    const { error, response } = await client.GET('/payments');
    expect(server.requests).toHaveLength(1);
    expect(delays).toEqual([]);
    expect(response.status).toBe(status);
    expect(error).toMatchObject({ status, code: 'refused' });
  });

  it.each([501, 505, 511])('does not retry a %i, which no later attempt can change', async (status) => {
    const { delays, sleep } = recordingSleep();
    server.reply(problemReply(status, 'permanent'), page);
    const { response } = await testClientA(server.url, { retry: { sleep } }).GET('/payments');
    expect(response.status).toBe(status);
    expect(server.requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it.each([500, 502, 503, 504])('retries a transient %i', async (status) => {
    server.reply(problemReply(status, 'transient'), page);
    const { response } = await testClientA(server.url).GET('/payments');
    expect(response.status).toBe(200);
    expect(server.requests).toHaveLength(2);
  });

  it('does not retry a POST that carries no Idempotency-Key', async () => {
    server.reply(problemReply(503, 'unavailable'), payment);
    const client = testClientA(server.url, { generateIdempotencyKey: false });
    const { response } = await client.POST('/payments/{id}/cancel', { params: { path: { id: ids.payment } } });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers['idempotency-key']).toBeUndefined();
    expect(response.status).toBe(503);
  });

  it('retries a POST with the same generated Idempotency-Key and the same body on every attempt', async () => {
    server.reply(problemReply(503, 'unavailable'), 'reset', payment);
    const client = testClientA(server.url);
    const body = { reference: 'TRX-1' };
    const { data } = await client.POST('/payments/{id}/confirm', { params: { path: { id: ids.payment } }, body });
    expect(data).toEqual(payment.body);
    expect(server.requests).toHaveLength(3);
    const keys = server.requests.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
    expect(server.requests.map((r) => JSON.parse(r.body))).toEqual([body, body, body]);
  });

  it("retries a POST with the caller's own Idempotency-Key, unchanged", async () => {
    server.reply(problemReply(500, 'internal_error'), payment);
    const client = testClientA(server.url);
    await client.POST('/payments/{id}/refund', {
      params: { path: { id: ids.payment }, header: { 'Idempotency-Key': 'refund-order-1042' } },
    });
    expect(server.requests.map((r) => r.headers['idempotency-key'])).toEqual([
      'refund-order-1042',
      'refund-order-1042',
    ]);
  });

  it('retries after a dropped connection and tells onRetry why and how long it waits', async () => {
    const seen: RetryInfo[] = [];
    server.reply('reset', problemReply(429, 'rate_limited', { 'retry-after': '1' }), page);
    const client = testClientA(server.url, { retry: { baseDelayMs: 100 }, onRetry: (info) => seen.push(info) });
    const { response } = await client.GET('/payments', { params: { query: { limit: 5 } } });
    expect(response.status).toBe(200);
    expect(seen).toEqual([
      {
        method: 'GET',
        url: `${server.url}/payments?limit=5`,
        attempt: 1,
        attempts: 3,
        delayMs: 100,
        reason: 'network',
      },
      {
        method: 'GET',
        url: `${server.url}/payments?limit=5`,
        attempt: 2,
        attempts: 3,
        delayMs: 1000,
        reason: 'status',
        status: 429,
      },
    ]);
  });

  it('throws a NetworkError with the cause once every attempt failed to connect', async () => {
    server.reply('reset', 'reset', 'reset', page);
    const client = testClientA(server.url);
    const failure = await client
      .POST('/payments/{id}/cancel', { params: { path: { id: ids.payment } } })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(NetworkError);
    const error = failure as NetworkError;
    expect(server.requests).toHaveLength(3);
    expect(error.name).toBe('NetworkError');
    expect(error.attempts).toBe(3);
    expect(error.method).toBe('POST');
    expect(error.url).toBe(`${server.url}/payments/${ids.payment}/cancel`);
    expect((error.cause as Error).name).toBe('TypeError');
    expect(error.idempotencyKey).toBe(server.requests[0]!.headers['idempotency-key']);
    expect(error.message).toContain('after 3 attempts');
    expect(error.message).toContain('Check baseUrl');
    expect(error.message).toContain(`resend with Idempotency-Key ${error.idempotencyKey}`);
  });

  it('makes a single attempt when retry is false', async () => {
    server.reply(problemReply(503, 'unavailable'), page);
    const client = testClientA(server.url, { retry: false });
    const { response } = await client.GET('/balance');
    expect(server.requests).toHaveLength(1);
    expect(response.status).toBe(503);
  });
});
