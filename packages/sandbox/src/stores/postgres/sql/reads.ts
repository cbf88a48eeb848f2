// What a command may read of a tenant, as descriptors, and the one statement that reads the head and any of them: a
// scalar subquery each, every answer as json, so that a command's reads cost one round trip. Reads take no lock.
import type { TenantReads } from '../../../core/tenant.js';
import type { Timer } from '../../../core/timers.js';
import type { Delivery, ObjectKind } from '../../../core/types.js';
import type { Step } from '@merchant-payments/contract/internal/sandbox-model/outcomes.js';
import { HEAD_COLUMNS } from '../head.js';

/** One thing a command reads, by key or through an index. */
export type Read =
  | { read: 'object'; kind: ObjectKind; id: string }
  | { read: 'request'; kind: ObjectKind; id: string }
  | { read: 'page'; kind: ObjectKind; status: string | null; limit: number; offset: number }
  | { read: 'plan'; key: string }
  /** Every timer due at `until` (with the object, plan or delivery each names) and the first one after. */
  | { read: 'timers'; until: number }
  | { read: 'attemptTimers'; deliveries: string[] }
  | { read: 'key'; scope: string; key: string }
  | { read: 'event'; position: number }
  | { read: 'events'; objectId: string | null; limit: number; offset: number }
  | { read: 'delivery'; id: string }
  | { read: 'deliveriesBefore'; eventIndex: number }
  | { read: 'deliveries'; eventId: string | null; state: string | null; limit: number; offset: number };

/** A read's key in a cache of what was read. */
export const readKey = (read: Read) => JSON.stringify(read);

/** What the timers read answers: the timers due, oldest first, and the first one after, if any. */
export interface DueTimers {
  until: number;
  due: Timer[];
  after: Timer | null;
}

/** A row read with its position (deliveries keep theirs when written again). */
export interface Positioned<T> {
  position: number;
  value: T;
}

type Param = (value: unknown, type: string) => string;

/** The reads that page through an index, whose plans depend on the tenant's size. */
const LISTS = new Set<Read['read']>(['page', 'events', 'deliveries', 'deliveriesBefore', 'attemptTimers']);

const TIMER_ROWS = `SELECT t.due_at, t.seq, t.body, o.record, p.steps, d.position AS delivery_position, d.body AS delivery
  FROM sandbox_timers t
  LEFT JOIN sandbox_objects o ON o.tenant_id = t.tenant_id AND o.kind = t.body->>'kind' AND o.id = t.body->>'id'
  LEFT JOIN sandbox_plans p ON p.tenant_id = t.tenant_id AND p.key = (t.body->>'kind') || ':' || (t.body->>'id')
  LEFT JOIN sandbox_deliveries d ON d.tenant_id = t.tenant_id AND d.id = t.body->>'delivery'
  WHERE t.tenant_id = $1`;

