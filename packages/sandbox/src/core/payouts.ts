// Payout commands: create (if the available balance covers it) and cancel.
import { failure, success } from './answer.js';
import { contribution, overdraws } from './balance.js';
import { iso } from './clock.js';
import { nextId } from './ids.js';
import { frozenJsonCopy } from './freeze.js';
import { metadataRefusal } from './metadata.js';
import { creationRow } from '@merchant-payments/contract/internal/sandbox-model/lifecycle.js';
import { outcomeFor } from '@merchant-payments/contract/internal/sandbox-model/magic-values.js';
import { zero } from '@merchant-payments/contract/internal/sandbox-model/money.js';
import { callTransition, type Handled } from './objects.js';
import { DEFAULT_EXPIRES_IN } from './payments.js';
import { startLifecycle } from './processing.js';
import type { TenantState } from './tenant.js';
import type { PayoutRecord, RequestOf } from './types.js';

/** The card number as responses show it: the first six and last four digits, the rest masked, in groups of four. */
export function maskCard(number: string): string {
  const digits = number.replace(/\D/g, '');
  if (digits.length < 10) return number;
  const masked = digits.slice(0, 6) + '*'.repeat(digits.length - 10) + digits.slice(-4);
  return masked.replace(/(.{4})(?=.)/g, '$1 ');
}

/** Creates a payout; its processing follows the magic value it carries, if any. */
export function createPayout(tenant: TenantState, input: RequestOf['payout'], at: number): Handled<PayoutRecord> {
  const refused = metadataRefusal(input.metadata);
  if (refused) return { answer: refused, changes: [] };
  const body = frozenJsonCopy(input);
  const create = creationRow('payout');
  const record: PayoutRecord = {
    id: '',
    type: body.requisite.type,
    requested: { amount: body.amount, currency: body.currency },
    processed: zero(body.currency),
    requisite: { ...body.requisite, card_number: maskCard(body.requisite.card_number) },
    status: create.to as PayoutRecord['status'],
    expires_at: iso(at + (body.expires_in ?? DEFAULT_EXPIRES_IN) * 1000),
    created_at: iso(at),
    updated_at: iso(at),
  };
  if (overdraws(tenant, undefined, contribution('payout', record))) {
    return {
      answer: failure('insufficient_balance', `The available balance in ${body.currency} does not cover this payout.`, [
        { pointer: '/amount', detail: 'Exceeds the available balance.' },
      ]),
      changes: [],
    };
  }
  record.id = nextId(tenant.ids, 'po');
  if (body.metadata) record.metadata = body.metadata;
  startLifecycle(tenant, 'payout', record, body, outcomeFor('payout', body), at);
  return { answer: success(record), changes: [] };
}

/** Cancels a payout (api:cancel). */
export const cancelPayout = (tenant: TenantState, id: string, at: number) =>
  callTransition(tenant, 'payout', id, 'api:cancel', 'canceled', at);
