// Every Variant B operation through the typed client against the Prism mock.
import { createVariantBClient, type VariantB, type VariantBClient } from '../../packages/contract/src/index.js';
import { describeContract, type InvalidBodyCall, type OperationCall } from './contract.js';
import { createAppealBody, createPaymentBody, createPayoutBody, ids } from './fixtures.js';

// Note: keyed by the generated operation names, so a new operation fails to compile until it has a call.
type OperationId = Exclude<keyof VariantB.Operations, keyof VariantB.Webhooks>;

const calls: Record<OperationId, OperationCall<VariantBClient>> = {
  listPayments: (c, headers) =>
    c.GET('/merchant/v1/payments', { params: { query: { limit: 20, offset: 0, status: 'succeeded' } }, headers }),
  createPayment: (c, headers) => c.POST('/merchant/v1/payments', { body: createPaymentBody, headers }),
  retrievePayment: (c, headers) =>
    c.GET('/merchant/v1/payments/{paymentId}', { params: { path: { paymentId: ids.payment } }, headers }),
  cancelPayment: (c, headers) =>
    c.POST('/merchant/v1/payments/{paymentId}/cancel', { params: { path: { paymentId: ids.payment } }, headers }),
  refundPayment: (c, headers) =>
    c.POST('/merchant/v1/payments/{paymentId}/refund', { params: { path: { paymentId: ids.payment } }, headers }),
  listPayouts: (c, headers) => c.GET('/merchant/v1/payouts', { headers }),
  createPayout: (c, headers) => c.POST('/merchant/v1/payouts', { body: createPayoutBody, headers }),
  retrievePayout: (c, headers) =>
    c.GET('/merchant/v1/payouts/{payoutId}', { params: { path: { payoutId: ids.payout } }, headers }),
  cancelPayout: (c, headers) =>
    c.POST('/merchant/v1/payouts/{payoutId}/cancel', { params: { path: { payoutId: ids.payout } }, headers }),
  listAppeals: (c, headers) =>
    c.GET('/merchant/v1/appeals', { params: { query: { status: 'under_review', limit: 5 } }, headers }),
  createAppeal: (c, headers) => c.POST('/merchant/v1/appeals', { body: createAppealBody, headers }),
  retrieveAppeal: (c, headers) =>
    c.GET('/merchant/v1/appeals/{appealId}', { params: { path: { appealId: ids.appeal } }, headers }),
  cancelAppeal: (c, headers) =>
    c.POST('/merchant/v1/appeals/{appealId}/cancel', { params: { path: { appealId: ids.appeal } }, headers }),
  retrieveBalance: (c, headers) => c.GET('/merchant/v1/balance', { headers }),
};

const invalidBodies: Record<'createPayment' | 'createPayout' | 'createAppeal', InvalidBodyCall<VariantBClient>> = {
  createPayment: {
    field: 'requisite',
    // @ts-expect-error requisite is required
    call: (c) => c.POST('/merchant/v1/payments', { body: { amount: '1500.00', currency: 'EUR' } }),
  },
  createPayout: {
    field: 'requisite',
    // @ts-expect-error the requisite of a payout needs card_number
    call: (c) => c.POST('/merchant/v1/payouts', { body: { ...createPayoutBody, requisite: { type: 'card' } } }),
  },
  createAppeal: {
    field: 'transaction_id',
    // @ts-expect-error transaction_id is a string id
    call: (c) => c.POST('/merchant/v1/appeals', { body: { ...createAppealBody, transaction_id: 42 } }),
  },
};

await describeContract({
  variant: 'B',
  create: (options) => createVariantBClient({ ...options, publicKey: 'pk_test', secretKey: 'sk_test' }),
  // Note: one security requirement holds both schemes, so either key alone is refused too.
  credentialSets: [['x-public-key', 'x-secret-key'], ['x-public-key'], ['x-secret-key']],
  calls,
  invalidBodies,
});
