// A tenant's state as rows of the tables of migrations/, and what one transaction changed in them. Records are frozen
// and replaced, so a changed record is a different object; the parts the core changes in place (plans, deliveries,
// idempotency records) are compared by the values it changes.
import { deepFreeze } from '../../core/freeze.js';
import type { TenantState } from '../../core/tenant.js';
import type { Timer } from '../../core/timers.js';
import type { ObjectKind } from '../../core/types.js';

/** One statement: its text (fixed, never built from input) and its parameters. */
export interface Statement {
  text: string;
  values: unknown[];
}

/** What was stored of one keyed part: each key's position and signature, and the highest position ever given. */
interface PartBase {
  entries: Map<string, { position: number; signature: unknown[] }>;
  top: number;
}

/** What is stored of a tenant, to compare the state after a transaction with. */
export interface Baseline {
  row: unknown[];
  parts: Map<string, PartBase>;
}

interface Part {
  name: string;
  /** Whether the part's order is kept by a position column (Map order), or follows from the row itself. */
  ordered: boolean;
  entries(state: TenantState): Iterable<[string, unknown]>;
  /** The values whose change means the row must be written again, compared with Object.is. */
  signature(value: unknown): unknown[];
  upsert(tenant: string, rows: { key: string; value: unknown; position: number }[], state: TenantState): Statement;
  remove(tenant: string, keys: string[]): Statement;
}

const KINDS = [
  ['payment', 'payments'],
  ['payout', 'payouts'],
  ['appeal', 'appeals'],
] as const satisfies readonly (readonly [ObjectKind, keyof TenantState])[];

const json = (value: unknown) => JSON.stringify(value);
const SEPARATOR = '\u0000';

function objectPart(kind: ObjectKind, field: (typeof KINDS)[number][1]): Part {
  return {
    name: kind,
    ordered: true,
    entries: (state) => state[field].byId,
    signature: (record) => [record],
    upsert: (tenant, rows, state) => ({
      // Note: a request never changes, so an update leaves it as it was written with the object.
      text: `INSERT INTO sandbox_objects (tenant_id, kind, id, position, status, record, request)
        SELECT $1, $2, id, position, status, record::json, request::json
        FROM unnest($3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[]) AS r(id, position, status, record, request)
        ON CONFLICT (tenant_id, kind, id) DO UPDATE SET position = excluded.position, status = excluded.status, record = excluded.record`,
      values: [
        tenant,
        kind,
        rows.map((r) => r.key),
        rows.map((r) => r.position),
        rows.map((r) => (r.value as { status: string }).status),
        rows.map((r) => json(r.value)),
        rows.map((r) => json(state[field].requests.get(r.key))),
      ],
    }),
    remove: (tenant, keys) => ({
      text: 'DELETE FROM sandbox_objects WHERE tenant_id = $1 AND kind = $2 AND id = ANY($3::text[])',
      values: [tenant, kind, keys],
    }),
  };
}

