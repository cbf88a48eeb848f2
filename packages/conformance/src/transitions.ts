// The contract's lifecycle tables as single rows (TRANSITIONS of the sandbox core's lifecycle module, the one module
// over packages/contract/generated/sandbox/lifecycles.ts), and whether a status change seen on a server is one of them, or a chain of
// them that the clock could have made while nobody was looking.
import { TRANSITIONS, type Transition } from '@merchant-payments/contract/internal/sandbox-model/lifecycle.js';
import type { ObjectKind } from '@merchant-payments/contract/internal/sandbox-model/types.js';
import type { Variant } from '@merchant-payments/contract/internal/validation/index.js';

/** One transition of one kind: a table row with several `from` statuses is one row per status. */
export type Row = Transition;

/** The rows that apply to a variant: Confirm Payment exists in Variant A only, so its row is not Variant B's. */
export const rowsOf = (variant: Variant): Row[] =>
  TRANSITIONS.filter((row) => variant === 'a' || row.trigger !== 'api:confirm');

export const rowName = (row: Row) =>
  `${row.kind} ${row.from ?? '(new)'} → ${row.to} (${row.trigger}${row.reason_code ? `, ${row.reason_code}` : ''})`;

/** A change an answer of the API showed. */
export interface Seen {
  kind: ObjectKind;
  from: string;
  to: string;
  /** The kit's own action, or a read, which can only see what the clock did. */
  cause: 'api:confirm' | 'api:cancel' | 'api:refund' | 'read';
  /** The reason_code the answer showed; undefined when the variant's shape has none. */
  reason: string | null | undefined;
  /** The clock may have moved since the object was last seen, so the change may be the end of a chain of clock rows. */
  clockMoved: boolean;
}

/** A change the sandbox's event log holds, with the trigger it names (`control` for a forced status: any row). */
export interface Logged {
  kind: ObjectKind;
  from: string;
  to: string;
  trigger: string;
  reason: string | null | undefined;
}

export interface Judged {
  ok: boolean;
  /** The row the change was, when it was exactly one. */
  row?: Row;
  detail?: string;
}

/** The rows that fit `fits` from `from` to `to` and the reason, or a failure that says what the table allows. */
function judge(
  rows: readonly Row[],
  change: Seen | Logged,
  fits: (row: Row) => boolean,
  described: string,
  chained: () => boolean,
): Judged {
  const { kind, from, to, reason } = change;
  const own = rows.filter((row) => row.kind === kind);
  const direct = own.filter((row) => row.from === from && row.to === to && fits(row));
  if (direct.length > 0) {
    const row = reason === undefined ? direct[0] : direct.find((candidate) => candidate.reason_code === reason);
    if (row) return { ok: true, row };
    return {
      ok: false,
      detail: `${described}, but the table's row from ${from} to ${to} sets reason_code ${direct.map((candidate) => String(candidate.reason_code)).join(' or ')}`,
    };
  }
  if (chained()) return { ok: true };
  const next = own.filter((row) => row.from === from).map((row) => `${row.to} (${row.trigger})`);
  return {
    ok: false,
    detail: `${described}, which no row of the ${kind} table allows; from ${from} it can move to ${next.length > 0 ? next.join(', ') : 'nothing (it is final)'}`,
  };
}

const reasonText = (reason: string | null | undefined) =>
  reason === undefined ? '' : ` with reason_code ${String(reason)}`;

/**
 * Judges a change an answer showed: one row that `cause` makes (a read sees only the clock's rows), or, when the clock
 * may have moved, the clock's rows from `from` (any number) and then at most one row of the action itself.
 */
export function judgeSeen(rows: readonly Row[], change: Seen): Judged {
  const { kind, from, to, cause, reason } = change;
  const fits = (row: Row) => (cause === 'read' ? row.trigger.startsWith('clock:') : row.trigger === cause);
  const described = `${kind} moved from ${from} to ${to}${reasonText(reason)}${cause === 'read' ? ' between two reads' : ` on ${cause}`}`;
  const chained = () => {
    if (!change.clockMoved) return false;
    const own = rows.filter((row) => row.kind === kind);
    const reached = new Set<string>([from]);
    for (const status of reached)
      for (const row of own) if (row.from === status && row.trigger.startsWith('clock:')) reached.add(row.to);
    const ends = own.filter((row) => row.from !== null && reached.has(row.from) && row.to === to);
    const last = cause === 'read' ? reached.has(to) : ends.some(fits);
    return last && (reason === undefined || ends.some((row) => row.reason_code === reason));
  };
  return judge(rows, change, fits, described, chained);
}

/** Judges a change of the sandbox's event log: one row, with the trigger the log names. */
export function judgeLogged(rows: readonly Row[], change: Logged): Judged {
  const fits = (row: Row) => change.trigger === 'control' || row.trigger === change.trigger;
  const described = `${change.kind} moved from ${change.from} to ${change.to}${reasonText(change.reason)} (trigger ${change.trigger})`;
  return judge(rows, change, fits, described, () => false);
}
