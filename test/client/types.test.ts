// Type-level expectations, checked by `tsc --noEmit -p .` (part of `npm test`); the runtime bodies only keep vitest's count honest.
// Note: a call that must not compile sits in a function that is never called, only type-checked.
/* eslint-disable @typescript-eslint/no-unused-expressions -- those functions are expressions on purpose */
import { describe, expectTypeOf, it } from 'vitest';
import type {
  components as ComponentsA,
  operations as OperationsA,
} from '../../packages/contract/generated/types/variant-a.js';
import type { components as ComponentsB } from '../../packages/contract/generated/types/variant-b.js';
import { problemCatalogue, type ProblemSpec } from '../../packages/contract/generated/operations/operations.js';
import { VARIANT_B_PREFIX } from '../../packages/contract/src/client/variant-b.js';
import {
  describeProblem,
  hasProblemCode,
  isProblem,
  isUndocumentedErrorBody,
  paginate,
  type ListItem,
  type Problem,
  type ProblemCode,
  type UndocumentedErrorBody,
  type VariantA,
  type VariantAClient,
  type VariantB,
  type VariantBClient,
  type VariantBPaths,
} from '../../packages/contract/src/index.js';

type DataOf<Call extends (...args: never[]) => Promise<{ data?: unknown }>> = NonNullable<
  Awaited<ReturnType<Call>>['data']
>;
type ErrorOf<Call extends (...args: never[]) => Promise<{ error?: unknown }>> = NonNullable<
  Awaited<ReturnType<Call>>['error']
>;
type IsOptional<T, K extends keyof T> = Record<never, never> extends Pick<T, K> ? true : false;
// Note: openapi-fetch rebuilds response types as mapped types, which expect-type's toEqualTypeOf tells
// apart from the intersections they came from; mutual assignability is the equality that matters here.
type Equivalent<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/* eslint-disable @typescript-eslint/no-unused-vars -- sample calls, read only through `typeof` */
const confirm = (c: VariantAClient) =>
  c.POST('/payments/{id}/confirm', { params: { path: { id: 'pay_1' } }, body: { reference: 'TRX-1' } });
const retrieveB = (c: VariantBClient) =>
  c.GET('/merchant/v1/payments/{paymentId}', { params: { path: { paymentId: 'pay_1' } } });
const listB = (c: VariantBClient) => c.GET('/merchant/v1/payments');
/* eslint-enable @typescript-eslint/no-unused-vars */