const PARTS: Part[] = [
  ...KINDS.map(([kind, field]) => objectPart(kind, field)),
  {
    name: 'plans',
    ordered: true,
    entries: (state) => state.plans,
    // Note: a plan is an array the core shifts in place.
    signature: (steps) => [json(steps)],
    upsert: (tenant, rows) => ({
      text: `INSERT INTO sandbox_plans (tenant_id, key, position, steps)
        SELECT $1, key, position, steps::json FROM unnest($2::text[], $3::bigint[], $4::text[]) AS r(key, position, steps)
        ON CONFLICT (tenant_id, key) DO UPDATE SET position = excluded.position, steps = excluded.steps`,
      values: [tenant, rows.map((r) => r.key), rows.map((r) => r.position), rows.map((r) => json(r.value))],
    }),
    remove: (tenant, keys) => ({
      text: 'DELETE FROM sandbox_plans WHERE tenant_id = $1 AND key = ANY($2::text[])',
      values: [tenant, keys],
    }),
  },
  {
    name: 'timers',
    ordered: false,
    entries: (state) => state.timers.map((timer): [string, unknown] => [String(timer.seq), timer]),
    signature: (timer) => [timer],
    upsert: (tenant, rows) => ({
      text: `INSERT INTO sandbox_timers (tenant_id, seq, due_at, body)
        SELECT $1, seq, due_at, body::json FROM unnest($2::bigint[], $3::float8[], $4::text[]) AS r(seq, due_at, body)
        ON CONFLICT (tenant_id, seq) DO UPDATE SET due_at = excluded.due_at, body = excluded.body`,
      values: [tenant, rows.map((r) => r.key), rows.map((r) => (r.value as Timer).at), rows.map((r) => json(r.value))],
    }),
    remove: (tenant, keys) => ({
      text: 'DELETE FROM sandbox_timers WHERE tenant_id = $1 AND seq = ANY($2::bigint[])',
      values: [tenant, keys],
    }),
  },
  {
    name: 'idempotency',
    ordered: true,
    entries: (state) => state.idempotency,
    // Note: completing a key sets its answer and expiry on the same record, and moves it to the Map's end; renewing a
    // key's lease moves only its heldUntil.
    signature: (value) => {
      const record = value as TenantState['idempotency'] extends Map<string, infer R> ? R : never;
      return [record, record.fingerprint, record.expires, record.answer, record.heldUntil];
    },
    upsert: (tenant, rows) => ({
      text: `INSERT INTO sandbox_idempotency (tenant_id, scope, key, position, fingerprint, expires_at, answer, held_until)
        SELECT $1, scope, key, position, fingerprint, expires_at, answer::json, held_until
        FROM unnest($2::text[], $3::text[], $4::bigint[], $5::text[], $6::float8[], $7::text[], $8::float8[])
          AS r(scope, key, position, fingerprint, expires_at, answer, held_until)
        ON CONFLICT (tenant_id, scope, key) DO UPDATE SET position = excluded.position, fingerprint = excluded.fingerprint,
          expires_at = excluded.expires_at, answer = excluded.answer, held_until = excluded.held_until`,
      values: idempotencyColumns(tenant, rows),
    }),
    remove: (tenant, keys) => ({
      text: 'DELETE FROM sandbox_idempotency WHERE tenant_id = $1 AND (scope, key) IN (SELECT * FROM unnest($2::text[], $3::text[]))',
      values: [tenant, ...splitScopes(keys)],
    }),
  },
  {
    name: 'events',
    ordered: false,
    // Note: keyed by the change's position among all the tenant made, which stays its position as older ones leave.
    entries: (state) =>
      state.events.map((change, index): [string, unknown] => [String(state.eventsDropped + index), change]),
    signature: (change) => [change],
    upsert: (tenant, rows) => ({
      text: `INSERT INTO sandbox_events (tenant_id, position, change)
        SELECT $1, position, change::json FROM unnest($2::bigint[], $3::text[]) AS r(position, change)
        ON CONFLICT (tenant_id, position) DO UPDATE SET change = excluded.change`,
      values: [tenant, rows.map((r) => r.key), rows.map((r) => json(r.value))],
    }),
    remove: (tenant, keys) => ({
      text: 'DELETE FROM sandbox_events WHERE tenant_id = $1 AND position = ANY($2::bigint[])',
      values: [tenant, keys],
    }),
  },
  {
    name: 'deliveries',
    ordered: true,
    entries: (state) => state.deliveries,
    // Note: a delivery changes in place: its state, and its attempts (pushed, popped, given a sent_at and an outcome).
    signature: (value) => {
      const delivery = value as { state: string; attempts: unknown[] };
      return [delivery, delivery.state, json(delivery.attempts)];
    },
    upsert: (tenant, rows) => ({
      text: `INSERT INTO sandbox_deliveries (tenant_id, id, position, state, body)
        SELECT $1, id, position, state, body::json FROM unnest($2::text[], $3::bigint[], $4::text[], $5::text[]) AS r(id, position, state, body)
        ON CONFLICT (tenant_id, id) DO UPDATE SET position = excluded.position, state = excluded.state, body = excluded.body`,
      values: [
        tenant,
        rows.map((r) => r.key),
        rows.map((r) => r.position),
        rows.map((r) => (r.value as { state: string }).state),
        rows.map((r) => json(r.value)),
      ],
    }),
    remove: (tenant, keys) => ({
      text: 'DELETE FROM sandbox_deliveries WHERE tenant_id = $1 AND id = ANY($2::text[])',
      values: [tenant, keys],
    }),
  },
];

