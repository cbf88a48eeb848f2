// Every Variant A operation through the typed client against the Prism mock.
import { createVariantAClient, type VariantA, type VariantAClient } from '../../packages/contract/src/index.js';
import { describeContract, type InvalidBodyCall, type OperationCall } from './contract.js';
import { confirmPaymentBody, createAppealBody, createPaymentBody, createPayoutBody, ids } from './fixtures.js';

// Note: keyed by the generated operation names, so a new operation fails to compile until it has a call.
type OperationId = Exclude<keyof VariantA.Operations, keyof VariantA.Webhooks>;

const calls: Record<OperationId, OperationCall<VariantAClient>> = {
  listPayments: (c, headers) => c.GET('/payments', { params: { query: { limit: 20, offset: 0 } }, headers }),
  createPayment: (c, headers) => c.POST('/payments', { body: createPaymentBody, headers }),
  retrievePayment: (c, headers) => c.GET('/payments/{id}', { params: { path: { id: ids.payment } }, headers }),
  confirmPayment: (c, headers) =>
    c.POST('/payments/{id}/confirm', { params: { path: { id: ids.payment } }, body: confirmPaymentBody, headers }),
  cancelPayment: (c, headers) => c.POST('/payments/{id}/cancel', { params: { path: { id: ids.payment } }, headers }),
  refundPayment: (c, headers) => c.POST('/payments/{id}/refund', { params: { path: { id: ids.payment } }, headers }),
  listPayouts: (c, headers) => c.GET('/payouts', { params: { query: { status: 'pending' } }, headers }),
  createPayout: (c, headers) => c.POST('/payouts', { body: createPayoutBody, headers }),
  retrievePayout: (c, headers) => c.GET('/payouts/{id}', { params: { path: { id: ids.payout } }, headers }),
  cancelPayout: (c, headers) => c.POST('/payouts/{id}/cancel', { params: { path: { id: ids.payout } }, headers }),
  listAppeals: (c, headers) => c.GET('/appeals', { headers }),
  createAppeal: (c, headers) => c.POST('/appeals', { body: createAppealBody, headers }),
  retrieveAppeal: (c, headers) => c.GET('/appeals/{id}', { params: { path: { id: ids.appeal } }, headers }),
  cancelAppeal: (c, headers) => c.POST('/appeals/{id}/cancel', { params: { path: { id: ids.appeal } }, headers }),
  retrieveBalance: (c, headers) => c.GET('/balance', { headers }),
};

const invalidBodies: Record<
  'createPayment' | 'confirmPayment' | 'createPayout' | 'createAppeal',
  InvalidBodyCall<VariantAClient>
> = {
  createPayment: {
    field: 'amount',
    // @ts-expect-error amount is a decimal string, never a number
    call: (c) => c.POST('/payments', { body: { ...createPaymentBody, amount: 1500 } }),
  },
  confirmPayment: {
    field: 'reference',
    call: (c) =>
      c.POST('/payments/{id}/confirm', {
        params: { path: { id: ids.payment } },
        // @ts-expect-error reference is required
        body: { receipt: confirmPaymentBody.receipt },
      }),
  },
  createPayout: {
    field: 'expires_in',
    // @ts-expect-error expires_in is an integer
    call: (c) => c.POST('/payouts', { body: { ...createPayoutBody, expires_in: '3600' } }),
  },
  createAppeal: {
    field: 'metadata',
    // @ts-expect-error metadata is an object
    call: (c) => c.POST('/appeals', { body: { ...createAppealBody, metadata: 'SUP-5531' } }),
  },
};

await describeContract({
  variant: 'A',
  create: (options) => createVariantAClient({ ...options, accessToken: 'test-token' }),
  credentialSets: [['authorization']],
  calls,
  invalidBodies,
});
