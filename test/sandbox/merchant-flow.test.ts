// The merchant's flow through the typed clients, in-process: create a payment, advance the clock, receive and verify
// the webhook (with the package's receiver, and independently with standardwebhooks), retrieve the new status.
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../packages/sandbox/src/index.js';
import { clientA, clientB, HOOK_URL, openTestSandbox, receiver, SECRET, type Received } from './fixtures.js';

/** What standardwebhooks makes of a later-layout delivery under the contract's header names. */
const standardVerify = (r: Received) =>
  new Webhook(SECRET).verify(r.body, {
    'webhook-id': r.headers.get('x-event-id')!,
    'webhook-timestamp': r.headers.get('x-timestamp')!,
    'webhook-signature': r.headers.get('x-signature')!,
  });

describe('the merchant flow', () => {
  it('Variant A: create, advance, receive the verified webhooks, retrieve the new status', async () => {
    const hooks = receiver();
    const sandbox = await openTestSandbox({ webhookUrls: [HOOK_URL], fetch: hooks.fetch });
    const client = clientA(sandbox);
    const created = await client.POST('/payments', {
      body: { amount: '42.50', currency: 'EUR', requisite: { type: 'card' } },
    });
    expect(created.error).toBeUndefined();
    const payment = created.data!.data;
    expect([payment.status, payment.requested, payment.reason_code]).toEqual([
      'created',
      { amount: '42.50', currency: 'EUR' },
      null,
    ]);
    expect(hooks.requests).toEqual([]);

    await sandbox.advance({ accessToken: 'token-a' }, 60);

    expect(hooks.later.map((e) => [e.type, e.data.id, e.data.status])).toEqual([
      ['payment.status_changed', payment.id, 'pending'],
      ['payment.status_changed', payment.id, 'succeeded'],
    ]);
    for (const request of hooks.requests) {
      const event = standardVerify(request) as { id: string };
      expect(event.id).toBe(request.headers.get('x-event-id'));
    }
    const retrieved = await client.GET('/payments/{id}', { params: { path: { id: payment.id } } });
    expect([retrieved.data?.data.status, retrieved.data?.data.processed]).toEqual([
      'succeeded',
      { amount: '42.50', currency: 'EUR' },
    ]);
  });

  it('Variant B: create, advance, receive the verified webhooks, retrieve the new status', async () => {
    const hooks = receiver();
    const sandbox = await openTestSandbox({ webhookUrls: [HOOK_URL], fetch: hooks.fetch });
    const client = clientB(sandbox);
    const created = await client.POST('/merchant/v1/payments', {
      body: { amount: '9.01', currency: 'USD', requisite: { type: 'card' } },
    });
    const payment = created.data!.data;
    expect(payment.status).toBe('created');

    await sandbox.advance({ publicKey: 'pk_test' }, 60);

    const last = hooks.later.at(-1)!;
    expect([last.type, last.data.id, 'reason_code' in last.data && last.data.reason_code]).toEqual([
      'payment.status_changed',
      payment.id,
      'declined',
    ]);
    expect(hooks.requests.map((r) => (standardVerify(r) as { data: { status: string } }).data.status)).toEqual([
      'pending',
      'failed',
    ]);
    const retrieved = await client.GET('/merchant/v1/payments/{paymentId}', {
      params: { path: { paymentId: payment.id } },
    });
    expect(retrieved.data?.data.status).toBe('failed');
  });

  it('sends a webhook as soon as a call changes a status, without waiting for the clock', async () => {
    const hooks = receiver();
    const sandbox = await openTestSandbox({ webhookUrls: [HOOK_URL], fetch: hooks.fetch });
    const client = clientA(sandbox);
    const payment = (
      await client.POST('/payments', { body: { amount: '10.00', currency: 'EUR', requisite: { type: 'card' } } })
    ).data!.data;
    const canceled = await client.POST('/payments/{id}/cancel', { params: { path: { id: payment.id } } });
    expect([canceled.data?.data.status, canceled.data?.data.reason_code]).toEqual(['canceled', 'canceled_by_merchant']);
    await sandbox.settled();
    expect(hooks.later.map((e) => e.data.status)).toEqual(['canceled']);
  });

  it('lets a receiver call the sandbox back while its delivery is in flight', async () => {
    const seen: string[] = [];
    const fetch = async (request: Request) => {
      const event = (await request.json()) as { data: { id: string } };
      const again = await clientA(sandbox).GET('/payments/{id}', { params: { path: { id: event.data.id } } });
      seen.push(again.data!.data.status);
      return new Response(null, { status: 204 });
    };
    const sandbox: Sandbox = await openTestSandbox({ webhookUrls: [HOOK_URL], fetch });
    await clientA(sandbox).POST('/payments', {
      body: { amount: '10.00', currency: 'EUR', requisite: { type: 'card' } },
    });
    await sandbox.advance({ accessToken: 'token-a' }, 60);
    expect(seen).toEqual(['pending', 'succeeded']);
  });
});