function splitScopes(keys: string[]): [string[], string[]] {
  // Note: PostgreSQL text cannot hold the NUL that joins an operation and its key in the state (idempotency.ts).
  const scopes = keys.map((scoped) => scoped.slice(0, scoped.indexOf(SEPARATOR)));
  return [scopes, keys.map((scoped, index) => scoped.slice(scopes[index]!.length + 1))];
}

function idempotencyColumns(tenant: string, rows: { key: string; value: unknown; position: number }[]): unknown[] {
  const records = rows.map(
    (r) => r.value as { fingerprint: string; expires: number; answer?: unknown; heldUntil?: number },
  );
  return [
    tenant,
    ...splitScopes(rows.map((r) => r.key)),
    rows.map((r) => r.position),
    records.map((record) => record.fingerprint),
    records.map((record) => record.expires),
    records.map((record) => (record.answer === undefined ? null : json(record.answer))),
    records.map((record) => record.heldUntil ?? null),
  ];
}

/** The fields kept in columns or tables of their own; any other field of TenantState is kept in `rest`. */
const OWN_FIELDS = new Set<string>([
  'id',
  'clock',
  'time',
  'seq',
  'ids',
  'payments',
  'payouts',
  'appeals',
  'plans',
  'timers',
  'ledger',
  'idempotency',
  'endpoints',
  'events',
  'eventsDropped',
  'eventLogLimit',
  'deliveries',
  'due',
  'retryCompression',
  'secretKeyDigest',
]);

/** The columns of sandbox_tenants after `id` and `version`, in the order of tenantRow. */
export const TENANT_COLUMNS = [
  'clock_mode',
  'clock_manual',
  'clock_offset',
  'time',
  'seq',
  'ids_state',
  'ids_count',
  'events_dropped',
  'event_log_limit',
  'retry_compression',
  'secret_key_digest',
  'ledger',
  'endpoints',
  'due',
  'rest',
  'due_wall_at',
] as const;

// Note: `rest` holds fields the store has no column for (the core's own bookkeeping, never a request's data), so
// tagging Maps, bigints and non-finite numbers cannot be confused with what a user sent.
const encodeRest = (value: unknown) =>
  JSON.stringify(value, (_key, inner: unknown) => {
    if (typeof inner === 'bigint') return { $bigint: inner.toString() };
    if (inner instanceof Map) return { $map: [...inner] };
    if (typeof inner === 'number' && !Number.isFinite(inner)) return { $number: String(inner) };
    return inner;
  });

const decodeRest = (text: unknown): Record<string, unknown> =>
  JSON.parse(typeof text === 'string' ? text : JSON.stringify(text), (_key, inner: unknown) => {
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return inner;
    const tagged = inner as { $bigint?: string; $map?: [unknown, unknown][]; $number?: string };
    if (tagged.$bigint !== undefined) return BigInt(tagged.$bigint);
    if (tagged.$map !== undefined) return new Map(tagged.$map);
    if (tagged.$number !== undefined) return Number(tagged.$number);
    return inner;
  }) as Record<string, unknown>;

/** The wall time (ms) at which a real-clock tenant next has something to do; null when it never will by itself. */
function dueWallAt(state: TenantState): number | null {
  if (state.clock.mode !== 'real') return null;
  // Note: an attempt waiting to be sent is due at once; a leased one when its lease runs out (outbox.ts: leaseDue).
  const candidates = [
    state.due.length > 0 ? -Infinity : Infinity,
    ...(state.sending ?? []).map((s) => s.leased_until ?? -Infinity),
  ];
  const earliest = state.timers.at(-1);
  if (earliest) candidates.push(earliest.at - state.clock.offset);
  const at = Math.min(...candidates);
  return at === Infinity ? null : at;
}

