// The tenant store the sandbox runs on: the memory store's transactions (one at a time per tenant, tenants side by
// side), answers sent only once their transaction committed, and deliveries sent at least once when a sender dies
// between taking an attempt and recording it.
import { describe, expect, it } from 'vitest';
import { addEndpoint, createHead, leaseDue, type TenantState } from '../../packages/sandbox/src/core/index.js';
import { LEASE_MARGIN_MS } from '../../packages/sandbox/src/delivery/runner.js';
import { createMemoryStore } from '../../packages/sandbox/src/stores/memory.js';
import type { TenantStore, TenantStoreSettings } from '../../packages/sandbox/src/stores/types.js';
import { clientA, HOOK_URL, newSandbox, paymentBody, receiver } from './fixtures.js';
import { allDeliveries } from './state-reads.js';

const START = Date.UTC(2026, 0, 1);
const settings = (clock: 'manual' | 'real' = 'manual'): TenantStoreSettings => ({
  newTenant: (id) =>
    createHead(id, { clock, start: START, seed: 'stores', retryCompression: 60, eventLogLimit: 10_000 }),
});

describe('the memory store', () => {
  it("runs one tenant's transactions one after another, and another tenant's without waiting for them", async () => {
    const store = createMemoryStore(settings());
    const order: string[] = [];
    const step = (name: string) => (tenant: TenantState) => {
      order.push(name);
      tenant.seq += 1;
      return tenant.seq;
    };
    const a = [
      store.transaction('a', step('a1')),
      store.transaction('a', step('a2')),
      store.transaction('a', step('a3')),
    ];
    const b = store.transaction('b', step('b1'));
    expect(await Promise.all([...a, b])).toEqual([1, 2, 3, 1]);
    // Note: b's work ran in the same turn as a's first; a's second waited for a's first to settle.
    expect(order).toEqual(['a1', 'b1', 'a2', 'a3']);
  });

  it('rejects with the error of a transaction that throws, and runs the next one of the tenant all the same', async () => {
    const store = createMemoryStore(settings());
    const failing = store.transaction('a', () => {
      throw new Error('refused');
    });
    const next = store.transaction('a', (tenant) => tenant.id);
    await expect(failing).rejects.toThrow('refused');
    expect(await next).toBe('a');
  });

  it('resets a tenant after the transactions queued before it, and makes it afresh on next use', async () => {
    const store = createMemoryStore(settings());
    void store.transaction('a', (tenant) => void (tenant.seq = 5));
    await store.reset('a');
    expect(store.tenantIds()).toEqual([]);
    expect(await store.transaction('a', (tenant) => tenant.seq)).toBe(0);
  });

  it('runs tryTransaction only on a tenant that exists and has nothing queued, without waiting', async () => {
    const store = createMemoryStore(settings());
    expect(await store.tryTransaction('a', () => 'ran')).toBeUndefined();
    expect(store.tenantIds()).toEqual([]);
    const queued = store.transaction('a', (tenant) => (tenant.seq = 1));
    expect(await store.tryTransaction('a', () => 'ran')).toBeUndefined();
    await queued;
    // Note: the queue forgets the key a few microtasks after its last job settles.
    await new Promise((resolve) => setImmediate(resolve));
    expect(await store.tryTransaction('a', (tenant) => (tenant.seq += 1))).toEqual({ result: 2 });
  });

  it('names as due the real-clock tenants with a timer due, an attempt waiting, or a lease run out; not idle or manual ones', async () => {
    const real = createMemoryStore(settings('real'));
    await real.transaction('idle', () => {});
    await real.transaction('leased', (tenant) => {
      addEndpoint(tenant, { url: HOOK_URL }, START);
      tenant.due.push({ delivery_id: 'dlv_x', attempt: 1, due_at: START });
    });
    expect(await real.dueTenants(START)).toEqual(['leased']);
    // Note: taking the attempt leases it; once the lease runs out the tenant is due again (its delivery must still wait on it).
    await real.transaction('leased', (tenant) => {
      tenant.deliveries.set('dlv_x', {
        id: 'dlv_x',
        event_id: 'evt_x',
        endpoint_id: tenant.endpoints[0]!.id,
        state: 'due',
        attempts: [{ number: 1, due_at: '2026-01-01T00:00:00Z' }],
        event_index: 0,
        change: {} as never,
      });
      leaseDue(tenant, START, 1000);
    });
    expect(await real.dueTenants(START + 999)).toEqual([]);
    expect(await real.dueTenants(START + 1000)).toEqual(['leased']);
    const manual = createMemoryStore(settings('manual'));
    await manual.transaction(
      'm',
      (tenant) => void tenant.due.push({ delivery_id: 'dlv_y', attempt: 1, due_at: START }),
    );
    expect(await manual.dueTenants(START)).toEqual([]);
  });
});

