// Open mode's bound on tenants (issue 24) on the memory store: at most `tenants.max`, a new credential past it answered
// 429 tenant_limit_reached (401 on the control API, which declares no 429) with Retry-After; a tenant unused for
// `tenants.idleSeconds` forgotten with its state, by the sweep's timer or when a new one needs its room; and the event
// log's retention as a quota (`quotas.events`). Wall time moves through the `now` option, never by waiting; idle times
// are 600 s or more, so that the sweep's own timer (every tenth of it, at most a minute) never runs during a test.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createSandbox,
  TenantLimitError,
  type Sandbox,
  type SandboxOptions,
} from '../../packages/sandbox/src/index.js';
import { createMemoryStore, type MemoryStore } from '../../packages/sandbox/src/stores/memory.js';
import { sweepIntervalMs } from '../../packages/sandbox/src/stores/sweep.js';
import { call, HOOK_URL, newSandbox, paymentBody, receiver } from './fixtures.js';

const START = Date.UTC(2026, 0, 1);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const keyPair = (publicKey: string, secretKey: string) => ({ 'x-public-key': publicKey, 'x-secret-key': secretKey });

/** A sandbox bounded to `max` tenants kept `idleSeconds` unused, on a wall clock the test moves. */
function bounded(max: number, idleSeconds: number, options: SandboxOptions = {}) {
  let wall = START;
  const sandbox = newSandbox({ tenants: { max, idleSeconds }, now: () => wall, ...options });
  return { sandbox, move: (seconds: number) => void (wall += seconds * 1000), store: sandbox.store as MemoryStore };
}

/** The value of a metric without labels in the sandbox's /metrics text. */
async function metric(sandbox: Sandbox, name: string): Promise<number> {
  const text = await (await sandbox.fetch(new Request('http://sandbox.test/metrics'))).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  if (line === undefined) throw new Error(`/metrics has no ${name}`);
  return Number(line.slice(name.length + 1));
}

afterEach(() => {
  vi.useRealTimers();
});

