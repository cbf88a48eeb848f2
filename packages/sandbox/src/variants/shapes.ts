// The contract's payment shapes, made from the core's record (the list shape plus reason_code). Variants and webhook
// bodies pick one; payouts, appeals and the balance are sent as the core keeps them.
import type { PaymentRecord } from '../core/index.js';

/** Variant A's retrieve shape (also its create, cancel and refund): the record as kept, with `reason_code`. */
export const paymentWithReason = (p: PaymentRecord) => p;

/** The list shape (Variant A's list items, every Variant B payment): no `reason_code`. */
export function listPayment(p: PaymentRecord) {
  const { reason_code: _reason, ...rest } = p;
  return rest;
}

/** Variant A's confirm shape and the later webhook's payment: requisite `card`/`holder`, `finalized_at` for `updated_at`. */
export function confirmedPayment(p: PaymentRecord) {
  const { requisite, updated_at, reason_code, ...core } = p;
  const { type, card_number, card_holder, bank } = requisite;
  return {
    ...core,
    requisite: { type, card: card_number, holder: card_holder, bank },
    reason_code,
    finalized_at: updated_at,
  };
}

/** `{ data }`: the contract's single-object wrapper, around a shape. */
export const one =
  <T, U>(shape: (record: T) => U) =>
  (body: unknown) => ({ data: shape(body as T) });

/** `{ data, pagination }`: the contract's list wrapper, each item in a shape. */
export const page =
  <T, U>(shape: (record: T) => U) =>
  (body: unknown) => {
    const { data, pagination } = body as { data: T[]; pagination: unknown };
    return { data: data.map(shape), pagination };
  };

/** No change: payouts, appeals and the balance have one shape. */
export const asKept = <T>(record: T) => record;