describe('client types', () => {
  it('refuse a body field the operation does not have, or of the wrong type', () => {
    (c: VariantBClient) => {
      void c.POST('/merchant/v1/payments', {
        // @ts-expect-error `amount_cents` is not a field of the create-payment body
        body: { amount: '10.00', currency: 'EUR', requisite: { type: 'card' }, amount_cents: 1000 },
      });
      void c.POST('/merchant/v1/payments', {
        // @ts-expect-error `bnak` is a misspelt field of the requisite
        body: { amount: '10.00', currency: 'EUR', requisite: { type: 'card', bnak: 'Example Bank' } },
      });
      // @ts-expect-error `amount` is a decimal string
      void c.POST('/merchant/v1/payments', { body: { amount: 10, currency: 'EUR', requisite: { type: 'card' } } });
      // @ts-expect-error Variant B has no confirm operation
      void c.POST('/merchant/v1/payments/{paymentId}/confirm', { params: { path: { paymentId: 'pay_1' } } });
      // @ts-expect-error Variant B names its path parameter paymentId, not id
      void c.GET('/merchant/v1/payments/{paymentId}', { params: { path: { id: 'pay_1' } } });
    };
    (c: VariantAClient) => {
      void c.POST('/payments/{id}/confirm', {
        params: { path: { id: 'pay_1' } },
        // @ts-expect-error `receipt.url` must be a string
        body: { reference: 'TRX-1', receipt: { url: 1 } },
      });
    };
  });

  it('give the Variant A confirm response finalized_at and reason_code, and no updated_at', () => {
    type Confirmed = DataOf<typeof confirm>['data'];
    expectTypeOf<Equivalent<Confirmed, VariantA.ConfirmedPayment>>().toEqualTypeOf<true>();
    expectTypeOf<Confirmed>().toHaveProperty('finalized_at').toEqualTypeOf<string>();
    expectTypeOf<Confirmed>().toHaveProperty('reason_code').toEqualTypeOf<VariantA.ReasonCode>();
    expectTypeOf<Confirmed['requisite']>().toHaveProperty('holder');
    expectTypeOf<Confirmed>().not.toHaveProperty('updated_at');
  });

  it('give the Variant B payment updated_at, and no finalized_at', () => {
    type Retrieved = DataOf<typeof retrieveB>['data'];
    type Listed = DataOf<typeof listB>['data'][number];
    expectTypeOf<Equivalent<Retrieved, VariantB.Payment>>().toEqualTypeOf<true>();
    expectTypeOf<Equivalent<Listed, VariantB.Payment>>().toEqualTypeOf<true>();
    expectTypeOf<Retrieved>().toHaveProperty('updated_at').toEqualTypeOf<string>();
    expectTypeOf<Retrieved['requisite']>().toHaveProperty('card_number');
    expectTypeOf<Retrieved>().not.toHaveProperty('finalized_at');
  });

  it('make Idempotency-Key optional for callers, where the contract requires it', () => {
    type ConfirmParams = VariantA.Paths['/payments/{id}/confirm']['post']['parameters'];
    expectTypeOf<IsOptional<ConfirmParams, 'header'>>().toEqualTypeOf<true>();
    expectTypeOf<
      Equivalent<NonNullable<ConfirmParams['header']>, { 'Idempotency-Key'?: string }>
    >().toEqualTypeOf<true>();
    expectTypeOf<IsOptional<OperationsA['confirmPayment']['parameters'], 'header'>>().toEqualTypeOf<false>();
    (c: VariantBClient) => {
      void c.POST('/merchant/v1/payouts/{payoutId}/cancel', { params: { path: { payoutId: 'po_1' } } });
      void c.POST('/merchant/v1/payouts/{payoutId}/cancel', {
        params: { path: { payoutId: 'po_1' }, header: { 'Idempotency-Key': 'k-1' } },
      });
      void c.POST('/merchant/v1/payouts/{payoutId}/cancel', {
        // @ts-expect-error the key is a string
        params: { path: { payoutId: 'po_1' }, header: { 'Idempotency-Key': 1 } },
      });
    };
  });

  it('type every error as the Problem or a body the contract does not describe, which the caller must narrow', () => {
    expectTypeOf<ErrorOf<typeof confirm>>().toEqualTypeOf<Problem | UndocumentedErrorBody>();
    expectTypeOf<ErrorOf<typeof listB>>().toEqualTypeOf<VariantB.Problem | UndocumentedErrorBody>();
    const body: unknown = {};
    if (isProblem(body)) expectTypeOf(body.code).toEqualTypeOf<string>();
    if (isUndocumentedErrorBody(body)) expectTypeOf(body.excerpt).toEqualTypeOf<string>();
    (error: ErrorOf<typeof confirm>) => {
      // @ts-expect-error an undocumented body has no detail: narrow to the Problem first
      void error.detail;
      expectTypeOf(error.code).toEqualTypeOf<string | undefined>();
      if (error.code === 'invalid_state') expectTypeOf(error).toEqualTypeOf<Problem>();
      if (isProblem(error)) expectTypeOf(error.detail).toEqualTypeOf<string | undefined>();
      else expectTypeOf(error).toEqualTypeOf<UndocumentedErrorBody>();
      expectTypeOf(describeProblem).toBeCallableWith(error);
    };
  });

  it("take only the contract's problem codes in hasProblemCode", () => {
    expectTypeOf(problemCatalogue.invalid_state).toEqualTypeOf<ProblemSpec>();
    expectTypeOf<'idempotency_key_reused' | 'invalid_state' | 'not_found'>().toExtend<ProblemCode>();
    (error: ErrorOf<typeof confirm>) => {
      if (hasProblemCode(error, 'invalid_state')) expectTypeOf(error.code).toEqualTypeOf<'invalid_state'>();
      // @ts-expect-error `invalid_status` is not one of the contract's codes (it is invalid_state)
      void hasProblemCode(error, 'invalid_status');
      // @ts-expect-error a code is a literal of the contract, not any string
      void hasProblemCode(error, String('not_found'));
    };
  });

  it('start every Variant B path with the prefix a baseUrl must not hold', () => {
    expectTypeOf<keyof VariantBPaths>().toExtend<`${typeof VARIANT_B_PREFIX}/${string}`>();
  });

  it('type paginate by the list path and refuse a path that is not a list', () => {
    expectTypeOf<ListItem<VariantBPaths, '/merchant/v1/payouts'>>().toEqualTypeOf<VariantB.Payout>();
    (c: VariantBClient) => {
      expectTypeOf(paginate(c, '/merchant/v1/appeals')).toEqualTypeOf<
        AsyncGenerator<VariantB.Appeal, void, undefined>
      >();
      // @ts-expect-error balance is not a list
      void paginate(c, '/merchant/v1/balance');
      // @ts-expect-error `status` of payouts has no value `settled`
      void paginate(c, '/merchant/v1/payouts', { params: { query: { status: 'settled' } } });
    };
  });
});

describe('named types', () => {
  it('narrow a webhook event by its type', () => {
    (event: VariantA.WebhookEvent) => {
      if (event.type === 'payment.status_changed') {
        expectTypeOf(event.data).toExtend<VariantA.ConfirmedPayment>();
        expectTypeOf(event.data.finalized_at).toEqualTypeOf<string>();
      }
      if (event.type === 'payout.status_changed')
        expectTypeOf(event.data.status).toEqualTypeOf<VariantB.PayoutStatus>();
    };
    expectTypeOf<
      Equivalent<VariantB.EarlierWebhookEvent['data'], VariantB.CreatePaymentRequest>
    >().toEqualTypeOf<true>();
  });

  it('are the same in both variants wherever both have the schema', () => {
    type A = ComponentsA['schemas'];
    type B = ComponentsB['schemas'];
    type Both = keyof A & keyof B;
    expectTypeOf<Pick<A, Both>>().toEqualTypeOf<Pick<B, Both>>();
    expectTypeOf<VariantA.PaymentWithReason>().toEqualTypeOf<A['PaymentWithReason']>();
    expectTypeOf<VariantB.Payout>().toEqualTypeOf<B['Payout']>();
  });
});