describe('tenants.max in open mode', () => {
  it('answers a new bearer token past the bound with 429 tenant_limit_reached naming it, Retry-After the seconds until the oldest idle tenant goes', async () => {
    const { sandbox, move } = bounded(3, 600);
    for (const token of ['t1', 't2', 't3']) {
      expect((await call(sandbox, 'GET', '/payments', bearer(token))).status).toBe(200);
      move(10);
    }
    const refused = await call(sandbox, 'GET', '/payments', bearer('t4'));
    const problem = await refused.json();
    expect([
      refused.status,
      refused.headers.get('retry-after'),
      refused.headers.get('content-type'),
      problem.code,
      problem.title,
      problem.status,
    ]).toEqual([429, '570', 'application/problem+json', 'tenant_limit_reached', 'Too many tenants', 429]);
    expect(problem.detail).toBe(
      'The sandbox holds its most tenants (3), and these credentials would make a new one. A tenant no request has used for 600 s ' +
        'is forgotten with its state, the next in 570 s: retry after 570 s (Retry-After), or use credentials the sandbox already knows.',
    );
    expect(problem.type).toBe('https://docs.payments.example/problems/tenant_limit_reached');
    expect(await sandbox.store.tenantCount!()).toBe(3);
  });

  it('never refuses a tenant that exists, whatever it asks, and counts a use as keeping it', async () => {
    const { sandbox, move } = bounded(2, 600);
    expect(
      (await call(sandbox, 'POST', '/payments', { ...bearer('t1'), 'idempotency-key': 'p1' }, paymentBody())).status,
    ).toBe(200);
    expect((await call(sandbox, 'GET', '/payments', bearer('t2'))).status).toBe(200);
    expect((await call(sandbox, 'GET', '/payments', bearer('t3'))).status).toBe(429);
    move(360);
    // Note: t1 is used again at 360 s, so t2 (used at 0 s) is the one unused the longest: forgotten 600 s after its use.
    expect((await call(sandbox, 'GET', '/payments', bearer('t1'))).status).toBe(200);
    expect((await call(sandbox, 'GET', '/_sandbox/clock', bearer('t1'))).status).toBe(200);
    expect(
      (await call(sandbox, 'POST', '/payments', { ...bearer('t1'), 'idempotency-key': 'p2' }, paymentBody())).status,
    ).toBe(200);
    const refused = await call(sandbox, 'GET', '/payments', bearer('t3'));
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, '240']);
    move(239);
    expect((await call(sandbox, 'GET', '/payments', bearer('t3'))).status).toBe(429);
    move(1);
    expect((await call(sandbox, 'GET', '/payments', bearer('t3'))).status).toBe(200);
    const kept = await call(sandbox, 'GET', '/payments', bearer('t1'));
    expect([kept.status, (await kept.json()).pagination.total]).toEqual([200, 2]);
    expect(await metric(sandbox, 'sandbox_tenants_evicted_total')).toBe(1);
  });

  it('answers Variant B past the bound with the same 429, before its secret key is learnt', async () => {
    const { sandbox, move } = bounded(1, 600);
    expect((await call(sandbox, 'GET', '/merchant/v1/payments', keyPair('pk_1', 'sk_1'))).status).toBe(200);
    move(240);
    const refused = await call(sandbox, 'GET', '/merchant/v1/payments', keyPair('pk_2', 'sk_2'));
    const problem = await refused.json();
    expect([refused.status, refused.headers.get('retry-after'), problem.code]).toEqual([
      429,
      '360',
      'tenant_limit_reached',
    ]);
    expect(problem.detail).toContain('most tenants (1)');
    expect((await call(sandbox, 'GET', '/merchant/v1/payments', keyPair('pk_1', 'sk_1'))).status).toBe(200);
  });

  it("answers a control request that would make a new tenant with the control API's 401, its detail naming the bound (the document declares no 429)", async () => {
    const { sandbox, move } = bounded(1, 600);
    expect((await call(sandbox, 'GET', '/_sandbox/clock', bearer('t1'))).status).toBe(200);
    move(25);
    const refused = await call(sandbox, 'POST', '/_sandbox/webhook-endpoints', bearer('t2'), { url: HOOK_URL });
    const problem = await refused.json();
    expect([
      refused.status,
      problem.code,
      refused.headers.get('www-authenticate'),
      refused.headers.get('retry-after'),
    ]).toEqual([401, 'unauthorized', 'Bearer realm="merchant-payments-sandbox"', null]);
    expect(problem.detail).toBe(
      'The sandbox holds its most tenants (1), and these credentials would make a new one. A tenant no request has used for 600 s ' +
        'is forgotten with its state, the next in 575 s: retry then, or use credentials the sandbox already knows.',
    );
    const pair = await call(sandbox, 'GET', '/_sandbox/events', keyPair('pk_c', 'sk_c'));
    expect([pair.status, pair.headers.get('www-authenticate'), (await pair.json()).code]).toEqual([
      401,
      null,
      'unauthorized',
    ]);
  });

  it('rejects sandbox.now() past the bound with TenantLimitError from the JS API', async () => {
    const { sandbox } = bounded(1, 600);
    await sandbox.now({ accessToken: 't1' });
    const error = await sandbox.now({ accessToken: 't2' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TenantLimitError);
    expect([
      (error as TenantLimitError).max,
      (error as TenantLimitError).idleSeconds,
      (error as TenantLimitError).retryAfter,
    ]).toEqual([1, 600, 600]);
  });

  it('keeps the memory store at 1,000 tenants through 30,000 distinct bearer tokens, forgetting idle ones as the wall clock moves', async () => {
    let wall = START;
    const sandbox = createSandbox({ tenants: { max: 1_000, idleSeconds: 600 }, now: () => wall, validate: false });
    const store = sandbox.store as MemoryStore;
    const statuses = new Map<number, number>();
    let most = 0;
    for (let batch = 0; batch < 300; batch += 1) {
      // Note: 100 new tokens every 10 s, so about 6,000 arrive in the idle time against room for 1,000.
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) => call(sandbox, 'GET', '/payments', bearer(`burst-${batch}-${i}`))),
      );
      for (const answer of answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      most = Math.max(most, store.tenantIds().length);
      wall += 10_000;
    }
    await sandbox.close();
    const evicted = await metric(sandbox, 'sandbox_tenants_evicted_total');
    expect(most).toBe(1_000);
    expect(store.tenantIds().length).toBeLessThanOrEqual(1_000);
    expect([...statuses.keys()].sort()).toEqual([200, 429]);
    expect(statuses.get(200)! + statuses.get(429)!).toBe(30_000);
    // Note: every tenant admitted is either still held or was forgotten; nothing else keeps one.
    expect(statuses.get(200)).toBe(store.tenantIds().length + evicted);
    expect(evicted).toBeGreaterThan(3_000);
  });
});

