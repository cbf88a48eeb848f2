// Variant A (bearer token, no path prefix): create and confirm a payment, see a typed error, list payments.
import { createVariantAClient, describeProblem, paginate } from '@merchant-payments/contract';

// The mock's URL is the server's root; Variant A paths have no prefix.
const baseUrl = process.env.MERCHANT_PAYMENTS_MOCK_URL ?? 'http://127.0.0.1:4010';
// The mock accepts any token; a real server wants yours.
const client = createVariantAClient({ baseUrl, accessToken: process.env.PAYMENTS_ACCESS_TOKEN ?? 'test-token' });

// The client adds an Idempotency-Key to every POST and reuses it when it retries.
const created = await client.POST('/payments', {
  body: { amount: '1500.00', currency: 'EUR', requisite: { type: 'card', bank: 'Example Bank' }, metadata: { order_id: 'order-1042' } },
});
if (created.error) throw new Error(`Create Payment failed: ${describeProblem(created.error)}`);
const payment = created.data.data;
console.log(`created ${payment.id}: ${payment.status}, ${payment.requested.amount} ${payment.requested.currency}`);

// Confirm Payment exists in Variant A only.
const confirmed = await client.POST('/payments/{id}/confirm', {
  params: { path: { id: payment.id } },
  body: { reference: 'TRX-20260115-1042' },
});
if (confirmed.error) throw new Error(`Confirm Payment failed: ${describeProblem(confirmed.error)}`);
console.log(`confirmed ${confirmed.data.data.id}: ${confirmed.data.data.status} at ${confirmed.data.data.finalized_at}`);

// An error answer comes back as `error` (a Problem, or an UndocumentedErrorBody), never thrown.
// `Prefer: code=404` asks the mock for its 404; a real server decides for itself.
const missing = await client.GET('/payments/{id}', { params: { path: { id: 'pay_unknown' } }, headers: { Prefer: 'code=404' } });
if (missing.error) console.log(`retrieve: ${describeProblem(missing.error)}`);

// paginate walks limit/offset until `total`; unlike the calls above, it throws ProblemError when a page fails.
// The mock stores nothing, so it answers the same example page whatever the query: a filter such as
// `status: 'pending'` is applied by a real server and by the sandbox, not by the mock.
for await (const listed of paginate(client, '/payments', { params: { query: { limit: 50 } } })) {
  console.log(`listed ${listed.id}: ${listed.status}`);
}
