import { describe, expect, it } from 'vitest';
import { addEndpoint, attemptContext, createStore, EVENT_LOG_LIMIT, eventAt, type DeliverNow, type SandboxStore } from '../../../src/sandbox/core/index.js';
import { key, newStore, ok, paymentBody, T } from './fixtures.js';

/** Creates `count` payments that succeed (two status changes each) and runs their processing. */
function payments(store: SandboxStore, count: number, deliver?: DeliverNow): void {
  for (let i = 0; i < count; i++) ok(store.execute(T, { type: 'createPayment', idempotency_key: key(), body: paymentBody() }).answer);
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
    const all = store.tenant(T).events.map((c) => c.event.id);
    expect(all).toHaveLength(10);
    payments(store, 1);
    const tenant = store.tenant(T);
    // Note: 12 changes made; at the 11th the log was trimmed to 9, then the 12th came in.
    expect([tenant.eventsDropped, tenant.events.length]).toEqual([2, 10]);
    expect(tenant.events.slice(0, 8).map((c) => c.event.id)).toEqual(all.slice(2));
    expect(eventAt(tenant, 1)).toBeUndefined();
    expect(eventAt(tenant, 2)?.event.id).toBe(all[2]);
    expect(eventAt(tenant, 11)).toBe(tenant.events.at(-1));
  });

  it('drops the finished deliveries of the changes that leave, and finds the event of every delivery that stays', () => {
    const store = newStore({ eventLogLimit: 10 });
    addEndpoint(store.tenant(T), { url: 'https://merchant.test/hooks' }, store.now(T));
    payments(store, 20, delivered);
    const tenant = store.tenant(T);
    expect(tenant.events.length).toBeLessThanOrEqual(10);
    expect(tenant.deliveries.size).toBe(tenant.events.length);
    for (const delivery of tenant.deliveries.values()) expect(eventAt(tenant, delivery.event_index)?.event.id).toBe(delivery.event_id);
  });

  it('keeps a change whose delivery is still under way, and the changes after it, until the delivery ends', () => {
    const store = newStore({ eventLogLimit: 10 });
    addEndpoint(store.tenant(T), { url: 'https://merchant.test/hooks' }, store.now(T));
    // Note: without a sender, every first attempt waits in `due`, so nothing may leave the log.
    payments(store, 10);
    const tenant = store.tenant(T);
    expect([tenant.events.length, tenant.eventsDropped]).toEqual([20, 0]);
    const waiting = tenant.due.length;
    expect(waiting).toBe(20);
    // Every waiting attempt can still send its event; once they are sent, the next change trims the log.
    const sent: string[] = [];
    store.advance(T, 1, (due, t) => {
      sent.push(attemptContext(t, due).change.event.id);
      return { ok: true, status: 200 };
    });
    expect(sent).toHaveLength(waiting);
    payments(store, 1, delivered);
    expect(tenant.events.length).toBeLessThanOrEqual(10);
    expect(tenant.eventsDropped).toBe(22 - tenant.events.length);
    expect(tenant.deliveries.size).toBe(tenant.events.length);
  });

  it('survives a snapshot and a restore with the positions unchanged', () => {
    const store = newStore({ eventLogLimit: 10 });
    payments(store, 8);
    const snapshot = store.snapshot();
    const copy = newStore({ eventLogLimit: 10 });
    copy.restore(snapshot);
    const [before, after] = [store.tenant(T), copy.tenant(T)];
    expect([after.eventsDropped, after.events.map((c) => c.event.id)]).toEqual([before.eventsDropped, before.events.map((c) => c.event.id)]);
  });
});