describe('tenants.idleSeconds in open mode', () => {
  it('forgets a tenant unused for the idle time with its state, keeps one used meanwhile, and counts what it forgot', async () => {
    const { sandbox, move, store } = bounded(10, 600);
    const created = await call(
      sandbox,
      'POST',
      '/payments',
      { ...bearer('idle'), 'idempotency-key': 'k' },
      paymentBody(),
    );
    const { data: payment } = await created.json();
    expect((await call(sandbox, 'GET', '/payments', bearer('busy'))).status).toBe(200);
    move(360);
    expect((await call(sandbox, 'GET', '/payments', bearer('busy'))).status).toBe(200);
    move(239);
    expect(await store.evictIdle!()).toBe(0);
    move(1);
    expect(await store.evictIdle!()).toBe(1);
    expect(store.tenantIds()).toEqual([sandbox.tenantId({ accessToken: 'busy' })]);
    expect([await metric(sandbox, 'sandbox_tenants'), await metric(sandbox, 'sandbox_tenants_evicted_total')]).toEqual([
      1, 1,
    ]);
    const gone = await call(sandbox, 'GET', `/payments/${payment.id}`, bearer('idle'));
    expect(gone.status).toBe(404);
    // Note: the tenant starts afresh: its Idempotency-Key is free again, and the same seed gives the same first id.
    const again = await call(
      sandbox,
      'POST',
      '/payments',
      { ...bearer('idle'), 'idempotency-key': 'k' },
      paymentBody({ amount: '1.00' }),
    );
    expect([again.status, again.headers.get('idempotent-replayed'), (await again.json()).data.id]).toEqual([
      200,
      null,
      payment.id,
    ]);
  });

  it("frees an evicted Variant B tenant's public key for another secret key", async () => {
    const { sandbox, move, store } = bounded(10, 600);
    expect((await call(sandbox, 'GET', '/merchant/v1/payments', keyPair('pk_evicted', 'sk_first'))).status).toBe(200);
    expect((await call(sandbox, 'GET', '/merchant/v1/payments', keyPair('pk_evicted', 'sk_other'))).status).toBe(401);
    move(600);
    expect(await store.evictIdle!()).toBe(1);
    expect((await call(sandbox, 'GET', '/merchant/v1/payments', keyPair('pk_evicted', 'sk_other'))).status).toBe(200);
    expect((await call(sandbox, 'GET', '/merchant/v1/payments', keyPair('pk_evicted', 'sk_first'))).status).toBe(401);
  });

  it("forgets the evicted tenant's faults, so that a fresh tenant under the same credentials gets none", async () => {
    const { sandbox, move, store } = bounded(10, 600);
    const fault = { operation_id: 'listPayments', kind: 'server_error', count: 1 };
    expect((await call(sandbox, 'POST', '/_sandbox/faults', bearer('faulty'), fault)).status).toBe(201);
    move(600);
    expect(await store.evictIdle!()).toBe(1);
    expect((await call(sandbox, 'GET', '/payments', bearer('faulty'))).status).toBe(200);
  });

  it('sweeps on a timer every tenth of the idle time (at most a minute), and stops when the sandbox closes', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let wall = START;
    let sweeps = 0;
    const sandbox = createSandbox({
      tenants: { idleSeconds: 100 },
      now: () => wall,
      store: (settings) => {
        const store = createMemoryStore(settings);
        const evictIdle = store.evictIdle!;
        return Object.assign(store, { evictIdle: () => ((sweeps += 1), evictIdle()) });
      },
    });
    expect(sweepIntervalMs(100_000)).toBe(10_000);
    expect(sweepIntervalMs(86_400_000)).toBe(60_000);
    expect((await call(sandbox, 'GET', '/payments', bearer('swept'))).status).toBe(200);
    wall += 100_000;
    await vi.advanceTimersByTimeAsync(10_000);
    expect([sweeps, (sandbox.store as MemoryStore).tenantIds()]).toEqual([1, []]);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(sweeps).toBe(3);
    await sandbox.close();
    await vi.advanceTimersByTimeAsync(60_000);
    expect([sweeps, vi.getTimerCount()]).toEqual([3, 0]);
  });

  it('neither bounds nor sweeps the tenants in issued mode', () => {
    const settings: { bound?: unknown }[] = [];
    const sandbox = createSandbox({
      auth: 'issued',
      tenants: { max: 1 },
      store: (given) => {
        settings.push(given);
        return createMemoryStore(given);
      },
    });
    expect(settings).toEqual([expect.objectContaining({ bound: undefined })]);
    return sandbox.close();
  });
});

