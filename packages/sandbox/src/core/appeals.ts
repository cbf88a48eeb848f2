// Appeal commands: create (against a payment or payout of the same tenant, in its currency) and cancel.
import { failure, success } from './answer.js';
import { iso } from './clock.js';
import { nextId } from './ids.js';
import { frozenJsonCopy } from './freeze.js';
import { metadataRefusal } from './metadata.js';
import { creationRow } from '@merchant-payments/contract/internal/sandbox-model/lifecycle.js';
import { outcomeFor } from '@merchant-payments/contract/internal/sandbox-model/magic-values.js';
import { zero } from '@merchant-payments/contract/internal/sandbox-model/money.js';
import { callTransition, type Handled } from './objects.js';
import { startLifecycle } from './processing.js';
import type { TenantState } from './tenant.js';
import type { AppealRecord, RequestOf } from './types.js';

/** Creates an appeal; its review follows the magic value it carries, if any. */
export function createAppeal(tenant: TenantState, input: RequestOf['appeal'], at: number): Handled<AppealRecord> {
  const refused = metadataRefusal(input.metadata);
  if (refused) return { answer: refused, changes: [] };
  const body = frozenJsonCopy(input);
  const transaction = tenant.payments.get(body.transaction_id) ?? tenant.payouts.get(body.transaction_id);
  if (!transaction) {
    return {
      answer: failure('not_found', `No payment or payout with id ${body.transaction_id} exists for this merchant.`, [
        { pointer: '/transaction_id', detail: 'No payment or payout with this id.' },
      ]),
      changes: [],
    };
  }
  if (transaction.requested.currency !== body.currency) {
    return {
      answer: failure('validation_failed', 'The appeal is in another currency than its transaction.', [
        { pointer: '/currency', detail: `The transaction is in ${transaction.requested.currency}.` },
      ]),
      changes: [],
    };
  }
  const create = creationRow('appeal');
  const record: AppealRecord = {
    id: nextId(tenant.ids, 'apl'),
    appeal_id: `APL-${String(tenant.appeals.count() + 1).padStart(6, '0')}`,
    requested: { amount: body.amount, currency: body.currency },
    resolved: zero(body.currency),
    status: create.to as AppealRecord['status'],
    created_at: iso(at),
    updated_at: iso(at),
  };
  if (body.metadata) record.metadata = body.metadata;
  startLifecycle(tenant, 'appeal', record, body, outcomeFor('appeal', body), at);
  return { answer: success(record), changes: [] };
}

/** Cancels an appeal (api:cancel). */
export const cancelAppeal = (tenant: TenantState, id: string, at: number) =>
  callTransition(tenant, 'appeal', id, 'api:cancel', 'canceled', at);
