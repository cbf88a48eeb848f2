// The merchant budget (http/merchant-budget.ts): a merchant's requests beyond its concurrency wait in its own queue,
// first come first served, and get 429 past the wait or the queue's length; only merchants at work are kept. Fake
// timers stand in for the wait, so no test depends on the machine's speed.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMerchantBudget, type BudgetTurn } from '../../packages/sandbox/src/http/merchant-budget.js';
import { call, newSandbox } from './fixtures.js';

const granted = (turn: BudgetTurn) => {
  if (!turn.ok) throw new Error(`refused: ${turn.problem.detail}`);
  return turn;
};

describe('the merchant budget', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('lets `concurrency` requests of a merchant in at once and queues the rest in arrival order', async () => {
    const budget = createMerchantBudget({ concurrency: 2, queueMs: 1000, queueLength: 10 });
    const first = granted(await budget.enter('m1'));
    const second = granted(await budget.enter('m1'));
    const order: string[] = [];
    const waiting = ['third', 'fourth', 'fifth'].map((name) =>
      budget.enter('m1').then((turn) => {
        order.push(name);
        return granted(turn);
      }),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual([]);
    first.release();
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual(['third']);
    second.release();
    (await waiting[0]!).release();
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual(['third', 'fourth', 'fifth']);
  });

  it('keeps merchants apart: one at its limit does not hold another back', async () => {
    const budget = createMerchantBudget({ concurrency: 1, queueMs: 1000, queueLength: 10 });
    granted(await budget.enter('m1'));
    const queued = budget.enter('m1');
    const other = await budget.enter('m2');
    expect(other.ok).toBe(true);
    expect(budget.size).toBe(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect((await queued).ok).toBe(false);
  });

  it('answers 429 rate_limited with Retry-After once a request has waited queueMs', async () => {
    const budget = createMerchantBudget({ concurrency: 1, queueMs: 2500, queueLength: 10 });
    const holder = granted(await budget.enter('m1'));
    const late = budget.enter('m1');
    await vi.advanceTimersByTimeAsync(2499);
    let settled = false;
    void late.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const turn = await late;
    expect(turn.ok).toBe(false);
    if (turn.ok) return;
    expect([turn.problem.status, turn.problem.code, turn.headers['retry-after']]).toEqual([429, 'rate_limited', '3']);
    expect(turn.problem.detail).toContain('waited 2500 ms');
    expect(turn.headers['ratelimit-policy']).toBe('"concurrency";q=1');
    // The turn it did not get is not given away later: the holder's release frees the merchant.
    holder.release();
    expect(budget.size).toBe(0);
  });

  it('refuses at once past queueLength waiting requests', async () => {
    const budget = createMerchantBudget({ concurrency: 1, queueMs: 60_000, queueLength: 2 });
    granted(await budget.enter('m1'));
    const queued = [budget.enter('m1'), budget.enter('m1')];
    const refused = await budget.enter('m1');
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.problem.detail).toContain('2 waiting, the most its queue holds');
    expect(queued).toHaveLength(2);
  });

  it('forgets a merchant once its last request is done, and a second release changes nothing', async () => {
    const budget = createMerchantBudget({ concurrency: 1, queueMs: 1000, queueLength: 10 });
    const one = granted(await budget.enter('m1'));
    const next = budget.enter('m1');
    one.release();
    const two = granted(await next);
    one.release();
    expect(budget.size).toBe(1);
    // Note: had the second release of `one` freed a turn, a third request would get in beside `two`.
    const third = budget.enter('m1');
    await vi.advanceTimersByTimeAsync(0);
    two.release();
    granted(await third).release();
    expect(budget.size).toBe(0);
  });
});

describe('the merchant budget on the pipeline', () => {
  it('refuses a merchant request past the queue with 429, and counts a test tenant against its parent', async () => {
    const sandbox = newSandbox({ merchantConcurrency: 1, merchantQueueLength: 1, merchantQueueMs: 60_000 });
    const parent = { authorization: 'Bearer token-budget' };
    const made = await call(sandbox, 'POST', '/_sandbox/tenants', parent);
    const test = { authorization: `Bearer ${(await made.json()).data.access_token as string}` };
    // Note: three requests sent together, of the parent and of its test tenant, all reach the budget while the first
    // is still at work (its store transaction is asynchronous): one at work, one waiting, one refused.
    const answers = await Promise.all([
      call(sandbox, 'GET', '/payments', parent),
      call(sandbox, 'GET', '/payments', test),
      call(sandbox, 'GET', '/_sandbox/events', test),
    ]);
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 200, 429]);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.headers.get('retry-after')).toBe('60');
    expect((await refused.json()).detail).toContain('1 waiting, the most its queue holds');
    expect((await call(sandbox, 'GET', '/payments', { authorization: 'Bearer another' })).status).toBe(200);
  });

  it("enters Variant B's open key pair into its budget before its credentials are read, and refuses past it alike", async () => {
    const sandbox = newSandbox({ merchantConcurrency: 1, merchantQueueLength: 1, merchantQueueMs: 60_000 });
    const pair = { 'x-public-key': 'pk_budget', 'x-secret-key': 'sk_budget' };
    expect((await call(sandbox, 'GET', '/merchant/v1/payments', pair)).status).toBe(200);
    const answers = await Promise.all([1, 2, 3].map(() => call(sandbox, 'GET', '/merchant/v1/payments', pair)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 429]);
    // A wrong secret key is still 401, after its turn.
    const wrong = await call(sandbox, 'GET', '/merchant/v1/payments', { ...pair, 'x-secret-key': 'sk_other' });
    expect(wrong.status).toBe(401);
  });

  it('refuses a budget option that is not a whole number from 1', () => {
    expect(() => newSandbox({ merchantConcurrency: 0 })).toThrow(/merchantConcurrency must be a whole number from 1/);
    expect(() => newSandbox({ merchantQueueMs: 1.5 })).toThrow(/merchantQueueMs must be a whole number from 1/);
    expect(() => newSandbox({ merchantQueueLength: -1 })).toThrow(/merchantQueueLength must be a whole number/);
    expect(() => newSandbox({ statementTimeoutMs: 3e9 })).toThrow(
      /statementTimeoutMs must be a whole number from 1 to 2147483647/,
    );
    expect(() => newSandbox({ poolSize: 0 })).toThrow(/poolSize must be a whole number from 1/);
  });
});
