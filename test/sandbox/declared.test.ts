// Everything the sandbox sends is in the contract: each problem `code` is an example of the response it comes with,
// each header is declared there (fixtures.ts checks both on every answer of these tests), and a replay repeats the
// first answer byte for byte.
import { describe, expect, it } from 'vitest';
import { hasProblemCode } from '../../packages/contract/src/index.js';
import { BundledSpec, type Node } from '../contract/bundled-spec.js';
import { call, clientB, newSandbox, paymentBody } from './fixtures.js';

const A = { authorization: 'Bearer token-a' };
const specs = [await BundledSpec.open('Variant A', 'variant-a'), await BundledSpec.open('Variant B', 'variant-b')];
const payout = { amount: '10.00', currency: 'EUR', requisite: { type: 'card', card_number: '4111111111111111' } };

/** The problem codes the response `status` of `operationId` shows as examples. */
function shownCodes(spec: BundledSpec, operationId: string, status: string): unknown[] {
  const response = spec.response(spec.operation(operationId)!, status);
  return Object.values((response?.content?.['application/problem+json']?.examples ?? {}) as Node).map(
    (e) => spec.resolve(e as Node).value?.code,
  );
}

/** The header names the response `status` of `operationId` declares, lower-cased. */
function declaredHeaders(spec: BundledSpec, operationId: string, status: string): string[] {
  return Object.keys((spec.response(spec.operation(operationId)!, status)?.headers ?? {}) as Node).map((name) =>
    name.toLowerCase(),
  );
}

describe('insufficient_balance', () => {
  it('is a declared 422 of Create Payout and Refund Payment in both variants', () => {
    for (const spec of specs) {
      expect(shownCodes(spec, 'createPayout', '422'), spec.label).toContain('insufficient_balance');
      expect(shownCodes(spec, 'refundPayment', '422'), spec.label).toContain('insufficient_balance');
    }
  });

  it('answers a payout on an empty balance, a ProblemCode the typed client narrows to', async () => {
    const { error, response } = await clientB(newSandbox()).POST('/merchant/v1/payouts', { body: payout });
    expect(response.status).toBe(422);
    if (!hasProblemCode(error, 'insufficient_balance'))
      throw new Error(`expected insufficient_balance, got ${JSON.stringify(error)}`);
    expect([error.detail, error.errors]).toEqual([
      'The available balance in EUR does not cover this payout.',
      [{ pointer: '/amount', detail: 'Exceeds the available balance.' }],
    ]);
  });
});

describe('response headers', () => {
  it("declares and sends WWW-Authenticate on Variant A's 401, and sends none on Variant B's", async () => {
    for (const spec of specs)
      expect(declaredHeaders(spec, 'listPayments', '401'), spec.label).toContain('www-authenticate');
    const sandbox = newSandbox();
    const a = await call(sandbox, 'GET', '/payments', {});
    expect([a.status, a.headers.get('www-authenticate')]).toEqual([401, 'Bearer realm="merchant-payments-sandbox"']);
    const b = await call(sandbox, 'GET', '/merchant/v1/payments', {});
    expect([b.status, b.headers.get('www-authenticate')]).toEqual([401, null]);
  });

  it('declares Idempotent-Replayed on every answer a keyed operation can replay', () => {
    for (const spec of specs) {
      for (const op of spec.operations().filter((o) => spec.parameters(o).some((p) => p.name === 'Idempotency-Key'))) {
        for (const status of ['200', '404', '422'].filter((s) => spec.response(op, s))) {
          expect(declaredHeaders(spec, op.operationId, status), `${spec.label} ${op.operationId} ${status}`).toContain(
            'idempotent-replayed',
          );
        }
      }
    }
  });
});

describe('a replay', () => {
  it('repeats the first error answer byte for byte, request_id included, with Idempotent-Replayed: true', async () => {
    const sandbox = newSandbox();
    const keyed = { ...A, 'idempotency-key': 'payout-1' };
    const first = await call(sandbox, 'POST', '/payouts', keyed, payout);
    const again = await call(sandbox, 'POST', '/payouts', keyed, payout);
    const [firstText, againText] = [await first.text(), await again.text()];
    expect([first.status, again.status, JSON.parse(firstText).code]).toEqual([422, 422, 'insufficient_balance']);
    expect(againText).toBe(firstText);
    expect([first.headers.get('idempotent-replayed'), again.headers.get('idempotent-replayed')]).toEqual([
      null,
      'true',
    ]);
  });

  it('repeats the first success byte for byte', async () => {
    const sandbox = newSandbox();
    const keyed = { ...A, 'idempotency-key': 'payment-1' };
    const first = await call(sandbox, 'POST', '/payments', keyed, paymentBody());
    const again = await call(sandbox, 'POST', '/payments', keyed, paymentBody());
    expect([first.status, again.status, again.headers.get('idempotent-replayed')]).toEqual([200, 200, 'true']);
    expect(await again.text()).toBe(await first.text());
  });
});

describe('Create Appeal', () => {
  it('answers an unknown transaction_id with 404 not_found naming it, as its contract declares', async () => {
    for (const spec of specs) expect(shownCodes(spec, 'createAppeal', '404'), spec.label).toContain('not_found');
    const response = await call(
      newSandbox(),
      'POST',
      '/appeals',
      { ...A, 'idempotency-key': 'appeal-1' },
      { transaction_id: 'pay_unknown', amount: '1.00', currency: 'EUR' },
    );
    const body = await response.json();
    expect([response.status, body.code, body.detail, body.errors]).toEqual([
      404,
      'not_found',
      'No payment or payout with id pay_unknown exists for this merchant.',
      [{ pointer: '/transaction_id', detail: 'No payment or payout with this id.' }],
    ]);
  });
});