describe('quotas.events', () => {
  it("keeps each new tenant's event log to the quota, and answers a redelivery of a dropped delivery with 404 naming the retention", async () => {
    const hooks = receiver();
    const sandbox = newSandbox({ quotas: { events: 5 }, webhookUrls: [HOOK_URL], fetch: hooks.fetch });
    const A = bearer('retained');
    /** A payment created and canceled: one status change, one event, one delivery. */
    const canceled = async (i: number) => {
      const { data } = await (
        await call(sandbox, 'POST', '/payments', { ...A, 'idempotency-key': `p${i}` }, paymentBody())
      ).json();
      expect(
        (await call(sandbox, 'POST', `/payments/${data.id}/cancel`, { ...A, 'idempotency-key': `c${i}` })).status,
      ).toBe(200);
      await sandbox.settled();
    };
    await canceled(1);
    const first = (await (await call(sandbox, 'GET', '/_sandbox/deliveries?limit=100', A)).json()).data.at(-1);
    for (let i = 2; i <= 8; i += 1) await canceled(i);
    const events = (await (await call(sandbox, 'GET', '/_sandbox/events?limit=100', A)).json()).data;
    expect(events.length).toBeLessThanOrEqual(5);
    expect(events.length).toBeGreaterThanOrEqual(4);
    const dropped = await call(sandbox, 'POST', `/_sandbox/deliveries/${first.id}/redeliver`, A);
    const problem = await dropped.json();
    expect([dropped.status, problem.code]).toEqual([404, 'not_found']);
    expect(problem.detail).toMatch(
      new RegExp(
        `^Delivery ${first.id} was dropped by the event-log retention: this tenant's log keeps its latest 5 events and drops older ones with their deliveries \\(\\d+ dropped so far\\)\\.$`,
      ),
    );
    const unknown = await call(sandbox, 'POST', '/_sandbox/deliveries/dlv_zzzzzzzzzzzz/redeliver', A);
    expect((await unknown.json()).detail).toBe('No delivery with id dlv_zzzzzzzzzzzz exists for this tenant.');
    const kept = (await (await call(sandbox, 'GET', '/_sandbox/deliveries?limit=1', A)).json()).data[0];
    expect((await call(sandbox, 'POST', `/_sandbox/deliveries/${kept.id}/redeliver`, A)).status).toBe(200);
  });

  it('leaves a tenant that dropped nothing answering the plain 404', async () => {
    const sandbox = newSandbox({ quotas: { events: 5 } });
    const answer = await call(sandbox, 'POST', '/_sandbox/deliveries/dlv_000000000001/redeliver', bearer('fresh'));
    expect([answer.status, (await answer.json()).detail]).toEqual([
      404,
      'No delivery with id dlv_000000000001 exists for this tenant.',
    ]);
  });
});