/** The subquery of one read, returning json; $1 is the tenant. */
function subquery(read: Read, param: Param): string {
  switch (read.read) {
    case 'object':
      return `SELECT record FROM sandbox_objects WHERE tenant_id = $1 AND kind = ${param(read.kind, 'text')} AND id = ${param(read.id, 'text')}`;
    case 'request':
      return `SELECT request FROM sandbox_objects WHERE tenant_id = $1 AND kind = ${param(read.kind, 'text')} AND id = ${param(read.id, 'text')}`;
    case 'page': {
      const kind = param(read.kind, 'text');
      const limit = param(read.limit, 'bigint');
      const offset = param(read.offset, 'bigint');
      // Note: every object has its ordinal, so the newest page at any offset is a seek from the newest ordinal.
      if (read.status === null)
        return `SELECT coalesce(json_agg(record ORDER BY ordinal DESC), '[]') FROM (
          SELECT record, ordinal FROM sandbox_objects WHERE tenant_id = $1 AND kind = ${kind}
          AND ordinal <= (SELECT ordinal FROM sandbox_objects WHERE tenant_id = $1 AND kind = ${kind}
            ORDER BY ordinal DESC LIMIT 1) - ${offset}
          ORDER BY ordinal DESC LIMIT ${limit}) p`;
      const status = `kind = ${kind} AND status = ${param(read.status, 'text')}`;
      return `SELECT coalesce(json_agg(record ORDER BY ordinal DESC), '[]') FROM sandbox_objects
        WHERE tenant_id = $1 AND kind = ${kind} AND ordinal = ANY(ARRAY(${walk('sandbox_objects', status, 'ordinal', limit, offset)}))`;
    }
    case 'plan':
      return `SELECT steps FROM sandbox_plans WHERE tenant_id = $1 AND key = ${param(read.key, 'text')}`;
    case 'timers':
      return timersSubquery(param(read.until, 'float8'));
    case 'attemptTimers':
      return `SELECT coalesce(json_agg(body), '[]') FROM sandbox_timers WHERE tenant_id = $1
        AND body->>'type' = 'attempt' AND body->>'delivery' = ANY(${param(read.deliveries, 'text[]')})`;
    case 'key':
      return `SELECT json_build_object('fingerprint', fingerprint, 'expires', expires_at, 'answer', answer, 'heldUntil', held_until)
        FROM sandbox_idempotency WHERE tenant_id = $1 AND scope = ${param(read.scope, 'text')} AND key = ${param(read.key, 'text')}`;
    case 'event':
      return `SELECT change FROM sandbox_events WHERE tenant_id = $1 AND position = ${param(read.position, 'bigint')}`;
    case 'events': {
      const limit = param(read.limit, 'bigint');
      const offset = param(read.offset, 'bigint');
      // Note: the log's positions are dense up to the tenant's events_made, so its newest page is a seek; the view takes
      // the whole log's total from the head.
      if (read.objectId === null)
        return `SELECT json_build_object('items', (SELECT coalesce(json_agg(change ORDER BY position DESC), '[]') FROM (
          SELECT change, position FROM sandbox_events WHERE tenant_id = $1
          AND position < (SELECT events_made FROM sandbox_tenants WHERE id = $1) - ${offset}
          ORDER BY position DESC LIMIT ${limit}) e))`;
      const filter = `object_id = ${param(read.objectId, 'text')}`;
      return `SELECT json_build_object(
        'items', (SELECT coalesce(json_agg(change ORDER BY position DESC), '[]') FROM sandbox_events
          WHERE tenant_id = $1 AND position = ANY(ARRAY(${walk('sandbox_events', filter, 'position', limit, offset)}))),
        'total', (SELECT count(*) FROM sandbox_events WHERE tenant_id = $1 AND ${filter}))`;
    }
    case 'delivery':
      return `SELECT json_build_object('position', position, 'value', body) FROM sandbox_deliveries WHERE tenant_id = $1 AND id = ${param(read.id, 'text')}`;
    case 'deliveriesBefore':
      return `SELECT coalesce(json_agg(json_build_object('position', position, 'value', body) ORDER BY position), '[]')
        FROM sandbox_deliveries WHERE tenant_id = $1 AND event_index < ${param(read.eventIndex, 'bigint')}`;
    case 'deliveries': {
      const filter = [
        'true',
        read.eventId === null ? '' : `AND event_id = ${param(read.eventId, 'text')}`,
        read.state === null ? '' : `AND state = ${param(read.state, 'text')}`,
      ].join(' ');
      const page = walk(
        'sandbox_deliveries',
        filter,
        'position',
        param(read.limit, 'bigint'),
        param(read.offset, 'bigint'),
      );
      return `SELECT json_build_object(
        'items', (SELECT coalesce(json_agg(body ORDER BY position DESC), '[]') FROM sandbox_deliveries
          WHERE tenant_id = $1 AND position = ANY(ARRAY(${page}))),
        'total', (SELECT count(*) FROM sandbox_deliveries WHERE tenant_id = $1 AND ${filter}))`;
    }
  }
}

