import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMIT, type ObjectSet, type PaymentRecord } from '../../../packages/sandbox/src/core/index.js';
import { createMemoryTenant } from '../../../packages/sandbox/src/stores/memory-tenant.js';
import { key, newStore, ok, paymentBody, T } from './fixtures.js';

/** Creates `n` payments, every third one with the magic amount that keeps it pending. */
function seed(n: number) {
  const store = newStore();
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const amount = i % 3 === 0 ? '9.05' : `${i + 10}.00`;
    ids.push(
      ok(store.execute(T, { type: 'createPayment', idempotency_key: key(), body: paymentBody({ amount }) }).answer).id,
    );
    store.advance(T, 1);
  }
  store.advance(T, 60);
  return { store, ids };
}

const page = (
  store: ReturnType<typeof newStore>,
  query: { status?: PaymentRecord['status']; limit?: number; offset?: number } = {},
) => ok(store.execute(T, { type: 'listPayments', ...query }).answer);

describe('lists', () => {
  it('are newest first, 20 to a page by default, with the exact total', () => {
    const { store, ids } = seed(25);
    const first = page(store);
    expect(first.data.map((p) => p.id)).toEqual(ids.slice().reverse().slice(0, DEFAULT_LIMIT));
    expect(first.pagination).toEqual({ total: 25, limit: 20, offset: 0 });
  });

  it('page with limit and offset, and an offset past the end gives an empty page with the total', () => {
    const { store, ids } = seed(7);
    const newest = ids.slice().reverse();
    expect(page(store, { limit: 3, offset: 2 }).data.map((p) => p.id)).toEqual(newest.slice(2, 5));
    expect(page(store, { limit: 3, offset: 6 }).data.map((p) => p.id)).toEqual(newest.slice(6));
    expect(page(store, { limit: 3, offset: 9 })).toEqual({ data: [], pagination: { total: 7, limit: 3, offset: 9 } });
  });

  it('filter by status, with the total of the filtered list', () => {
    const { store, ids } = seed(10);
    const pending = ids.filter((_, i) => i % 3 === 0).reverse();
    const result = page(store, { status: 'pending', limit: 2, offset: 1 });
    expect(result.data.map((p) => [p.id, p.status])).toEqual(pending.slice(1, 3).map((id) => [id, 'pending']));
    expect(result.pagination.total).toBe(4);
    expect(page(store, { status: 'succeeded' }).pagination.total).toBe(6);
    expect(page(store, { status: 'refunded' })).toEqual({ data: [], pagination: { total: 0, limit: 20, offset: 0 } });
  });

  it('follow status changes, keeping creation order inside each status', () => {
    const { store, ids } = seed(6);
    const [oldest, , , middle] = ids;
    for (const id of [middle!, oldest!]) store.execute(T, { type: 'cancelPayment', id, idempotency_key: key() });
    expect(page(store, { status: 'canceled' }).data.map((p) => p.id)).toEqual([middle, oldest]);
    expect(page(store, { status: 'pending' }).pagination.total).toBe(0);
    expect(page(store).pagination.total).toBe(6);
  });

  it.each([
    [{ limit: 0 }, '/limit'],
    [{ limit: 101 }, '/limit'],
    [{ limit: 2.5 }, '/limit'],
    [{ offset: -1 }, '/offset'],
    [{ status: 'processing' as never }, '/status'],
  ])('reject the query %o with 422 validation_failed naming %s', (query, pointer) => {
    const answer = newStore().execute(T, { type: 'listPayments', ...query }).answer;
    expect(
      answer.ok ? 'ok' : [answer.status, answer.problem.code, answer.problem.errors?.map((e) => e.pointer)],
    ).toEqual([422, 'validation_failed', [pointer]]);
  });

  it('list payouts and appeals the same way', () => {
    const store = newStore();
    expect(ok(store.execute(T, { type: 'listPayouts', status: 'pending' }).answer).pagination).toEqual({
      total: 0,
      limit: 20,
      offset: 0,
    });
    expect(ok(store.execute(T, { type: 'listAppeals', limit: 5 }).answer).data).toEqual([]);
  });

  it('page 100,000 objects at any depth and with any filter (npm run bench times it)', () => {
    // Note: built on the memory store's objects directly, so that the test lists without 100,000 creations first.
    const tenant = createMemoryTenant(T, {
      clock: 'manual',
      start: 0,
      seed: 's',
      retryCompression: 1,
      eventLogLimit: 1,
    });
    const c = tenant.payments as unknown as ObjectSet<{ id: string; status: PaymentRecord['status'] }, null>;
    for (let i = 0; i < 100_000; i++) c.insert({ id: `pay_${i}`, status: i % 10 === 0 ? 'pending' : 'created' }, null);
    for (let i = 0; i < 100_000; i += 2) if (i % 10 !== 0) c.replace({ id: `pay_${i}`, status: 'succeeded' });
    const pageOf = (options: { status: PaymentRecord['status']; limit: number; offset: number }) => ({
      items: c.page(options),
      total: c.count(options.status),
    });
    expect(pageOf({ status: 'pending', limit: 3, offset: 1 })).toEqual({
      items: ['pay_99980', 'pay_99970', 'pay_99960'].map((id) => ({ id, status: 'pending' })),
      total: 10_000,
    });
    const succeeded = Array.from({ length: 100_000 }, (_, i) => i)
      .filter((i) => i % 2 === 0 && i % 10 !== 0)
      .reverse();
    expect(pageOf({ status: 'succeeded', limit: 100, offset: 39_950 })).toEqual({
      items: succeeded.slice(39_950).map((i) => ({ id: `pay_${i}`, status: 'succeeded' })),
      total: 40_000,
    });
  });
});
