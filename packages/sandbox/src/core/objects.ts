// What every kind of object shares: retrieve, list, and a transition the merchant's call triggers.
import { failure, success, type Answer } from './answer.js';
import { findRow, rowsFrom, statusesOf } from '@merchant-payments/contract/internal/sandbox-model/lifecycle.js';
import { collectionOf, type TenantState } from './tenant.js';
import { commitTransition, prepareTransition } from './transition.js';
import type { AnyStatus, ObjectKind, Page, RecordOf, StatusChange, Trigger } from './types.js';

/** What a command handler returns: its answer and the status changes it made. */
export interface Handled<T = unknown> {
  answer: Answer<T>;
  changes: StatusChange[];
}

/** The list parameters the contract declares: a status filter, `limit` (1–100, default 20), `offset` (default 0). */
export interface ListQuery<S extends AnyStatus = AnyStatus> {
  status?: S;
  limit?: number;
  offset?: number;
}

/** Page size when the request names none, and the largest allowed (Limit parameter). */
export const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

const NAMES: Record<ObjectKind, string> = { payment: 'payment', payout: 'payout', appeal: 'appeal' };

/** The 404 answer for an id the tenant does not have. */
export const notFound = (kind: ObjectKind, id: string): Answer<never> =>
  failure('not_found', `No ${NAMES[kind]} with id ${id} exists for this merchant.`);

/** One object, or 404. */
export function retrieve<K extends ObjectKind>(tenant: TenantState, kind: K, id: string): Handled<RecordOf[K]> {
  const record = collectionOf(tenant, kind).get(id);
  return { answer: record ? success(record) : notFound(kind, id), changes: [] };
}

/** Whether a list query is one the contract allows: limit 1–100, offset from 0, a status of the kind. */
export const isPageQuery = (kind: ObjectKind, status: AnyStatus | undefined, limit: number, offset: number) =>
  Number.isInteger(limit) &&
  limit >= 1 &&
  limit <= MAX_LIMIT &&
  Number.isInteger(offset) &&
  offset >= 0 &&
  (status === undefined || statusesOf(kind).includes(status));

/** A page of objects, newest first, with the exact total of those that match. */
export function list<K extends ObjectKind>(tenant: TenantState, kind: K, query: ListQuery): Handled<Page<RecordOf[K]>> {
  const limit = query.limit ?? DEFAULT_LIMIT;
  const offset = query.offset ?? 0;
  // Note: adapters validate queries against the contract first; this keeps a bad call from reading past the index.
  const errors = [
    ...(Number.isInteger(limit) && limit >= 1 && limit <= MAX_LIMIT
      ? []
      : [{ pointer: '/limit', detail: `An integer from 1 to ${MAX_LIMIT}.` }]),
    ...(Number.isInteger(offset) && offset >= 0 ? [] : [{ pointer: '/offset', detail: 'An integer from 0.' }]),
    ...(query.status === undefined || statusesOf(kind).includes(query.status)
      ? []
      : [{ pointer: '/status', detail: `One of: ${statusesOf(kind).join(', ')}.` }]),
  ];
  if (errors.length > 0)
    return {
      answer: failure('validation_failed', 'The list query breaks the contract; see errors.', errors),
      changes: [],
    };
  const objects = collectionOf(tenant, kind);
  const items = objects.page({ status: query.status, limit, offset });
  const total = objects.count(query.status);
  return { answer: success({ data: items, pagination: { total, limit, offset } }), changes: [] };
}

/** The 422 answer for an operation the object's status does not allow, naming the statuses that do. */
export function invalidState(
  kind: ObjectKind,
  status: AnyStatus,
  what: string,
  allowedFrom: readonly AnyStatus[],
): Answer<never> {
  const allowed = allowedFrom.length > 0 ? ` (only from ${allowedFrom.join(', ')})` : '';
  return failure('invalid_state', `A ${NAMES[kind]} in status ${status} cannot be ${what}${allowed}.`);
}

/** The statuses the table lets `trigger` move an object of this kind from. */
export function statusesWith(kind: ObjectKind, trigger: Trigger): AnyStatus[] {
  return statusesOf(kind).filter((s) => rowsFrom(kind, s).some((row) => row.trigger === trigger));
}

/** Moves an object by the merchant's call `trigger`, if the contract's table has a row for it from its status. */
export function callTransition<K extends ObjectKind>(
  tenant: TenantState,
  kind: K,
  id: string,
  trigger: Trigger,
  what: string,
  at: number,
): Handled<RecordOf[K]> {
  const record = collectionOf(tenant, kind).get(id);
  if (!record) return { answer: notFound(kind, id), changes: [] };
  const row = findRow(kind, record.status, { trigger });
  if (!row) return { answer: invalidState(kind, record.status, what, statusesWith(kind, trigger)), changes: [] };
  const prepared = prepareTransition(tenant, kind, record, row.to, row.reason_code, at);
  if (prepared.overdraws) {
    return {
      answer: failure(
        'insufficient_balance',
        `The available balance in ${record.requested.currency} does not cover this.`,
      ),
      changes: [],
    };
  }
  const change = commitTransition(tenant, prepared, trigger, at);
  return { answer: success(change.event.data as RecordOf[K]), changes: [change] };
}
