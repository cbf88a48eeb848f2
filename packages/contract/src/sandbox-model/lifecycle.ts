// The contract's lifecycle tables (generated from x-lifecycle into packages/contract/generated/sandbox/lifecycles.ts), read once and
// indexed: the one module over them, which the sandbox's core and the conformance kit both read. No transition is
// written here.
import { LIFECYCLES } from '../../generated/sandbox/lifecycles.js';
import type { ReasonCode } from '../types/shared.js';
import type { AnyStatus, ObjectKind, RecordOf, Trigger } from './types.js';

/** One row of a lifecycle table. */
export interface LifecycleRow {
  from: readonly AnyStatus[] | null;
  to: AnyStatus;
  trigger: Trigger;
  reason_code: ReasonCode;
  when: string;
}

/** One transition of one kind: a table row with several `from` statuses becomes one per status; `from: null` creates the object. */
export interface Transition {
  kind: ObjectKind;
  from: AnyStatus | null;
  to: AnyStatus;
  trigger: Trigger;
  reason_code: ReasonCode;
  /** The table row it comes from. */
  row: LifecycleRow;
}

/** The status type of one kind. */
export type StatusOf<K extends ObjectKind> = RecordOf[K]['status'];

/** The kinds of object that have a lifecycle, in the contract's order. */
export const OBJECT_KINDS = Object.keys(LIFECYCLES) as readonly ObjectKind[];

const rows = (kind: ObjectKind): readonly LifecycleRow[] => LIFECYCLES[kind].transitions;

/** Every transition of every kind, one per `from` status, in the order of the tables. */
export const TRANSITIONS: readonly Transition[] = OBJECT_KINDS.flatMap((kind) =>
  rows(kind).flatMap((row) =>
    (row.from ?? [null]).map((from) => ({
      kind,
      from,
      to: row.to,
      trigger: row.trigger,
      reason_code: row.reason_code,
      row,
    })),
  ),
);

const byFrom = new Map<string, LifecycleRow[]>();
for (const { kind, from, row } of TRANSITIONS) {
  if (from === null) continue;
  const key = `${kind}:${from}`;
  byFrom.set(key, [...(byFrom.get(key) ?? []), row]);
}

/** Every status of a kind, in the contract's order. */
export function statusesOf<K extends ObjectKind>(kind: K): readonly StatusOf<K>[] {
  return LIFECYCLES[kind].statuses;
}

/** The row that creates an object of this kind. */
export function creationRow(kind: ObjectKind): LifecycleRow {
  return rows(kind).find((row) => row.from === null)!;
}

/** Every row that leaves `from`. */
export function rowsFrom(kind: ObjectKind, from: AnyStatus): readonly LifecycleRow[] {
  return byFrom.get(`${kind}:${from}`) ?? [];
}

/** The first row from `from` matching what is given of `to`, the trigger and the reason_code; undefined if none. */
export function findRow(
  kind: ObjectKind,
  from: AnyStatus,
  match: { to?: AnyStatus; trigger?: Trigger; reason_code?: ReasonCode },
): LifecycleRow | undefined {
  return rowsFrom(kind, from).find(
    (row) =>
      (match.to === undefined || row.to === match.to) &&
      (match.trigger === undefined || row.trigger === match.trigger) &&
      (match.reason_code === undefined || row.reason_code === match.reason_code),
  );
}

/** Whether nothing leads out of the status. */
export const isFinal = (kind: ObjectKind, status: AnyStatus): boolean => rowsFrom(kind, status).length === 0;