/**
 * The `order` values (unique among the tenant's rows of `table`: an object's ordinal, an event's place in the log, a
 * delivery's position, the tenant's id count once its id was drawn) of a newest-first page of the rows that match
 * `filter`, as an array, so that only the page's rows are fetched, by key, whatever the planner makes of a small
 * tenant. The walk to the offset reads only the index where the filter's index ends in `order`.
 */
function walk(table: string, filter: string, order: string, limit: string, offset: string): string {
  return `SELECT ${order} FROM ${table} WHERE tenant_id = $1 AND ${filter} ORDER BY ${order} DESC LIMIT ${limit} OFFSET ${offset}`;
}

// Note: the objects, plans and deliveries the due timers name come with them, so that running them reads nothing more.
function timersSubquery(until: string): string {
  return `SELECT json_build_object(
    'until', ${until},
    'due', (SELECT coalesce(json_agg(json_build_array(body, record, steps, delivery_position, delivery) ORDER BY due_at, seq), '[]')
      FROM (${TIMER_ROWS} AND t.due_at <= ${until}) due),
    'after', (SELECT body FROM sandbox_timers WHERE tenant_id = $1 AND due_at > ${until} ORDER BY due_at, seq LIMIT 1))`;
}

/**
 * The statement that reads the tenant's head (with its counts, and the timers due at its clock's now, computed from
 * the row and `wallNow`) and `reads`: columns `head` (null when the tenant has no row) and `r0`, `r1`, ….
 */
export function readStatement(tenant: string, wallNow: number, reads: readonly Read[], withHead: boolean) {
  const values: unknown[] = [tenant];
  const param: Param = (value, type) => {
    values.push(value);
    return `$${values.length}::${type}`;
  };
  const columns = reads.map((read, index) => `(${subquery(read, param)}) AS r${index}`);
  if (withHead) {
    const now = `(SELECT CASE WHEN clock_mode = 'manual' THEN clock_manual ELSE ${param(wallNow, 'float8')} + clock_offset END FROM sandbox_tenants WHERE id = $1)`;
    columns.unshift(
      `(SELECT row_to_json(h)::text FROM (SELECT version, last_used_at, ${HEAD_COLUMNS.join(', ')},
        (SELECT coalesce(json_agg(json_build_array(kind, status, n)), '[]') FROM sandbox_counts WHERE tenant_id = $1) AS counts
        FROM sandbox_tenants WHERE id = $1) h) AS head`,
      `(SELECT version FROM sandbox_tenants WHERE id = $1) AS version`,
      `(${timersSubquery(now)}) AS due`,
    );
  } else {
    columns.unshift(`(SELECT version FROM sandbox_tenants WHERE id = $1) AS version`);
  }
  const lists = reads.some((read) => LISTS.has(read.read));
  return { text: `SELECT ${columns.join(',\n  ')}`, values, lists };
}

/** A timers answer as read: the due timers and what they name, which also answer the object, plan and delivery reads. */
export interface TimerRows {
  until: number;
  due: [Timer, unknown, Step[] | null, number | null, Delivery | null][];
  after: Timer | null;
}

/** The core's `operation\u0000key` scope as the idempotency table's two columns (text cannot hold the NUL). */
export function splitScope(scope: string): { scope: string; key: string } {
  const at = scope.indexOf('\u0000');
  return { scope: scope.slice(0, at), key: scope.slice(at + 1) };
}

/** The reads of what a command names (core/commands.ts: namedBy). */
export function readsOf(named: TenantReads | undefined): Read[] {
  if (!named) return [];
  return [
    ...(named.objects ?? []).map(({ kind, id }): Read => ({ read: 'object', kind, id })),
    ...(named.keys ?? []).map((scope): Read => ({ read: 'key', ...splitScope(scope) })),
    ...(named.pages ?? []).map(({ kind, status, limit, offset }): Read => ({
      read: 'page',
      kind,
      status: status ?? null,
      limit,
      offset,
    })),
  ];
}
