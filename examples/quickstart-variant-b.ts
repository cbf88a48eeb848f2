// Quickstart for Variant B (key pair, paths under /merchant/v1), written against the mock that `npm start` serves.
import { createVariantBClient, hasProblemCode, isProblem, paginate, type VariantB } from '@merchant-payments/contract';

/** Creates a payment, refunds it, sends a payout, shows typed errors, and lists payouts; prints one line per step. */
export async function quickstartVariantB(baseUrl = 'http://127.0.0.1:4011', log: (line: string) => void = console.log): Promise<void> {
  // The mock accepts any pair of keys; a real server wants yours.
  const client = createVariantBClient({
    baseUrl,
    publicKey: process.env.PAYMENTS_PUBLIC_KEY ?? 'pk_test',
    secretKey: process.env.PAYMENTS_SECRET_KEY ?? 'sk_test',
    timeoutMs: 10_000,
    retry: { attempts: 4 },
  });

  const created = await client.POST('/merchant/v1/payments', {
    body: { amount: '1500.00', currency: 'EUR', expires_in: 1800, requisite: { type: 'card', bank: 'Example Bank' } },
  });
  if (created.error) throw new Error(`Create Payment failed: ${created.error.code}`);
  const payment: VariantB.Payment = created.data.data;
  log(`created ${payment.id}: ${payment.status}, updated ${payment.updated_at}`);

  // Pass your own Idempotency-Key to make a call safe to repeat across restarts of your process.
  const refunded = await client.POST('/merchant/v1/payments/{paymentId}/refund', {
    params: { path: { paymentId: payment.id }, header: { 'Idempotency-Key': `refund-${payment.id}` } },
  });
  if (refunded.data) log(`refunded ${refunded.data.data.id}: ${refunded.data.data.status}`);

  const payout = await client.POST('/merchant/v1/payouts', {
    body: { amount: '500.00', currency: 'EUR', requisite: { type: 'card', card_number: '5555555555554444', card_holder: 'JOHN ROE' } },
  });
  if (payout.data) log(`payout ${payout.data.data.id}: ${payout.data.data.status}`);

  // Branch on the stable `code` of a Problem. (`Prefer` picks the mock's example; a real server decides.)
  const cancel = await client.POST('/merchant/v1/appeals/{appealId}/cancel', {
    params: { path: { appealId: 'apl_4k7m1p3s6u9w' } },
    headers: { Prefer: 'code=422, example=invalid_state' },
  });
  if (hasProblemCode(cancel.error, 'invalid_state')) log(`cancel appeal: ${cancel.error.detail}`);
  else if (isProblem(cancel.error)) log(`cancel appeal failed: ${cancel.error.code}`);

  for await (const listed of paginate(client, '/merchant/v1/payouts', { params: { query: { limit: 20 } } })) {
    const entry: VariantB.Payout = listed;
    log(`listed payout ${entry.id}: ${entry.requested.amount} ${entry.requested.currency}`);
  }
}
