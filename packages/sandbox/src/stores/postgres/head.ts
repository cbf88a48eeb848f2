// A tenant's head as its row of sandbox_tenants: the columns, how a head is written into them and read back, and the
// wall time at which a real-clock tenant next has work (which the ticker's look-up goes by).
import type { TenantHead } from '../../core/tenant.js';

/** The columns a head is kept in, after `id`, in the order of headValues. */
export const HEAD_COLUMNS = [
  'clock_mode',
  'clock_manual',
  'clock_offset',
  'time',
  'seq',
  'ids_state',
  'ids_count',
  'events_made',
  'events_dropped',
  'event_log_limit',
  'retry_compression',
  'secret_key_digest',
  'ledger',
  'endpoints',
  'faults',
  'due',
  'rest',
  'due_wall_at',
] as const;

/** The column types, for the statements that write a head from parameters. */
export const HEAD_TYPES: Record<(typeof HEAD_COLUMNS)[number], string> = {
  clock_mode: 'text',
  clock_manual: 'float8',
  clock_offset: 'float8',
  time: 'float8',
  seq: 'bigint',
  ids_state: 'bigint',
  ids_count: 'bigint',
  events_made: 'bigint',
  events_dropped: 'bigint',
  event_log_limit: 'integer',
  retry_compression: 'float8',
  secret_key_digest: 'text',
  ledger: 'json',
  endpoints: 'json',
  faults: 'json',
  due: 'json',
  rest: 'json',
  due_wall_at: 'float8',
};

/** The head fields with columns of their own, and the parts a view adds; any other field is kept in `rest`. */
const OWN = new Set<string>([
  'payments',
  'payouts',
  'appeals',
  'plans',
  'timers',
  'idempotency',
  'events',
  'deliveries',
  'id',
  'clock',
  'time',
  'seq',
  'ids',
  'ledger',
  'endpoints',
  'faults',
  'eventsMade',
  'eventsDropped',
  'eventLogLimit',
  'retryCompression',
  'secretKeyDigest',
  'due',
]);

const json = (value: unknown) => JSON.stringify(value);

// Note: `rest` holds the core's own bookkeeping (the attempts being sent, with their leases), never a request's data,
// so tagging non-finite numbers cannot be confused with what a user sent.
const encodeRest = (value: unknown) =>
  JSON.stringify(value, (_key, inner: unknown) =>
    typeof inner === 'number' && !Number.isFinite(inner) ? { $number: String(inner) } : inner,
  );

/** `rest` as parsed from the row, its tagged numbers back to numbers. */
function decodeRest(value: unknown): Record<string, unknown> {
  const untag = (inner: unknown): unknown => {
    if (inner === null || typeof inner !== 'object') return inner;
    if ('$number' in inner) return Number((inner as { $number: string }).$number);
    for (const [key, item] of Object.entries(inner)) (inner as Record<string, unknown>)[key] = untag(item);
    return inner;
  };
  return untag(value) as Record<string, unknown>;
}

/** The wall time (ms) at which a real-clock tenant next has something to do; null when it never will by itself. */
export function dueWallAt(head: TenantHead, earliestTimer: number | undefined): number | null {
  if (head.clock.mode !== 'real') return null;
  // Note: an attempt waiting to be sent is due at once; a leased one when its lease runs out (outbox.ts: leaseDue).
  const candidates = [
    head.due.length > 0 ? -Infinity : Infinity,
    ...head.sending.map((s) => s.leased_until ?? -Infinity),
  ];
  if (earliestTimer !== undefined) candidates.push(earliestTimer - head.clock.offset);
  const at = Math.min(...candidates);
  return at === Infinity ? null : at;
}

/** The values of HEAD_COLUMNS for a head. */
export function headValues(head: TenantHead, earliestTimer: number | undefined): unknown[] {
  const rest = Object.fromEntries(Object.entries(head).filter(([field]) => !OWN.has(field)));
  return [
    head.clock.mode,
    head.clock.manual,
    head.clock.offset,
    head.time,
    head.seq,
    head.ids.state,
    head.ids.count,
    head.eventsMade,
    head.eventsDropped,
    head.eventLogLimit,
    head.retryCompression,
    head.secretKeyDigest ?? null,
    json([...head.ledger].map(([currency, entry]) => [currency, entry.available.toString(), entry.pending.toString()])),
    json(head.endpoints),
    json(head.faults),
    json(head.due),
    encodeRest(rest),
    dueWallAt(head, earliestTimer),
  ];
}

/** The tenant row as read: its JSON text (row_to_json of sandbox_tenants), and the values the store reads from it. */
export interface HeadRow {
  text: string;
  version: string;
  lastUsedAt: number;
  dueWallAt: number | null;
  counts: Counts;
}

/** The tenant's counts as read with its head: `[kind, status, n]`, n a bigint that may read as a string. */
export type Counts = [string, string, number | string][];

/** The row of a head read as JSON text. */
export function headRow(text: string): HeadRow {
  const row = JSON.parse(text) as Record<string, unknown>;
  const due = row.due_wall_at;
  return {
    text,
    version: String(row.version),
    lastUsedAt: row.last_used_at as number,
    dueWallAt: due === null ? null : Number(due),
    counts: row.counts as Counts,
  };
}

/** A new head from a row read as JSON text; each call parses it afresh, as a command changes its head in place. */
export function headOf(id: string, text: string): TenantHead {
  const row = JSON.parse(text) as Record<string, unknown>;
  const head = {
    ...decodeRest(row.rest),
    id,
    clock: { mode: row.clock_mode, manual: row.clock_manual, offset: row.clock_offset },
    time: row.time,
    seq: Number(row.seq),
    ids: { state: Number(row.ids_state), count: Number(row.ids_count) },
    ledger: new Map(
      (row.ledger as [string, string, string][]).map(([currency, available, pending]) => [
        currency,
        { available: BigInt(available), pending: BigInt(pending) },
      ]),
    ),
    endpoints: row.endpoints,
    faults: row.faults,
    eventsMade: Number(row.events_made),
    eventsDropped: Number(row.events_dropped),
    eventLogLimit: row.event_log_limit,
    due: row.due,
    retryCompression: row.retry_compression,
  } as TenantHead;
  head.sending ??= [];
  if (row.secret_key_digest !== null) head.secretKeyDigest = row.secret_key_digest as string;
  return head;
}
