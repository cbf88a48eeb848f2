import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TimeoutError } from '../../packages/contract/src/index.js';
import { ids } from './fixtures.js';
import { recordingSleep, testClientA, testClientB } from './harness.js';
import { problemReply, startScriptedServer, type ScriptedServer } from './server.js';

const ok = { status: 200, body: { data: { id: ids.payment } } };

describe('Idempotency-Key', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer(ok);
  });
  afterEach(() => server.close());

  const keys = () => server.requests.map((r) => r.headers['idempotency-key']);

  it('gives every state-changing call its own fresh key', async () => {
    const client = testClientB(server.url);
    await client.POST('/merchant/v1/payments/{paymentId}/refund', { params: { path: { paymentId: ids.payment } } });
    await client.POST('/merchant/v1/payments/{paymentId}/refund', { params: { path: { paymentId: ids.payment } } });
    const [first, second] = keys();
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(second).toMatch(/^[0-9a-f-]{36}$/);
    expect(first).not.toBe(second);
  });

  it('sends no key on a GET', async () => {
    await testClientA(server.url).GET('/payments/{id}', { params: { path: { id: ids.payment } } });
    expect(keys()).toEqual([undefined]);
  });

  it('keeps the key the caller passes', async () => {
    const client = testClientA(server.url);
    await client.POST('/payments/{id}/confirm', {
      params: { path: { id: ids.payment }, header: { 'Idempotency-Key': 'confirm-order-1042' } },
      body: { reference: 'TRX-1' },
    });
    expect(keys()).toEqual(['confirm-order-1042']);
  });

  it('uses generateIdempotencyKey when given', async () => {
    let n = 0;
    const client = testClientA(server.url, { generateIdempotencyKey: () => `shop-key-${++n}` });
    await client.POST('/payouts/{id}/cancel', { params: { path: { id: ids.payout } } });
    await client.POST('/appeals/{id}/cancel', { params: { path: { id: ids.appeal } } });
    expect(keys()).toEqual(['shop-key-1', 'shop-key-2']);
  });

  describe('while the first request with the key is still running', () => {
    const inProgress = (retryAfter?: string) =>
      problemReply(
        409,
        'idempotency_request_in_progress',
        retryAfter === undefined ? {} : { 'retry-after': retryAfter },
      );
    const refund = (client: ReturnType<typeof testClientB>) =>
      client.POST('/merchant/v1/payments/{paymentId}/refund', { params: { path: { paymentId: ids.payment } } });

    it('retries a time-out and then a 409 in progress with the same key, honouring Retry-After, until the answer', async () => {
      const { delays, sleep } = recordingSleep();
      server.reply('hang', inProgress('2'), ok);
      // Note: the answering attempts have the same time-out, so it is long enough for a loaded machine.
      const client = testClientB(server.url, { timeoutMs: 500, retry: { attempts: 3, baseDelayMs: 10, sleep } });
      const { data, response } = await refund(client);
      expect(data).toEqual(ok.body);
      expect(server.requests).toHaveLength(3);
      expect(new Set(keys()).size).toBe(1);
      expect(delays).toEqual([10, 2000]);
      expect(response.headers.get('Idempotency-Key')).toBe(keys()[0]);
    });

    it('hands back the last 409 with the key on the response once the attempts are spent', async () => {
      server.reply(inProgress(), inProgress(), inProgress());
      const { error, response } = await refund(testClientB(server.url));
      expect(response.status).toBe(409);
      expect(error).toMatchObject({ code: 'idempotency_request_in_progress' });
      expect(server.requests).toHaveLength(3);
      expect(response.headers.get('Idempotency-Key')).toBe(keys()[0]);
    });

    it('does not retry a 409 with another code', async () => {
      server.reply(problemReply(409, 'payment_not_refundable'), ok);
      const { response } = await refund(testClientB(server.url));
      expect(response.status).toBe(409);
      expect(server.requests).toHaveLength(1);
    });

    it('puts the key on a thrown TimeoutError, so the caller can resend safely', async () => {
      server.reply('hang', 'hang');
      const failure = await refund(testClientB(server.url, { timeoutMs: 30, retry: { attempts: 2 } })).catch(
        (e: unknown) => e,
      );
      expect(failure).toBeInstanceOf(TimeoutError);
      expect((failure as TimeoutError).idempotencyKey).toBe(keys()[0]);
    });

    it("puts the caller's own key on the result's response", async () => {
      const { response } = await testClientB(server.url).POST('/merchant/v1/payments/{paymentId}/refund', {
        params: { path: { paymentId: ids.payment }, header: { 'Idempotency-Key': 'refund-order-1042' } },
      });
      expect(response.headers.get('Idempotency-Key')).toBe('refund-order-1042');
    });
  });
});