/** The values of TENANT_COLUMNS for a state. */
export function tenantRow(state: TenantState): unknown[] {
  const rest = Object.fromEntries(Object.entries(state).filter(([field]) => !OWN_FIELDS.has(field)));
  return [
    state.clock.mode,
    state.clock.manual,
    state.clock.offset,
    state.time,
    state.seq,
    state.ids.state,
    state.ids.count,
    state.eventsDropped,
    state.eventLogLimit,
    state.retryCompression,
    state.secretKeyDigest ?? null,
    json(
      [...state.ledger].map(([currency, entry]) => [currency, entry.available.toString(), entry.pending.toString()]),
    ),
    json(state.endpoints),
    json(state.due),
    encodeRest(rest),
    dueWallAt(state),
  ];
}

/** The rows a tenant's state is read from: its tenant row, and each part's rows in order. */
export interface TenantRows {
  tenant: Record<string, unknown>;
  objects: { kind: ObjectKind; id: string; position: string; record: unknown; request: unknown }[];
  plans: { key: string; position: string; steps: unknown }[];
  timers: { seq: string; body: unknown }[];
  idempotency: {
    scope: string;
    key: string;
    position: string;
    fingerprint: string;
    expires_at: number;
    answer: unknown;
    held_until: number | null;
  }[];
  events: { position: string; change: unknown }[];
  deliveries: { id: string; position: string; body: unknown }[];
}

/** The statements that read a tenant's rows, each with the tenant's id as $1, in the order of TenantRows' parts. */
export const LOAD_QUERIES = {
  objects:
    'SELECT kind, id, position, record, request FROM sandbox_objects WHERE tenant_id = $1 ORDER BY kind, position',
  plans: 'SELECT key, position, steps FROM sandbox_plans WHERE tenant_id = $1 ORDER BY position',
  // Note: the timer array is kept with the earliest last (timers.ts).
  timers: 'SELECT seq, body FROM sandbox_timers WHERE tenant_id = $1 ORDER BY due_at DESC, seq DESC',
  idempotency:
    'SELECT scope, key, position, fingerprint, expires_at, answer, held_until FROM sandbox_idempotency WHERE tenant_id = $1 ORDER BY position',
  events: 'SELECT position, change FROM sandbox_events WHERE tenant_id = $1 ORDER BY position',
  deliveries: 'SELECT id, position, body FROM sandbox_deliveries WHERE tenant_id = $1 ORDER BY position',
} as const satisfies Record<Exclude<keyof TenantRows, 'tenant'>, string>;

