// The balance keeps its own contract whatever a merchant sends: the currencies it can hold are bounded by the
// contract's ISO 4217 list (not by any three capital letters), and its sums have more room than one amount.
import { describe, expect, it } from 'vitest';
import { BundledSpec } from '../contract/bundled-spec.js';
import { controlA, controlSandbox } from './control-fixtures.js';
import { call, newSandbox, paymentBody } from './fixtures.js';

const A = { authorization: 'Bearer token-a' };
const shared = await BundledSpec.open('shared', 'shared');
// Note: the contract lists the codes as a pattern, ^(AED|AFN|…)$, so that the generated types keep `string`.
const currencies = (shared.doc.components.schemas.Currency.pattern as string).slice(2, -2).split('|');
const balanceLimit = shared.doc.components.schemas.Balance.properties.balances.maxItems as number;

describe('the balance within the contract', () => {
  it('holds a payment in every listed currency within its maxItems, and refuses any other code with 422 at /currency', async () => {
    expect(currencies.length).toBeLessThanOrEqual(balanceLimit);
    const sandbox = newSandbox();
    for (const [i, currency] of currencies.entries()) {
      const created = await call(
        sandbox,
        'POST',
        '/payments',
        { ...A, 'idempotency-key': `c${i}` },
        paymentBody({ currency }),
      );
      expect(created.status, currency).toBe(200);
    }
    const unlisted = await call(
      sandbox,
      'POST',
      '/payments',
      { ...A, 'idempotency-key': 'unlisted' },
      paymentBody({ currency: 'ABC' }),
    );
    const problem = await unlisted.json();
    expect([unlisted.status, problem.code, problem.errors.map((e: { pointer: string }) => e.pointer)]).toEqual([
      422,
      'validation_failed',
      ['/currency'],
    ]);
    // Note: newSandbox checks every answer against the bundled spec, so a balance past maxItems would be a 500.
    const balance = await call(sandbox, 'GET', '/balance', A);
    const body = await balance.json();
    expect([balance.status, body.data.balances.length]).toEqual([200, currencies.length]);
  });

  it('answers GET /balance 200 within the contract after eleven payments of the largest amount, pending and then available', async () => {
    const largest = '9'.repeat(32);
    const sandbox = controlSandbox();
    const ids: string[] = [];
    for (let i = 0; i < 11; i++) {
      const created = await call(
        sandbox,
        'POST',
        '/payments',
        { ...A, 'idempotency-key': `big${i}` },
        paymentBody({ amount: largest }),
      );
      expect(created.status).toBe(200);
      ids.push((await created.json()).data.id);
    }
    const sum = (11n * BigInt(largest)).toString();
    const pending = await call(sandbox, 'GET', '/balance', A);
    expect([pending.status, (await pending.json()).data.balances]).toEqual([
      200,
      [{ currency: 'EUR', available: '0.00', pending: sum }],
    ]);
    const control = controlA(sandbox);
    for (const paymentId of ids) {
      for (const status of ['pending', 'succeeded'] as const) {
        expect(
          (
            await control.POST('/_sandbox/payments/{paymentId}/status', {
              params: { path: { paymentId } },
              body: { status },
            })
          ).response.status,
        ).toBe(200);
      }
    }
    const available = await call(sandbox, 'GET', '/balance', A);
    expect([available.status, (await available.json()).data.balances]).toEqual([
      200,
      [{ currency: 'EUR', available: sum, pending: '0.00' }],
    ]);
  });
});
