// Request bodies and ids for the client tests, typed by the package's named types; a test keeps them equal to the spec's examples.
import type { VariantA } from '../../packages/contract/src/index.js';

/** Ids that the spec's examples use. */
export const ids = { payment: 'pay_8f3k2m9q4w7x', payout: 'po_3h6j9l2n5p8r', appeal: 'apl_4k7m1p3s6u9w' } as const;

/** Create Payment body (both variants share the schema). */
export const createPaymentBody = {
  amount: '1500.00',
  amount_tolerance_up: '15.00',
  currency: 'EUR',
  expires_in: 1800,
  requisite: { type: 'card', bank: 'Example Bank' },
  customer: { fingerprint: 'fp_5b1d9e7a3c', ip_address: '203.0.113.24', user_agent: 'Mozilla/5.0 (X11; Linux x86_64)' },
  metadata: { order_id: 'order-1042' },
} satisfies VariantA.CreatePaymentRequest;

/** Confirm Payment body (Variant A). */
export const confirmPaymentBody = {
  reference: 'TRX-20260115-1042',
  receipt: { url: 'https://files.example.com/receipts/rcpt_1042.pdf', name: 'receipt-1042.pdf' },
} satisfies VariantA.ConfirmPaymentRequest;

/** Create Payout body (both variants share the schema). */
export const createPayoutBody = {
  amount: '500.00',
  currency: 'EUR',
  expires_in: 3600,
  requisite: { type: 'card', card_number: '5555555555554444', card_holder: 'JOHN ROE', bank: 'Example Bank' },
  customer: { fingerprint: 'fp_5b1d9e7a3c', ip_address: '203.0.113.24', user_agent: 'Mozilla/5.0 (X11; Linux x86_64)' },
  metadata: { payout_ref: 'withdrawal-77' },
} satisfies VariantA.CreatePayoutRequest;

/** Create Appeal body (both variants share the schema). */
export const createAppealBody = {
  transaction_id: ids.payment,
  amount: '1500.00',
  currency: 'EUR',
  metadata: { ticket: 'SUP-5531' },
} satisfies VariantA.CreateAppealRequest;
