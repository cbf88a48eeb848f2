// The contract's lifecycle tables (generated/sandbox/lifecycles.ts) as single rows, and whether a status change seen on
// a server is one of them, or a chain of them that the clock could have made while nobody was looking.
import { LIFECYCLES } from '../../generated/sandbox/lifecycles.js';
import type { Variant } from '../validation/index.js';
import type { ObjectKind } from './session.js';

/** One transition of one kind: a table row with several `from` statuses becomes one row per status. */
export interface Row {
  kind: ObjectKind;
  from: string | null;
  to: string;
  trigger: string;
  reason_code: string | null;
}

/** What caused a change the kit saw: its own action, a create, or nothing it did (a read after the clock moved). */
export type Cause = 'api:create' | 'api:confirm' | 'api:cancel' | 'api:refund' | 'read';

const KINDS: readonly ObjectKind[] = ['payment', 'payout', 'appeal'];

/** The rows that apply to a variant: Confirm Payment exists in Variant A only, so its row is not Variant B's. */
export function rowsOf(variant: Variant): Row[] {
  return KINDS.flatMap((kind) =>
    LIFECYCLES[kind].transitions.flatMap((transition) =>
      ((transition.from ?? [null]) as readonly (string | null)[]).map((from) => ({ kind, from, to: transition.to, trigger: transition.trigger, reason_code: transition.reason_code as string | null })),
    ),
  ).filter((row) => variant === 'a' || row.trigger !== 'api:confirm');
}

export const rowName = (row: Row) => `${row.kind} ${row.from ?? '(new)'} → ${row.to} (${row.trigger}${row.reason_code ? `, ${row.reason_code}` : ''})`;

/** Whether a row could be what `cause` did: an action is its own trigger, a read can only see what the clock did. */
const fits = (row: Row, cause: Cause | 'control', trigger?: string) => {
  if (trigger !== undefined && trigger !== 'control') return row.trigger === trigger;
  if (cause === 'control') return true;
  return cause === 'read' ? row.trigger.startsWith('clock:') : row.trigger === cause;
};

export interface Judged {
  ok: boolean;
  /** The row the change was, when it was exactly one. */
  row?: Row;
  detail?: string;
}

/**
 * Judges a change from `from` to `to` that `cause` made, with the `reason_code` the answer showed (undefined when the
 * variant's shape has none). Between two reads the clock may have made several steps, so a read, or an action
 * after the clock moved, may show the end of a chain of clock rows (unless `chain` is false: the clock stood still);
 * anything else must be one row. A `trigger` (the sandbox's event log names it) must be the row's own.
 */
export function judgeChange(rows: readonly Row[], kind: ObjectKind, from: string, to: string, cause: Cause | 'control', reason?: string | null, trigger?: string, chain = true): Judged {
  const own = rows.filter((row) => row.kind === kind);
  const direct = own.filter((row) => row.from === from && row.to === to && fits(row, cause, trigger));
  const described = `${kind} moved from ${from} to ${to}${reason === undefined ? '' : ` with reason_code ${String(reason)}`}${trigger ? ` (trigger ${trigger})` : cause === 'read' ? ' between two reads' : ` on ${cause}`}`;
  if (direct.length > 0) {
    if (reason === undefined) return { ok: true, row: direct[0] };
    const row = direct.find((candidate) => candidate.reason_code === reason);
    if (row) return { ok: true, row };
    return { ok: false, detail: `${described}, but the table's row from ${from} to ${to} sets reason_code ${direct.map((candidate) => String(candidate.reason_code)).join(' or ')}` };
  }
  if (trigger === undefined && chain) {
    // Note: the clock's rows first (any number), then at most one row of the action itself.
    const clock = own.filter((row) => row.trigger.startsWith('clock:'));
    const seen = new Set<string>([from]);
    const queue = [from];
    while (queue.length > 0) {
      const status = queue.shift() as string;
      for (const row of clock.filter((candidate) => candidate.from === status && !seen.has(candidate.to))) {
        seen.add(row.to);
        queue.push(row.to);
      }
    }
    const last = cause === 'read' ? [...seen].filter((status) => status === to) : own.filter((row) => row.from !== null && seen.has(row.from) && row.to === to && fits(row, cause)).map((row) => row.to);
    const reasons = own.filter((row) => row.to === to && row.from !== null && seen.has(row.from)).map((row) => row.reason_code);
    if (last.length > 0 && (reason === undefined || reasons.includes(reason))) return { ok: true };
  }
  const next = own.filter((row) => row.from === from).map((row) => `${row.to} (${row.trigger})`);
  return { ok: false, detail: `${described}, which no row of the ${kind} table allows; from ${from} it can move to ${next.length > 0 ? next.join(', ') : 'nothing (it is final)'}` };
}
