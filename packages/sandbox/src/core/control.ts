// Forcing a status (the control API): any transition the contract's table lists from the object's status, and only those.
import { failure, success } from './answer.js';
import { rowsFrom, statusesOf } from '@merchant-payments/contract/internal/sandbox-model/lifecycle.js';
import { notFound, type Handled } from './objects.js';
import { collectionOf, type TenantState } from './tenant.js';
import { commitTransition, prepareTransition } from './transition.js';
import type { ObjectKind, RecordOf } from './types.js';
import type { ReasonCode } from '@merchant-payments/contract/internal/types/shared.js';

/** What to force: the status to reach and, where the table has several rows to it, which reason_code. */
export interface ForceStatusInput<K extends ObjectKind = ObjectKind> {
  kind: K;
  id: string;
  status: string;
  reason_code?: ReasonCode;
}

/** Moves an object to `status` as if the row's trigger had happened; an illegal transition is 422 `invalid_state`. */
export function forceStatus<K extends ObjectKind>(
  tenant: TenantState,
  input: ForceStatusInput<K>,
  at: number,
): Handled<RecordOf[K]> {
  const { kind, id, status } = input;
  if (!(statusesOf(kind) as readonly string[]).includes(status)) {
    return {
      answer: failure('validation_failed', `${status} is not a ${kind} status.`, [
        { pointer: '/status', detail: `One of: ${statusesOf(kind).join(', ')}.` },
      ]),
      changes: [],
    };
  }
  const record = collectionOf(tenant, kind).get(id);
  if (!record) return { answer: notFound(kind, id), changes: [] };
  const candidates = rowsFrom(kind, record.status).filter((row) => row.to === status);
  const row = candidates.find((r) => input.reason_code === undefined || r.reason_code === input.reason_code);
  if (!row) {
    const reasons = candidates.map((r) => String(r.reason_code));
    const detail =
      candidates.length > 0
        ? `A ${kind} moves from ${record.status} to ${status} only with reason_code ${reasons.join(', ')}.`
        : `A ${kind} cannot move from ${record.status} to ${status}; it can move to: ${[...new Set(rowsFrom(kind, record.status).map((r) => r.to))].join(', ') || 'nothing (final)'}.`;
    return { answer: failure('invalid_state', detail), changes: [] };
  }
  const prepared = prepareTransition(tenant, kind, record, row.to, row.reason_code, at);
  if (prepared.overdraws)
    return {
      answer: failure(
        'insufficient_balance',
        `The available balance in ${record.requested.currency} does not cover this.`,
      ),
      changes: [],
    };
  const change = commitTransition(tenant, prepared, 'control', at);
  return { answer: success(change.event.data as RecordOf[K]), changes: [change] };
}
