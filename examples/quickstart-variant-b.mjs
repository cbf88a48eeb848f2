// Variant B (key pair, paths under /merchant/v1): create and refund a payment, send a payout, branch on a problem code.
import { createVariantBClient, hasProblemCode, describeProblem, paginate } from '@merchant-payments/contract';

// The mock's URL is the server's root, without /merchant/v1: the Variant B client adds the prefix to every path,
// and refuses a baseUrl that already ends with it.
const baseUrl = process.env.MERCHANT_PAYMENTS_MOCK_URL ?? 'http://127.0.0.1:4011';
// The mock accepts any pair of keys; a real server wants yours.
const client = createVariantBClient({
  baseUrl,
  publicKey: process.env.PAYMENTS_PUBLIC_KEY ?? 'pk_test',
  secretKey: process.env.PAYMENTS_SECRET_KEY ?? 'sk_test',
});

const created = await client.POST('/merchant/v1/payments', {
  body: { amount: '1500.00', currency: 'EUR', expires_in: 1800, requisite: { type: 'card', bank: 'Example Bank' } },
});
if (created.error) throw new Error(`Create Payment failed: ${describeProblem(created.error)}`);
const payment = created.data.data;
console.log(`created ${payment.id}: ${payment.status}`);

// Your own Idempotency-Key makes a call safe to repeat across restarts of your process.
const refunded = await client.POST('/merchant/v1/payments/{paymentId}/refund', {
  params: { path: { paymentId: payment.id }, header: { 'Idempotency-Key': `refund-${payment.id}` } },
});
if (refunded.error) throw new Error(`Refund Payment failed: ${describeProblem(refunded.error)}`);
console.log(`refunded ${refunded.data.data.id}: ${refunded.data.data.status}`);

const payout = await client.POST('/merchant/v1/payouts', {
  body: { amount: '500.00', currency: 'EUR', requisite: { type: 'card', card_number: '5555555555554444', card_holder: 'JOHN ROE' } },
});
if (payout.error) throw new Error(`Create Payout failed: ${describeProblem(payout.error)}`);
console.log(`payout ${payout.data.data.id}: ${payout.data.data.status}`);

// Branch on a Problem's stable `code`. `Prefer` picks the mock's named example; a real server decides for itself.
const cancel = await client.POST('/merchant/v1/appeals/{appealId}/cancel', {
  params: { path: { appealId: 'apl_4k7m1p3s6u9w' } },
  headers: { Prefer: 'code=422, example=invalid_state' },
});
if (hasProblemCode(cancel.error, 'invalid_state')) console.log(`cancel appeal refused: ${cancel.error.detail}`);
else if (cancel.error) console.log(`cancel appeal failed: ${describeProblem(cancel.error)}`);

for await (const listed of paginate(client, '/merchant/v1/payouts', { params: { query: { limit: 20 } } })) {
  console.log(`listed payout ${listed.id}: ${listed.requested.amount} ${listed.requested.currency}`);
}
