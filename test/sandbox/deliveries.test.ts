// Webhook deliveries: retried on the core's schedule until a 2xx, each retry with the same X-Event-ID and its own
// X-Timestamp; the earlier layout; an endpoint's own secret; no redirects; a time-out; real clocks ticking by themselves.
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { addEndpoint, eventCount } from '../../packages/sandbox/src/core/index.js';
import { memoryTimers } from '../../packages/sandbox/src/stores/memory-tenant.js';
import { allDeliveries } from './state-reads.js';
import type { Sandbox } from '../../packages/sandbox/src/index.js';
import { clientA, databaseOf, HOOK_URL, openTestSandbox, paymentBody, receiver, STORE } from './fixtures.js';

const TENANT = { accessToken: 'token-a' };
const deliveriesOf = (sandbox: Sandbox) => sandbox.store.transaction(sandbox.tenantId(TENANT), allDeliveries);
const addHook = (sandbox: Sandbox, input: Parameters<typeof addEndpoint>[1]) =>
  sandbox.store.transaction(sandbox.tenantId(TENANT), (tenant) =>
    addEndpoint(tenant, input, sandbox.runtime.now(tenant)),
  );

async function cancelOne(sandbox: Sandbox) {
  const client = clientA(sandbox);
  const payment = (await client.POST('/payments', { body: paymentBody() })).data!.data;
  await client.POST('/payments/{id}/cancel', { params: { path: { id: payment.id } } });
  await sandbox.settled();
  return payment;
}

