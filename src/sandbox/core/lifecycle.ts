// The contract's transition table (generated from x-lifecycle), indexed for look-up. No transition is written here.
import { LIFECYCLES, TRIGGERS } from '../../../generated/sandbox/lifecycles.js';
import type { ReasonCode } from '../../types/shared.js';
import type { AnyStatus, ObjectKind, RecordOf } from './types.js';

/** What may move an object, as the contract lists it. */
export type Trigger = (typeof TRIGGERS)[number];

/** One row of a lifecycle table. */
export interface LifecycleRow {
  from: readonly AnyStatus[] | null;
  to: AnyStatus;
  trigger: Trigger;
  reason_code: ReasonCode;
  when: string;
}

/** The status type of one kind. */
export type StatusOf<K extends ObjectKind> = RecordOf[K]['status'];

const rows = (kind: ObjectKind): readonly LifecycleRow[] => LIFECYCLES[kind].transitions;

const byFrom = new Map<string, LifecycleRow[]>();
for (const kind of Object.keys(LIFECYCLES) as ObjectKind[]) {
  for (const row of rows(kind)) {
    for (const from of row.from ?? []) {
      const key = `${kind}:${from}`;
      byFrom.set(key, [...(byFrom.get(key) ?? []), row]);
    }
  }
}

/** Every status of a kind, in the contract's order. */
export function statusesOf<K extends ObjectKind>(kind: K): readonly StatusOf<K>[] {
  return LIFECYCLES[kind].statuses as readonly StatusOf<K>[];
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
