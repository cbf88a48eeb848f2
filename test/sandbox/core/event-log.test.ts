import { describe, expect, it } from 'vitest';
import {
  addEndpoint,
  attemptContext,
  EVENT_LOG_LIMIT,
  eventAt,
  eventCount,
  type DeliverNow,
} from '../../../packages/sandbox/src/core/index.js';
import { createStore, type SandboxStore } from './sync-store.js';
import { retiring } from '../../../packages/sandbox/src/core/event-log.js';
import { key, newStore, ok, paymentBody, T } from './fixtures.js';
import { allDeliveries, allEvents } from '../state-reads.js';
import { memoryTimers } from '../../../packages/sandbox/src/stores/memory-tenant.js';

/** Creates `count` payments that succeed (two status changes each) and runs their processing. */
function payments(store: SandboxStore, count: number, deliver?: DeliverNow): void {
  for (let i = 0; i < count; i++)
    ok(store.execute(T, { type: 'createPayment', idempotency_key: key(), body: paymentBody() }).answer);
  store.advance(T, 60, deliver);
}

const delivered: DeliverNow = () => ({ ok: true, status: 200 });

describe('the event log', () => {
  it('keeps 10,000 changes by default', () => {
    expect(EVENT_LOG_LIMIT).toBe(10_000);
    expect(newStore().tenant(T).eventLogLimit).toBe(EVENT_LOG_LIMIT);
    expect(() => createStore({ eventLogLimit: 0 })).toThrow(RangeError);
  });

  it('keeps the latest changes once full, dropping the oldest tenth at a time, and counts those that left', () => {
    const store = newStore({ eventLogLimit: 10 });
    payments(store, 5);
    const all = allEvents(store.tenant(T)).map((c) => c.event.id);
    expect(all).toHaveLength(10);
    payments(store, 1);
    const tenant = store.tenant(T);
    // Note: 12 changes made; at the 11th the log was trimmed to 9, then the 12th came in.
    expect([tenant.eventsDropped, eventCount(tenant)]).toEqual([2, 10]);
    expect(
      allEvents(tenant)
        .slice(0, 8)
        .map((c) => c.event.id),
    ).toEqual(all.slice(2));
    expect(eventAt(tenant, 1)).toBeUndefined();
    expect(eventAt(tenant, 2)?.event.id).toBe(all[2]);
    expect(eventAt(tenant, 11)).toBe(allEvents(tenant).at(-1));
  });

  it('drops the finished deliveries of the changes that leave, and finds the event of every delivery that stays', () => {
    const store = newStore({ eventLogLimit: 10 });
    addEndpoint(store.tenant(T), { url: 'https://merchant.test/hooks' }, store.now(T));
    payments(store, 20, delivered);
    const tenant = store.tenant(T);
    expect(eventCount(tenant)).toBeLessThanOrEqual(10);
    expect(allDeliveries(tenant)).toHaveLength(eventCount(tenant));
    for (const delivery of allDeliveries(tenant))
      expect(eventAt(tenant, delivery.event_index)?.event.id).toBe(delivery.event_id);
  });

  it('holds events, deliveries and timers within the limit while an endpoint never answers, and lists each delivery until it ended', () => {
    const store = newStore({ eventLogLimit: 50 });
    addEndpoint(store.tenant(T), { url: 'https://merchant.test/hooks' }, store.now(T));
    const refused: DeliverNow = () => ({ ok: false, status: 500, error: 'The endpoint answered 500.' });
    const lastSeen = new Map<string, string>();
    for (let i = 0; i < 100; i++) {
      // Two status changes each (processing, then succeeded), and every attempt due on the way fails.
      payments(store, 1, refused);
      const tenant = store.tenant(T);
      const attemptTimers = memoryTimers(tenant).filter((t) => t.type === 'attempt');
      const deliveries = allDeliveries(tenant);
      const scheduled = deliveries.filter((d) => d.state === 'scheduled');
      expect(eventCount(tenant)).toBeLessThanOrEqual(50);
      expect(deliveries.length).toBeLessThanOrEqual(50);
      // Note: one timer per scheduled delivery, none for any other; the rest are the payments' steps and expiries.
      expect(attemptTimers.map((t) => t.type === 'attempt' && t.delivery).sort()).toEqual(
        scheduled.map((d) => d.id).sort(),
      );
      for (const delivery of deliveries) {
        lastSeen.set(delivery.id, delivery.state);
        // An abandoned delivery's change is about to leave the log, and its attempts were all made.
        if (delivery.state === 'abandoned') expect(retiring(tenant, delivery)).toBe(true);
        if (delivery.state !== 'scheduled') expect(delivery.attempts.every((a) => a.outcome !== undefined)).toBe(true);
      }
      // A delivery leaves the log only once it has ended: never while it is still being retried.
      for (const [id, state] of lastSeen) if (!tenant.deliveries.get(id)) expect(state, id).not.toBe('scheduled');
    }
    const tenant = store.tenant(T);
    expect(tenant.eventsMade).toBe(200);
    expect(lastSeen.size).toBe(200);
    const states = new Set(lastSeen.values());
    expect(states.has('abandoned')).toBe(true);
    expect(states.has('scheduled')).toBe(true);
    expect([...states].every((state) => ['scheduled', 'failed', 'abandoned'].includes(state))).toBe(true);
  });

  it('abandons an attempt waiting for the sender when its change is about to leave, and the sender never sees it', () => {
    const store = newStore({ eventLogLimit: 10 });
    addEndpoint(store.tenant(T), { url: 'https://merchant.test/hooks' }, store.now(T));
    // Note: without a sender, every first attempt waits in `due`.
    payments(store, 10);
    const tenant = store.tenant(T);
    expect([eventCount(tenant), tenant.eventsDropped]).toEqual([10, 10]);
    const abandoned = allDeliveries(tenant).filter((d) => d.state === 'abandoned');
    expect(abandoned.map((d) => d.event_index)).toEqual([10, 11]);
    expect(abandoned.every((d) => d.attempts.length === 0)).toBe(true);
    expect(tenant.due.map((d) => d.delivery_id)).not.toContain(abandoned[0]!.id);
    // Every attempt that still waits can send its event, from the delivery itself.
    const sent: string[] = [];
    store.advance(T, 1, (due, t) => {
      sent.push(attemptContext(t, due).change.event.id);
      return { ok: true, status: 200 };
    });
    expect(sent).toEqual(
      allDeliveries(tenant)
        .filter((d) => d.state === 'delivered')
        .map((d) => d.event_id),
    );
    expect(sent).toHaveLength(8);
  });

  it('survives a snapshot and a restore with the positions unchanged', () => {
    const store = newStore({ eventLogLimit: 10 });
    payments(store, 8);
    const snapshot = store.snapshot();
    const copy = newStore({ eventLogLimit: 10 });
    copy.restore(snapshot);
    const [before, after] = [store.tenant(T), copy.tenant(T)];
    expect([after.eventsDropped, allEvents(after).map((c) => c.event.id)]).toEqual([
      before.eventsDropped,
      allEvents(before).map((c) => c.event.id),
    ]);
  });
});
