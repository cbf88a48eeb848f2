import { describe, expect, it } from 'vitest';
import {
  beginIdempotent,
  fingerprint,
  IDEMPOTENCY_RETENTION_MS,
  KEYED_COMMANDS,
  type Command,
} from '../../../packages/sandbox/src/core/index.js';
import { fund, newStore, ok, paymentBody, payoutBody, reach, T } from './fixtures.js';

const problemOf = (answer: { ok: boolean; status: number; problem?: { code: string } }) =>
  answer.ok ? 'ok' : [answer.status, answer.problem!.code];
type CreatePayment = Extract<Command, { type: 'createPayment' }>;
const createPayment = (key: string | undefined, amount = '100.00'): CreatePayment => ({
  type: 'createPayment',
  idempotency_key: key,
  body: paymentBody({ amount }),
});

describe('Idempotency-Key', () => {
  it('replays the first answer, marked as a replay, for the same key and body, without doing the work again', () => {
    const store = newStore();
    const first = store.execute(T, createPayment('k-1'));
    const again = store.execute(T, createPayment('k-1'));
    expect(again.answer).toEqual({ ...first.answer, replayed: true });
    expect(first.answer.replayed).toBeUndefined();
    expect(ok(store.execute(T, { type: 'listPayments' }).answer).pagination.total).toBe(1);
  });

  it('replays the answer as it was, after the object has moved on', () => {
    const store = newStore();
    const before = reach(store, 'payment', 'pending');
    const cancel: Command = { type: 'cancelPayment', id: before.id, idempotency_key: 'c-1' };
    const first = ok(store.execute(T, cancel).answer);
    store.execute(T, { type: 'forceStatus', kind: 'payment', id: before.id, status: 'canceled' });
    const replay = store.execute(T, cancel);
    expect(replay.answer).toEqual({ ok: true, status: 200, body: first, replayed: true });
    expect(replay.events).toEqual([]);
  });

  it('replays a problem answer too, such as 422 invalid_state', () => {
    const store = newStore();
    const done = reach(store, 'payment', 'succeeded');
    const cancel: Command = { type: 'cancelPayment', id: done.id, idempotency_key: 'c-2' };
    expect(problemOf(store.execute(T, cancel).answer)).toEqual([422, 'invalid_state']);
    const replay = store.execute(T, cancel).answer;
    expect([problemOf(replay), replay.replayed]).toEqual([[422, 'invalid_state'], true]);
  });

  it('answers 422 idempotency_key_reused for the same key with another body, and creates nothing', () => {
    const store = newStore();
    store.execute(T, createPayment('k-2', '100.00'));
    const other = store.execute(T, createPayment('k-2', '200.00'));
    expect(problemOf(other.answer)).toEqual([422, 'idempotency_key_reused']);
    expect(ok(store.execute(T, { type: 'listPayments' }).answer).pagination.total).toBe(1);
  });

  it('treats the same body with its keys in another order as the same body', () => {
    expect(fingerprint({ a: 1, b: { c: 2, d: 3 } })).toBe(fingerprint({ b: { d: 3, c: 2 }, a: 1 }));
    expect(fingerprint({ a: [1, 2] })).not.toBe(fingerprint({ a: [2, 1] }));
  });

  it('answers 409 idempotency_request_in_progress while the first request with the key is still running', () => {
    const store = newStore();
    const command = createPayment('k-3');
    const { idempotency_key: _key, ...request } = command;
    // Note: an adapter holds the key like this while it awaits (validation, a hang injected by the control API).
    expect(
      beginIdempotent(store.tenant(T), 'createPayment', 'k-3', fingerprint(request), store.now(T), Date.now()),
    ).toEqual({ kind: 'proceed' });
    expect(problemOf(store.execute(T, command).answer)).toEqual([409, 'idempotency_request_in_progress']);
    expect(ok(store.execute(T, { type: 'listPayments' }).answer).pagination.total).toBe(0);
  });

  it.each([...KEYED_COMMANDS])('answers %s without a key with 400 idempotency_key_missing', (type) => {
    const store = newStore();
    const answer = store.execute(T, { type, id: 'x', body: {} } as unknown as Command).answer;
    expect(problemOf(answer)).toEqual([400, 'idempotency_key_missing']);
  });

  it('scopes keys to the operation: the same key on another operation is a new request', () => {
    const store = newStore();
    fund(store);
    ok(store.execute(T, createPayment('shared')).answer);
    const payout = store.execute(T, { type: 'createPayout', idempotency_key: 'shared', body: payoutBody() }).answer;
    expect([ok(payout).id.startsWith('po_'), payout.replayed]).toEqual([true, undefined]);
  });

  it('scopes keys to the tenant: the same key in another tenant is a new request', () => {
    const store = newStore();
    const a = ok(store.execute('tenant-1', createPayment('same')).answer);
    const b = store.execute('tenant-2', createPayment('same')).answer;
    expect(b.replayed).toBeUndefined();
    expect(ok(b).id).not.toBe(a.id);
  });

  it('keeps a key for 24 hours of the tenant clock, then forgets it', () => {
    const store = newStore();
    const first = ok(store.execute(T, createPayment('k-4')).answer);
    store.advance(T, IDEMPOTENCY_RETENTION_MS / 1000 - 1);
    expect(store.execute(T, createPayment('k-4', '5.00')).answer.ok).toBe(false);
    store.advance(T, 1);
    const later = store.execute(T, createPayment('k-4', '5.00')).answer;
    expect([ok(later).id === first.id, ok(later).requested.amount, later.replayed]).toEqual([false, '5.00', undefined]);
  });

  it('needs no key on reads', () => {
    const store = newStore();
    expect(store.execute(T, { type: 'retrieveBalance' }).answer.ok).toBe(true);
    expect(store.execute(T, { type: 'listAppeals' }).answer.ok).toBe(true);
  });
});
