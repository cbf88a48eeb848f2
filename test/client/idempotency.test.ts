import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ids } from './fixtures.js';
import { testClientA, testClientB } from './harness.js';
import { startScriptedServer, type ScriptedServer } from './server.js';

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
});
