import { describe, expect, it } from 'vitest';
import {
  eventCount,
  addEndpoint,
  attemptContext,
  iso,
  recordAttempt,
  redeliver,
  removeEndpoint,
  RETRY_SCHEDULE_SECONDS,
  takeDue,
  type DeliverNow,
} from '../../../packages/sandbox/src/core/index.js';
import type { SandboxStore } from './sync-store.js';
import { create, current, key, newStore, ok, paymentBody, T } from './fixtures.js';
import { allDeliveries, allEvents } from '../state-reads.js';

const endpoint = (store: SandboxStore, layout?: 'later' | 'earlier') =>
  addEndpoint(store.tenant(T), { url: 'https://merchant.test/hooks', ...(layout ? { layout } : {}) }, store.now(T));

/** A sender that fails `failures` times for each delivery, then succeeds, noting when it was called. */
function sender(failures: number) {
  const calls: { delivery: string; event: string; attempt: number; at: number }[] = [];
  const deliver: DeliverNow = (due, tenant) => {
    const { delivery, change } = attemptContext(tenant, due);
    calls.push({ delivery: delivery.id, event: change.event.id, attempt: due.attempt, at: tenant.time });
    return due.attempt > failures ? { ok: true, status: 200 } : { ok: false, status: 500 };
  };
  return { calls, deliver };
}

describe('status-change events', () => {
  it('emits one event per status change, shaped like onStatusChange, with the object as it became', () => {
    const store = newStore();
    const p = create(store, 'payment');
    const changes = store.advance(T, 60);
    expect(changes.map((c) => [c.event.type, c.event.created_at, c.event.data.status])).toEqual([
      ['payment.status_changed', '2026-01-01T00:00:02Z', 'pending'],
      ['payment.status_changed', '2026-01-01T00:00:07Z', 'succeeded'],
    ]);
    expect(Object.keys(changes[0]!.event)).toEqual(['id', 'type', 'created_at', 'data']);
    expect(changes.map((c) => c.event.id)).toEqual([...new Set(changes.map((c) => c.event.id))]);
    expect(changes[1]!.event.data).toEqual(current(store, 'payment', p.id));
    expect(allEvents(store.tenant(T)).map((c) => c.event.id)).toEqual(changes.map((c) => c.event.id));
  });

  it('emits nothing on creation, and types payout and appeal events by kind', () => {
    const store = newStore();
    const payout = create(store, 'payout');
    const before = eventCount(store.tenant(T));
    const appeal = create(store, 'appeal');
    expect(eventCount(store.tenant(T))).toBe(before);
    const changes = store.advance(T, 60).filter((c) => c.object_id === payout.id || c.object_id === appeal.id);
    expect([...new Set(changes.map((c) => `${c.kind} ${c.event.type}`))].sort()).toEqual([
      'appeal appeal.status_changed',
      'payout payout.status_changed',
    ]);
  });

  it('hands out events whose data cannot be changed by the caller', () => {
    const store = newStore();
    create(store, 'payment');
    const [change] = store.advance(T, 2);
    expect(() => {
      (change!.event.data as { status: string }).status = 'succeeded';
    }).toThrow(TypeError);
  });
});

