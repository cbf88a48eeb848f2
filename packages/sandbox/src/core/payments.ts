// Payment commands: create (with the requisite the sandbox issues), cancel, refund and confirm.
import { success } from './answer.js';
import { iso } from './clock.js';
import { nextId, nextInt } from './ids.js';
import { frozenJsonCopy } from './freeze.js';
import { metadataRefusal } from './metadata.js';
import { creationRow } from '@merchant-payments/contract/internal/sandbox-model/lifecycle.js';
import { outcomeFor } from '@merchant-payments/contract/internal/sandbox-model/magic-values.js';
import { zero } from '@merchant-payments/contract/internal/sandbox-model/money.js';
import { callTransition, type Handled } from './objects.js';
import { startLifecycle } from './processing.js';
import type { TenantState } from './tenant.js';
import type { PaymentRecord, RequestOf } from './types.js';

/** Lifetime of a payment or payout whose request gives no `expires_in`, in seconds (the contract's example). */
export const DEFAULT_EXPIRES_IN = 1800;

/** The card the customer is asked to pay to: a masked test number that differs from payment to payment. */
function issueCard(tenant: TenantState): string {
  return `4000 00** **** ${String(nextInt(tenant.ids, 10_000)).padStart(4, '0')}`;
}

/** Creates a payment; its processing follows the magic value it carries, if any. */
export function createPayment(tenant: TenantState, input: RequestOf['payment'], at: number): Handled<PaymentRecord> {
  const refused = metadataRefusal(input.metadata);
  if (refused) return { answer: refused, changes: [] };
  const body = frozenJsonCopy(input);
  const create = creationRow('payment');
  // Note: records are frozen, so the money objects that are equal are one object.
  const requested = Object.freeze({ amount: body.amount, currency: body.currency });
  const record: PaymentRecord = {
    id: nextId(tenant.ids, 'pay'),
    type: body.requisite.type,
    requested,
    initialized: requested,
    processed: zero(body.currency),
    refunded: zero(body.currency),
    requisite: {
      type: body.requisite.type,
      card_number: issueCard(tenant),
      card_holder: 'SANDBOX RECIPIENT',
      bank: body.requisite.bank ?? 'Sandbox Bank',
    },
    status: create.to as PaymentRecord['status'],
    reason_code: create.reason_code,
    expires_at: iso(at + (body.expires_in ?? DEFAULT_EXPIRES_IN) * 1000),
    created_at: iso(at),
    updated_at: iso(at),
  };
  if (body.metadata) record.metadata = body.metadata;
  startLifecycle(tenant, 'payment', record, body, outcomeFor('payment', body), at);
  return { answer: success(record), changes: [] };
}

/** Cancels a payment (api:cancel). */
export const cancelPayment = (tenant: TenantState, id: string, at: number) =>
  callTransition(tenant, 'payment', id, 'api:cancel', 'canceled', at);

/** Refunds the whole processed amount (api:refund), if the available balance covers it. */
export const refundPayment = (tenant: TenantState, id: string, at: number) =>
  callTransition(tenant, 'payment', id, 'api:refund', 'refunded', at);

/** Confirms a payment (api:confirm, Variant A); the body is the merchant's reference and receipt, kept by nobody. */
export const confirmPayment = (tenant: TenantState, id: string, at: number) =>
  callTransition(tenant, 'payment', id, 'api:confirm', 'confirmed', at);