describe('webhook deliveries', () => {
  it('retries until a 2xx, with the same X-Event-ID and a new X-Timestamp each time; the log matches', async () => {
    let wall = Date.now();
    const hooks = receiver({ answer: (n) => (n <= 3 ? 503 : undefined) });
    const fetch = (request: Request) => {
      wall += 1000;
      return hooks.fetch(request);
    };
    const sandbox = await openTestSandbox({ webhookUrls: [HOOK_URL], fetch, now: () => wall });
    await cancelOne(sandbox);
    expect(hooks.requests).toHaveLength(1);
    await sandbox.advance(TENANT, 60);

    const ids = new Set(hooks.requests.map((r) => r.headers.get('x-event-id')));
    const stamps = new Set(hooks.requests.map((r) => r.headers.get('x-timestamp')));
    expect([hooks.requests.length, ids.size, stamps.size, hooks.events.length]).toEqual([4, 1, 4, 1]);
    expect(hooks.events[0]!.id).toBe([...ids][0]);
    const [delivery] = await deliveriesOf(sandbox);
    expect(delivery!.state).toBe('delivered');
    expect(delivery!.attempts.map((a) => a.outcome?.status)).toEqual([503, 503, 503, 200]);
    // Note: the core's schedule compressed 60 times: 1, 2 and 4 seconds between attempts.
    expect(delivery!.attempts.map((a) => a.due_at.slice(11))).toEqual([
      '00:00:00Z',
      '00:00:01Z',
      '00:00:03Z',
      '00:00:07Z',
    ]);
    expect(hooks.requests.every((r) => r.headers.get('user-agent')?.startsWith('merchant-payments-sandbox/'))).toBe(
      true,
    );
  });

  it('dates an attempt when it was sent: a clock advanced while the receiver holds it moves neither the attempt nor its retry', async () => {
    let release: (() => void) | undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const hooks = receiver({ answer: (n) => (n === 1 ? 503 : undefined) });
    const fetch = async (request: Request) => {
      if (hooks.requests.length === 0) await held;
      return hooks.fetch(request);
    };
    const sandbox = await openTestSandbox({ webhookUrls: [HOOK_URL], fetch });
    const client = clientA(sandbox);
    const payment = (await client.POST('/payments', { body: paymentBody() })).data!.data;
    await client.POST('/payments/{id}/cancel', { params: { path: { id: payment.id } } });
    // The first attempt is in flight, held by the receiver, while a minute passes on the tenant's clock.
    await sandbox.advance(TENANT, 60);
    release!();
    await sandbox.settled();
    const [delivery] = await deliveriesOf(sandbox);
    expect(delivery!.attempts[0]).toMatchObject({
      due_at: expect.stringMatching(/T00:00:00/),
      sent_at: expect.stringMatching(/T00:00:00/),
      outcome: { status: 503 },
    });
    // Note: the retry falls due one compressed minute (1 s) after the attempt was sent, so the next advance sends it.
    expect(delivery!.attempts[1]?.due_at).toMatch(/T00:00:01/);
    await sandbox.advance(TENANT, 1);
    expect((await deliveriesOf(sandbox))[0]!.state).toBe('delivered');
    expect(new Set(hooks.requests.map((r) => r.headers.get('x-event-id'))).size).toBe(1);
  });

  it('sends the earlier layout to an endpoint that asks for it: no X-Timestamp, data shaped like the create request', async () => {
    const hooks = receiver({ allowEarlierLayout: true });
    const sandbox = await openTestSandbox({ fetch: hooks.fetch });
    await addHook(sandbox, { url: HOOK_URL, layout: 'earlier' });
    const body = paymentBody({ metadata: { order_id: 'o-1' } });
    await clientA(sandbox).POST('/payments', { body });
    await sandbox.advance(TENANT, 60);
    expect(hooks.requests.map((r) => r.headers.has('x-timestamp'))).toEqual([false, false]);
    expect(hooks.events.map((e) => e.data)).toEqual([body, body]);
  });

  it('does not send payout or appeal events in the earlier layout, and logs why', async () => {
    const hooks = receiver({ allowEarlierLayout: true });
    const sandbox = await openTestSandbox({ fetch: hooks.fetch });
    const client = clientA(sandbox);
    const payment = (await client.POST('/payments', { body: paymentBody({ amount: '9.05' }) })).data!.data;
    await addHook(sandbox, { url: HOOK_URL, layout: 'earlier' });
    await client.POST('/appeals', { body: { transaction_id: payment.id, amount: '1.00', currency: 'EUR' } });
    await sandbox.advance(TENANT, 10);
    const appealDelivery = (await deliveriesOf(sandbox)).find((d) =>
      d.attempts[0]?.outcome?.error?.includes('appeal.status_changed'),
    );
    expect(appealDelivery?.attempts[0]?.outcome).toEqual({
      ok: false,
      error: expect.stringContaining('earlier layout carries payment events only'),
    });
    expect(hooks.events.every((e) => e.type === 'payment.status_changed')).toBe(true);
  });

  it("signs with the endpoint's own secret when it has one", async () => {
    const secret = `whsec_${Buffer.from('another-endpoint-secret-24-bytes').toString('base64')}`;
    const got: { headers: Headers; body: string }[] = [];
    const sandbox = await openTestSandbox({
      fetch: async (r) => (got.push({ headers: r.headers, body: await r.text() }), new Response(null, { status: 204 })),
    });
    await addHook(sandbox, { url: HOOK_URL, secret });
    await cancelOne(sandbox);
    const [delivery] = got;
    const verified = new Webhook(secret).verify(delivery!.body, {
      'webhook-id': delivery!.headers.get('x-event-id')!,
      'webhook-timestamp': delivery!.headers.get('x-timestamp')!,
      'webhook-signature': delivery!.headers.get('x-signature')!,
    });
    expect((verified as { type: string }).type).toBe('payment.status_changed');
  });

  it('follows no redirect and gives up on a receiver that does not answer in time', async () => {
    const calls: string[] = [];
    const fetch = (request: Request) => {
      calls.push(request.url);
      if (request.url.endsWith('/moved'))
        return Promise.resolve(new Response(null, { status: 302, headers: { location: 'http://elsewhere.test/' } }));
      return new Promise<Response>(() => {});
    };
    const sandbox = await openTestSandbox({
      webhookUrls: ['http://merchant.test/moved', 'http://merchant.test/silent'],
      fetch,
      deliveryTimeoutMs: 50,
    });
    await cancelOne(sandbox);
    const outcomes = (await deliveriesOf(sandbox)).map((d) => d.attempts[0]!.outcome!.error);
    expect(outcomes).toEqual([
      'redirect: the endpoint answered with a redirect, which deliveries do not follow.',
      'timeout: no complete answer within 50 ms.',
    ]);
    expect(calls).toEqual(['http://merchant.test/moved', 'http://merchant.test/silent']);
  });

  it('moves a real clock by itself: a payment is processed and its webhooks sent without an advance', async () => {
    let wall = Date.now();
    const hooks = receiver();
    const sandbox = await openTestSandbox({
      clock: 'real',
      tickMs: 5,
      now: () => wall,
      webhookUrls: [HOOK_URL],
      fetch: (r) => hooks.fetch(r),
    });
    await clientA(sandbox).POST('/payments', { body: paymentBody() });
    wall += 60_000;
    for (let i = 0; i < 200 && hooks.events.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(hooks.later.map((e) => e.data.status)).toEqual(['pending', 'succeeded']);
  });

  it('keeps the event log, deliveries and timers within the limit while the endpoint answers 500 to everything', async () => {
    const sandbox = await openTestSandbox({
      webhookUrls: [HOOK_URL],
      fetch: async () => new Response('down', { status: 500 }),
      quotas: { events: 50 },
    });
    const tenant = sandbox.tenantId(TENANT);
    const lastSeen = new Map<string, string>();
    for (let made = 0; made < 200;) {
      await cancelOne(sandbox);
      await sandbox.advance(TENANT, 30);
      await sandbox.settled();
      const seen = await sandbox.store.transaction(tenant, (state) => ({
        made: state.eventsMade,
        kept: eventCount(state),
        deliveries: allDeliveries(state),
      }));
      made = seen.made;
      expect([seen.kept <= 50, seen.deliveries.length <= 50]).toEqual([true, true]);
      // Note: one attempt timer per scheduled delivery, none for a delivery that ended or left with its change.
      expect(await attemptTimers(sandbox, tenant)).toBe(seen.deliveries.filter((d) => d.state === 'scheduled').length);
      const kept = new Set(seen.deliveries.map((d) => d.id));
      for (const delivery of seen.deliveries) lastSeen.set(delivery.id, delivery.state);
      for (const [id, state] of lastSeen) if (!kept.has(id)) expect(state, id).toMatch(/^(failed|abandoned)$/);
    }
    // The control API lists the abandoned ones with no attempt pending.
    const listed = await sandbox.fetch(
      new Request('http://sandbox.test/_sandbox/deliveries?state=abandoned&limit=100', {
        headers: { authorization: 'Bearer token-a' },
      }),
    );
    const { data } = (await listed.json()) as {
      data: { state: string; next_attempt_at: string | null; attempts: { outcome: string }[] }[];
    };
    expect(data.length).toBeGreaterThan(0);
    expect(
      data.every(
        (d) => d.state === 'abandoned' && d.next_attempt_at === null && d.attempts.every((a) => a.outcome === 'failed'),
      ),
    ).toBe(true);
  });
});

/** How many attempt timers the tenant holds: the memory store's own list, or the postgres store's rows. */
async function attemptTimers(sandbox: Sandbox, tenant: string): Promise<number> {
  if (STORE === 'memory')
    return sandbox.store.transaction(tenant, (state) => memoryTimers(state).filter((t) => t.type === 'attempt').length);
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: databaseOf(sandbox) });
  await client.connect();
  try {
    const { rows } = await client.query(
      "SELECT count(*)::int AS n FROM sandbox_timers WHERE tenant_id = $1 AND body->>'type' = 'attempt'",
      [tenant],
    );
    return rows[0].n as number;
  } finally {
    await client.end();
  }
}
