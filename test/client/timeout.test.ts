import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TimeoutError } from '../../packages/contract/src/index.js';
import { ids } from './fixtures.js';
import { recordingSleep, testClientA, testClientB } from './harness.js';
import { startScriptedServer, type ScriptedServer } from './server.js';

const page = { status: 200, body: { data: [], pagination: { total: 0, limit: 20, offset: 0 } } };

describe('time-outs', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(() => server.close());

  it('throws a TimeoutError with the abort reason as cause when no attempt is answered in time', async () => {
    const { delays, sleep } = recordingSleep();
    server.reply('hang', 'hang');
    const client = testClientA(server.url, { timeoutMs: 50, retry: { attempts: 2, baseDelayMs: 10, sleep } });
    const failure = await client.GET('/balance').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TimeoutError);
    const error = failure as TimeoutError;
    expect(server.requests).toHaveLength(2);
    expect(delays).toEqual([10]);
    expect(error.name).toBe('TimeoutError');
    expect(error.attempts).toBe(2);
    expect(error.timeoutMs).toBe(50);
    expect(error.idempotencyKey).toBeUndefined();
    expect((error.cause as DOMException).name).toBe('TimeoutError');
    expect(error.message).toBe(
      `GET ${server.url}/balance got no complete response within 50 ms (after 2 attempts). Raise timeoutMs if the service is slow, or try again later.`,
    );
  });

  it('counts reading the body against the time-out', async () => {
    server.reply('stall-body');
    const client = testClientB(server.url, { timeoutMs: 50, retry: false });
    const failure = await client
      .GET('/merchant/v1/payments/{paymentId}', { params: { path: { paymentId: ids.payment } } })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TimeoutError);
    expect((failure as TimeoutError).attempts).toBe(1);
  });

  it('retries a timed-out GET and returns the answer of the next attempt', async () => {
    server.reply('hang', page);
    // Note: the answering attempt has the same time-out, so it is long enough for a loaded machine.
    const client = testClientA(server.url, { timeoutMs: 500 });
    const { data } = await client.GET('/payments');
    expect(data).toEqual(page.body);
    expect(server.requests).toHaveLength(2);
  });

  it('gives a POST without an Idempotency-Key a single attempt', async () => {
    server.reply('hang', page);
    const client = testClientA(server.url, { timeoutMs: 50, generateIdempotencyKey: false });
    const failure = await client
      .POST('/payouts/{id}/cancel', { params: { path: { id: ids.payout } } })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TimeoutError);
    expect(server.requests).toHaveLength(1);
  });

  it('lets the caller abort: the abort reason is thrown, not a TimeoutError', async () => {
    server.reply('hang');
    const client = testClientA(server.url, { timeoutMs: 60_000 });
    const controller = new AbortController();
    const pending = client.GET('/balance', { signal: controller.signal }).catch((e: unknown) => e);
    while (server.requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
    controller.abort(new Error('caller gave up'));
    const failure = await pending;
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toBe('caller gave up');
    expect(server.requests).toHaveLength(1);
  });
});