/** A tenant's state from its rows, and the baseline to tell what a transaction changes in it. */
export function fromRows(id: string, rows: TenantRows): { state: TenantState; baseline: Baseline } {
  const t = rows.tenant;
  const state = {
    ...decodeRest(t.rest),
    id,
    clock: { mode: t.clock_mode, manual: t.clock_manual, offset: t.clock_offset },
    time: t.time,
    seq: Number(t.seq),
    ids: { state: Number(t.ids_state), count: Number(t.ids_count) },
    payments: { byId: new Map(), requests: new Map() },
    payouts: { byId: new Map(), requests: new Map() },
    appeals: { byId: new Map(), requests: new Map() },
    plans: new Map(rows.plans.map((row) => [row.key, row.steps])),
    timers: rows.timers.map((row) => row.body),
    ledger: new Map(
      (t.ledger as [string, string, string][]).map(([currency, available, pending]) => [
        currency,
        { available: BigInt(available), pending: BigInt(pending) },
      ]),
    ),
    idempotency: new Map(
      rows.idempotency.map((row) => [
        `${row.scope}${SEPARATOR}${row.key}`,
        {
          fingerprint: row.fingerprint,
          expires: row.expires_at,
          answer: row.answer === null ? undefined : deepFreeze(row.answer),
          ...(row.held_until === null ? {} : { heldUntil: row.held_until }),
        },
      ]),
    ),
    endpoints: t.endpoints,
    events: rows.events.map((row) => row.change),
    eventsDropped: Number(t.events_dropped),
    eventLogLimit: t.event_log_limit,
    deliveries: new Map(rows.deliveries.map((row) => [row.id, row.body])),
    due: t.due,
    retryCompression: t.retry_compression,
  } as TenantState;
  if (t.secret_key_digest !== null) state.secretKeyDigest = t.secret_key_digest as string;
  for (const row of rows.objects) {
    const collection = state[KINDS.find(([kind]) => kind === row.kind)![1]] as {
      byId: Map<string, unknown>;
      requests: Map<string, unknown>;
    };
    collection.byId.set(row.id, deepFreeze(row.record));
    collection.requests.set(row.id, deepFreeze(row.request));
  }
  const positions = new Map<string, Map<string, number>>([
    ...KINDS.map(
      ([kind]) =>
        [
          kind,
          new Map(rows.objects.filter((row) => row.kind === kind).map((row) => [row.id, Number(row.position)])),
        ] as const,
    ),
    ['plans', new Map(rows.plans.map((row) => [row.key, Number(row.position)]))],
    [
      'idempotency',
      new Map(rows.idempotency.map((row) => [`${row.scope}${SEPARATOR}${row.key}`, Number(row.position)])),
    ],
    ['deliveries', new Map(rows.deliveries.map((row) => [row.id, Number(row.position)]))],
  ]);
  const parts = new Map<string, PartBase>();
  for (const part of PARTS) {
    const stored = positions.get(part.name);
    const entries = new Map<string, { position: number; signature: unknown[] }>();
    let top = -1;
    for (const [key, value] of part.entries(state)) {
      const position = stored?.get(key) ?? -1;
      top = Math.max(top, position);
      entries.set(key, { position, signature: part.signature(value) });
    }
    parts.set(part.name, { entries, top });
  }
  return { state, baseline: { row: tenantRow(state), parts } };
}

/** The baseline of a tenant none of whose rows but its tenant row are stored yet. */
export function emptyBaseline(row: unknown[]): Baseline {
  return { row, parts: new Map(PARTS.map((part) => [part.name, { entries: new Map(), top: -1 }])) };
}

const same = (a: unknown[], b: unknown[]) =>
  a.length === b.length && a.every((value, index) => Object.is(value, b[index]));

/**
 * The statements that store what changed since `baseline` (without the tenant row's own update, which the caller
 * makes with the new version), and the baseline after them.
 */
export function changes(
  tenant: string,
  state: TenantState,
  baseline: Baseline,
): { statements: Statement[]; row: unknown[]; rowChanged: boolean; next: Baseline } {
  const statements: Statement[] = [];
  const parts = new Map<string, PartBase>();
  for (const part of PARTS) {
    const before = baseline.parts.get(part.name)!;
    const entries = new Map<string, { position: number; signature: unknown[] }>();
    const written: { key: string; value: unknown; position: number }[] = [];
    let top = before.top;
    let last = -1;
    for (const [key, value] of part.entries(state)) {
      const signature = part.signature(value);
      const old = before.entries.get(key);
      // Note: a position is kept while the Map's order still agrees with the stored positions; an entry moved to the
      // end (a completed idempotency key) or placed after newer ones is given a new, highest position.
      const inOrder = old !== undefined && (!part.ordered || old.position > last);
      const position = inOrder ? old.position : (top += 1);
      if (part.ordered) last = position;
      entries.set(key, { position, signature });
      if (!inOrder || !same(old.signature, signature)) written.push({ key, value, position });
    }
    const removed = [...before.entries.keys()].filter((key) => !entries.has(key));
    if (removed.length > 0) statements.push(part.remove(tenant, removed));
    if (written.length > 0) statements.push(part.upsert(tenant, written, state));
    parts.set(part.name, { entries, top });
  }
  const row = tenantRow(state);
  return { statements, row, rowChanged: statements.length > 0 || !same(row, baseline.row), next: { row, parts } };
}
