import { describe, expect, it } from 'vitest';
import { addEndpoint } from '../../../packages/sandbox/src/core/index.js';
import type { SandboxStore } from './sync-store.js';
import { create, current, newStore, ok, T } from './fixtures.js';

/** The same little story, run on any store: ids, timestamps and events all come from it. */
function story(store: SandboxStore, tenant = T) {
  addEndpoint(store.tenant(tenant), { url: 'https://merchant.test/hooks' }, store.now(tenant));
  const payout = create(store, 'payout', undefined, tenant);
  const appeal = create(store, 'appeal', undefined, tenant);
  store.advance(tenant, 30);
  return { payout, appeal };
}

describe('the store', () => {
  it('gives the same ids, state and events for the same seed and commands', () => {
    const [a, b] = [newStore({ seed: 's1' }), newStore({ seed: 's1' })];
    expect(story(a)).toEqual(story(b));
    // Note: the fixtures draw a fresh Idempotency-Key per request, so only the keys differ between the two runs.
    const state = (store: SandboxStore) => ({
      ...store.snapshot().get(T)!,
      idempotency: [...(store.tenant(T).idempotency as unknown as Map<string, unknown>).values()],
    });
    expect(state(a)).toEqual(state(b));
  });

  it('gives other ids for another seed, and other ids in another tenant of the same store', () => {
    const store = newStore({ seed: 's1' });
    const here = story(store);
    expect(story(newStore({ seed: 's2' })).payout.id).not.toBe(here.payout.id);
    expect(story(store, 'tenant-b').payout.id).not.toBe(here.payout.id);
  });

  it('keeps tenants apart: objects, clocks and balances', () => {
    const store = newStore();
    const { payout } = story(store);
    const other = store.execute('tenant-b', { type: 'retrievePayout', id: payout.id }).answer;
    expect(other.ok ? 'ok' : other.problem.code).toBe('not_found');
    expect(store.now('tenant-b')).toBeLessThan(store.now(T));
    expect(ok(store.execute('tenant-b', { type: 'retrieveBalance' }).answer).balances).toEqual([]);
    expect(store.tenantIds().sort()).toEqual([T, 'tenant-b']);
  });

  it('restores a snapshot, which later changes do not reach, and carries on exactly as the original did', () => {
    const store = newStore();
    const { payout } = story(store);
    const snapshot = store.snapshot();
    const later = story(store);
    store.restore(snapshot);
    expect(current(store, 'payout', payout.id).status).toBe('succeeded');
    expect(store.execute(T, { type: 'retrievePayout', id: later.payout.id }).answer.ok).toBe(false);
    expect(story(store)).toEqual(later);
    expect(snapshot.get(T)!.payouts.count()).toBe(1);
  });

  it('resets one tenant, which then starts afresh, and leaves the others alone', () => {
    const store = newStore();
    const first = story(store);
    story(store, 'tenant-b');
    store.reset(T);
    expect(store.tenantIds()).toEqual(['tenant-b']);
    expect(story(store)).toEqual(first);
    expect(ok(store.execute('tenant-b', { type: 'listPayouts' }).answer).pagination.total).toBe(1);
  });

  it('starts manual clocks at the given instant', () => {
    const store = newStore({ start: new Date('2027-05-01T12:00:00Z') });
    expect(create(store, 'payment').created_at).toBe('2027-05-01T12:00:00Z');
  });
});
