// Quickstart for Variant A (bearer token, no path prefix), written against the mock that `npm start` serves.
import { createVariantAClient, describeProblem, paginate, type VariantA } from '@merchant-payments/contract';

/** Creates and confirms a payment, shows a typed error, and lists payments; prints one line per step. */
export async function quickstartVariantA(baseUrl = 'http://127.0.0.1:4010', log: (line: string) => void = console.log): Promise<void> {
  // The mock accepts any token; a real server wants yours.
  const client = createVariantAClient({ baseUrl, accessToken: process.env.PAYMENTS_ACCESS_TOKEN ?? 'test-token' });

  // The client adds an Idempotency-Key to every POST and reuses it when it retries.
  const created = await client.POST('/payments', {
    body: { amount: '1500.00', currency: 'EUR', requisite: { type: 'card', bank: 'Example Bank' }, metadata: { order_id: 'order-1042' } },
  });
  if (created.error) throw new Error(`Create Payment failed: ${describeProblem(created.error)}`);
  const payment: VariantA.PaymentWithReason = created.data.data;
  log(`created ${payment.id}: ${payment.status}, ${payment.requested.amount} ${payment.requested.currency}`);

  // Confirm Payment exists in Variant A only; its answer has reason_code and finalized_at.
  const confirmed = await client.POST('/payments/{id}/confirm', {
    params: { path: { id: payment.id } },
    body: { reference: 'TRX-20260115-1042' },
  });
  if (confirmed.error) throw new Error(`Confirm Payment failed: ${describeProblem(confirmed.error)}`);
  const final: VariantA.ConfirmedPayment = confirmed.data.data;
  log(`confirmed ${final.id}: ${final.status} at ${final.finalized_at}, card ${final.requisite.card}`);

  // Answers the contract describes come back as `error`, typed as a Problem, never thrown.
  // (`Prefer: code=404` asks the mock for its 404; a real server decides for itself.)
  const missing = await client.GET('/payments/{id}', { params: { path: { id: 'pay_unknown' } }, headers: { Prefer: 'code=404' } });
  if (missing.error) log(`retrieve: ${missing.response.status} ${missing.error.code}`);

  // paginate walks limit/offset until `total`. The mock stores nothing, so it answers the same example page whatever
  // the query: a filter such as `status: 'pending'` is applied by a real server and by the sandbox, not by the mock.
  for await (const listed of paginate(client, '/payments', { params: { query: { limit: 50 } } })) {
    log(`listed ${listed.id}: ${listed.status}, updated ${listed.updated_at}`);
  }
}