describe('the outbox', () => {
  it('schedules nothing while the tenant has no endpoint', () => {
    const store = newStore();
    create(store, 'payment');
    store.advance(T, 60);
    expect(allDeliveries(store.tenant(T))).toHaveLength(0);
  });

  it('makes one delivery per event and endpoint, due at once, waiting for a sender when none is given', () => {
    const store = newStore();
    const [a, b] = [endpoint(store), endpoint(store, 'earlier')];
    create(store, 'payment');
    const changes = store.advance(T, 2);
    const due = takeDue(store.tenant(T));
    expect(due.map((d) => [attemptContext(store.tenant(T), d).endpoint?.id, d.attempt, iso(d.due_at)])).toEqual([
      [a.id, 1, changes[0]!.event.created_at],
      [b.id, 1, changes[0]!.event.created_at],
    ]);
    expect(b.layout).toBe('earlier');
    expect(takeDue(store.tenant(T))).toEqual([]);
  });

  it('retries a failing endpoint on the contract schedule compressed 60 times, with the same event, then gives up', () => {
    const store = newStore();
    endpoint(store);
    create(store, 'payment', undefined);
    const { calls, deliver } = sender(Infinity);
    store.advance(T, 2, deliver);
    store.advance(T, 5000, deliver);
    const first = calls.filter((c) => c.event === calls[0]!.event);
    expect(first.map((c) => (c.at - first[0]!.at) / 1000)).toEqual(RETRY_SCHEDULE_SECONDS.map((s) => s / 60));
    expect(new Set(first.map((c) => c.delivery)).size).toBe(1);
    expect(RETRY_SCHEDULE_SECONDS.at(-1)! / 3600).toBeCloseTo(68.25);
    const delivery = store.tenant(T).deliveries.get(first[0]!.delivery)!;
    expect([
      delivery.state,
      delivery.attempts.length,
      delivery.attempts.every((a) => a.outcome?.status === 500),
    ]).toEqual(['failed', 13, true]);
  });

  it('stops retrying at the first 2xx', () => {
    const store = newStore();
    endpoint(store);
    create(store, 'payment', undefined);
    const { calls, deliver } = sender(2);
    store.advance(T, 3600, deliver);
    const events = [...new Set(calls.map((c) => c.event))];
    expect(events.map((e) => calls.filter((c) => c.event === e).map((c) => c.attempt))).toEqual([
      [1, 2, 3],
      [1, 2, 3],
    ]);
    expect(allDeliveries(store.tenant(T)).map((d) => d.state)).toEqual(['delivered', 'delivered']);
  });

  it('runs the schedule uncompressed when asked to', () => {
    const store = newStore({ retryCompression: 1 });
    endpoint(store);
    create(store, 'payment', undefined);
    const { calls, deliver } = sender(Infinity);
    store.advance(T, 2 + 59, deliver);
    expect(calls.filter((c) => c.attempt === 2)).toEqual([]);
    store.advance(T, 1, deliver);
    expect(calls.filter((c) => c.attempt === 2).map((c) => iso(c.at))).toEqual(['2026-01-01T00:01:02Z']);
  });

  it('interleaves deliveries with transitions in time order', () => {
    const store = newStore();
    endpoint(store);
    const p = create(store, 'payment', undefined);
    const seen: string[] = [];
    store.advance(T, 60, (due, tenant) => {
      const { change } = attemptContext(tenant, due);
      seen.push(`${iso(tenant.time)} ${change.to} #${due.attempt} (object now ${tenant.payments.get(p.id)!.status})`);
      return { ok: due.attempt > 1 };
    });
    expect(seen).toEqual([
      '2026-01-01T00:00:02Z pending #1 (object now pending)',
      '2026-01-01T00:00:03Z pending #2 (object now pending)',
      '2026-01-01T00:00:07Z succeeded #1 (object now succeeded)',
      '2026-01-01T00:00:08Z succeeded #2 (object now succeeded)',
    ]);
  });

  it('takes outcomes reported later by an asynchronous sender, and counts the next attempt from when it reported', () => {
    const store = newStore();
    endpoint(store);
    create(store, 'payment');
    store.advance(T, 2);
    const [due] = takeDue(store.tenant(T));
    store.advance(T, 10);
    const delivery = recordAttempt(store.tenant(T), due!, { ok: false, error: 'ECONNREFUSED' }, store.now(T));
    expect(delivery.attempts.map((a) => [a.number, a.due_at, a.outcome?.error])).toEqual([
      [1, '2026-01-01T00:00:02Z', 'ECONNREFUSED'],
      [2, '2026-01-01T00:00:13Z', undefined],
    ]);
    expect(() => recordAttempt(store.tenant(T), due!, { ok: true }, store.now(T))).toThrow(/no attempt 1 waiting/);
  });

  it('stops delivering to a removed endpoint, and redelivers on request', () => {
    const store = newStore();
    const hook = endpoint(store);
    create(store, 'payment');
    const { calls, deliver } = sender(Infinity);
    store.advance(T, 2, deliver);
    expect(removeEndpoint(store.tenant(T), hook.id)).toBe(true);
    store.advance(T, 600, deliver);
    expect(calls.map((c) => c.attempt)).toEqual([1]);
    const tenant = store.tenant(T);
    expect(allDeliveries(tenant).map((d) => [d.state, d.attempts.length])).toEqual([['failed', 1]]);
    tenant.endpoints.push(hook);
    const again = redeliver(tenant, calls[0]!.delivery, store.now(T));
    store.advance(T, 0, deliver);
    expect([again?.attempts.at(-1)?.number, calls.map((c) => c.attempt)]).toEqual([2, [1, 2]]);
  });

  it('sends, at the next advance with a sender, an attempt that fell due while a command ran', () => {
    const store = newStore();
    endpoint(store);
    const p = create(store, 'payment', undefined);
    ok(store.execute(T, { type: 'cancelPayment', id: p.id, idempotency_key: key() }).answer);
    store.execute(T, { type: 'retrieveBalance' });
    expect(allDeliveries(store.tenant(T)).map((d) => d.state)).toEqual(['due']);
    const { calls, deliver } = sender(0);
    store.advance(T, 0, deliver);
    expect([
      calls.map((c) => c.attempt),
      allDeliveries(store.tenant(T)).map((d) => d.state),
      store.tenant(T).due,
    ]).toEqual([[1], ['delivered'], []]);
  });

  it('refuses a sender that calls back into the tenant while its clock runs', () => {
    const store = newStore();
    endpoint(store);
    create(store, 'payment');
    expect(() =>
      store.advance(T, 2, () => ok(store.execute(T, { type: 'retrieveBalance' }).answer) && { ok: true }),
    ).toThrow(/already running/);
  });

  it('does not deliver events emitted before the endpoint existed', () => {
    const store = newStore();
    ok(store.execute(T, { type: 'createPayment', idempotency_key: key(), body: paymentBody() }).answer);
    store.advance(T, 2);
    endpoint(store);
    store.advance(T, 60);
    expect(
      allDeliveries(store.tenant(T)).map(
        (d) => attemptContext(store.tenant(T), { delivery_id: d.id, attempt: 1, due_at: 0 }).change.to,
      ),
    ).toEqual(['succeeded']);
  });
});