/** A store that records when each transaction commits, and fails the commits `failing` picks (after the work ran). */
function recording(inner: TenantStore, log: string[], failing: (n: number) => boolean = () => false): TenantStore {
  let count = 0;
  return {
    ...inner,
    async transaction(tenant, work) {
      const n = ++count;
      const result = await inner.transaction(tenant, work);
      // Note: a commit that takes a while, as a database's does.
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (failing(n)) throw new Error('the commit failed');
      log.push(`commit ${n}`);
      return result;
    },
  };
}

describe('answers and commits', () => {
  it('sends a 2xx only after the transaction that made it committed', async () => {
    const log: string[] = [];
    const sandbox = newSandbox({ store: (s) => recording(createMemoryStore(s), log) });
    const created = await clientA(sandbox).POST('/payments', {
      body: paymentBody(),
      headers: { 'Idempotency-Key': 'k-1' },
    });
    log.push(`answer ${created.response.status}`);
    // The key is held (1), then the command runs (2); the answer comes after both committed (then the outbox's own follow).
    expect(log.slice(0, 3)).toEqual(['commit 1', 'commit 2', 'answer 200']);
  });

  it("sends no 2xx when the command's commit fails", async () => {
    const errors: unknown[] = [];
    const sandbox = newSandbox({
      store: (s) => recording(createMemoryStore(s), [], (n) => n === 1),
      onError: (error) => errors.push(error),
    });
    const created = await clientA(sandbox).POST('/payments', { body: paymentBody() });
    expect(created.response.status).toBe(500);
    expect(errors).toEqual([expect.objectContaining({ message: 'the commit failed' })]);
  });
});

describe('at-least-once delivery', () => {
  it('sends an attempt again, with the same X-Event-ID, when its outcome was never recorded and its lease ran out', async () => {
    // Note: the receiver checks X-Timestamp against its own clock, so the sandbox's wall clock starts at the real one.
    let wall = Date.now();
    let release!: () => void;
    const hooks = receiver();
    let calls = 0;
    // The first send never comes back (its process died mid-send, say); later ones reach the receiver.
    const fetch = (request: Request) =>
      ++calls === 1
        ? new Promise<Response>((resolve) => (release = () => resolve(new Response(null, { status: 204 }))))
        : hooks.fetch(request);
    const sandbox = newSandbox({ webhookUrls: [HOOK_URL], fetch, now: () => wall, deliveryTimeoutMs: 60_000 });
    const client = clientA(sandbox);
    const payment = (await client.POST('/payments', { body: paymentBody() })).data!.data;
    await client.POST('/payments/{id}/cancel', { params: { path: { id: payment.id } } });
    const tenant = sandbox.tenantId({ accessToken: 'token-a' });
    const sending = () => sandbox.store.transaction(tenant, (state) => state.sending.map((s) => s.delivery_id));
    expect(await sending()).toHaveLength(1);

    // Within the lease nothing is sent twice; past it the attempt is taken and sent again.
    await sandbox.runtime.deliver(tenant);
    expect(calls).toBe(1);
    wall += 60_000 + LEASE_MARGIN_MS;
    await sandbox.runtime.deliver(tenant);
    expect(hooks.requests).toHaveLength(1);
    const [delivery] = await sandbox.store.transaction(tenant, allDeliveries);
    expect([delivery!.state, delivery!.attempts.length, delivery!.attempts[0]!.outcome?.status]).toEqual([
      'delivered',
      1,
      200,
    ]);
    expect(hooks.requests[0]!.headers.get('x-event-id')).toBe(delivery!.event_id);
    expect(await sending()).toEqual([]);

    // The first send's outcome, arriving late, changes nothing.
    release();
    await sandbox.settled();
    const [after] = await sandbox.store.transaction(tenant, allDeliveries);
    expect([after!.state, after!.attempts.length]).toEqual(['delivered', 1]);
  });
});
