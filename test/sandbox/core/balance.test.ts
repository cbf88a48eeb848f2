import { describe, expect, it } from 'vitest';
import type { SandboxStore } from './sync-store.js';
import { key, newStore, ok, paymentBody, payoutBody, T } from './fixtures.js';

const balance = (store: SandboxStore) => ok(store.execute(T, { type: 'retrieveBalance' }).answer).balances;
const pay = (store: SandboxStore, amount: string, currency = 'EUR', bank?: string) =>
  ok(
    store.execute(T, {
      type: 'createPayment',
      idempotency_key: key(),
      body: paymentBody({ amount, currency, requisite: { type: 'card', ...(bank ? { bank } : {}) } }),
    }).answer,
  );
const payout = (store: SandboxStore, amount: string, currency = 'EUR', holder?: string) =>
  store.execute(T, {
    type: 'createPayout',
    idempotency_key: key(),
    body: payoutBody({
      amount,
      currency,
      requisite: { type: 'card', card_number: '4111111111111111', ...(holder ? { card_holder: holder } : {}) },
    }),
  }).answer;

describe('the balance', () => {
  it('is empty before anything happened', () => {
    expect(balance(newStore())).toEqual([]);
  });

  it('counts a payment as pending until it succeeds, then as available; a failed one counts nothing', () => {
    const store = newStore();
    pay(store, '100.00');
    pay(store, '0.50', 'EUR', 'SANDBOX DECLINED');
    expect(balance(store)).toEqual([{ currency: 'EUR', available: '0.00', pending: '100.50' }]);
    store.advance(T, 60);
    expect(balance(store)).toEqual([{ currency: 'EUR', available: '100.00', pending: '0.00' }]);
  });

  it('keeps one entry per currency, by currency code', () => {
    const store = newStore();
    pay(store, '10.00', 'USD');
    pay(store, '12.345', 'EUR');
    store.advance(T, 60);
    pay(store, '1.00', 'GBP');
    expect(balance(store)).toEqual([
      { currency: 'EUR', available: '12.345', pending: '0.00' },
      { currency: 'GBP', available: '0.00', pending: '1.00' },
      { currency: 'USD', available: '10.00', pending: '0.00' },
    ]);
  });

  it('holds a payout from creation, keeps it when it succeeds and gives it back when it fails, expires or is canceled', () => {
    const store = newStore();
    pay(store, '100.00');
    store.advance(T, 60);
    const succeeds = ok(payout(store, '10.00'));
    const fails = ok(payout(store, '20.00', 'EUR', 'SANDBOX FAILED'));
    const expires = ok(payout(store, '30.00', 'EUR', 'SANDBOX EXPIRE'));
    const canceled = ok(payout(store, '5.00', 'EUR', 'SANDBOX PENDING'));
    expect(balance(store)[0]!.available).toBe('35.00');
    store.advance(T, 5);
    ok(store.execute(T, { type: 'cancelPayout', id: canceled.id, idempotency_key: key() }).answer);
    store.advance(T, 3600);
    const statuses = [succeeds, fails, expires, canceled].map(
      (p) => ok(store.execute(T, { type: 'retrievePayout', id: p.id }).answer).status,
    );
    expect(statuses).toEqual(['succeeded', 'failed', 'expired', 'canceled']);
    expect(balance(store)).toEqual([{ currency: 'EUR', available: '90.00', pending: '0.00' }]);
  });

  it('refuses a payout the available balance does not cover, with 422 insufficient_balance on /amount', () => {
    const store = newStore();
    pay(store, '50.00');
    store.advance(T, 60);
    const answer = payout(store, '50.01');
    expect(answer.ok ? 'ok' : [answer.status, answer.problem.code, answer.problem.errors?.[0]?.pointer]).toEqual([
      422,
      'insufficient_balance',
      '/amount',
    ]);
    expect(ok(payout(store, '50.00')).requested.amount).toBe('50.00');
    expect(balance(store)[0]!.available).toBe('0.00');
  });

  it('refunds exactly the processed amount, once, and takes it off the available balance', () => {
    const store = newStore();
    const p = pay(store, '80.00');
    store.advance(T, 60);
    const refunded = ok(store.execute(T, { type: 'refundPayment', id: p.id, idempotency_key: key() }).answer);
    expect([refunded.status, refunded.processed, refunded.refunded]).toEqual([
      'refunded',
      { amount: '80.00', currency: 'EUR' },
      { amount: '80.00', currency: 'EUR' },
    ]);
    expect(balance(store)[0]!.available).toBe('0.00');
    const again = store.execute(T, { type: 'refundPayment', id: p.id, idempotency_key: key() }).answer;
    expect(again.ok ? 'ok' : again.problem.code).toBe('invalid_state');
  });

  it('refuses a refund once a payout has spent the money, with 422 insufficient_balance, and leaves the payment succeeded', () => {
    const store = newStore();
    const p = pay(store, '80.00');
    store.advance(T, 60);
    ok(payout(store, '30.00'));
    const answer = store.execute(T, { type: 'refundPayment', id: p.id, idempotency_key: key() }).answer;
    expect(answer.ok ? 'ok' : [answer.status, answer.problem.code]).toEqual([422, 'insufficient_balance']);
    expect(ok(store.execute(T, { type: 'retrievePayment', id: p.id }).answer).status).toBe('succeeded');
    expect(balance(store)[0]!.available).toBe('50.00');
  });

  it('applies the same rule to a forced refund', () => {
    const store = newStore();
    const p = pay(store, '80.00');
    store.advance(T, 60);
    ok(payout(store, '80.00'));
    const answer = store.execute(T, { type: 'forceStatus', kind: 'payment', id: p.id, status: 'refunded' }).answer;
    expect(answer.ok ? 'ok' : answer.problem.code).toBe('insufficient_balance');
  });
});
