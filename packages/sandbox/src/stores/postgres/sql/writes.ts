// The one statement that writes what a command changed: the tenant row, updated only if its version is still the one
// the command read (so no lock is held while the command runs, and a command that raced another one writes nothing
// and runs again), and every row change as a data-modifying CTE that runs only when the tenant row was written. It
// commits on its own: one round trip and one commit a command.
import { HEAD_COLUMNS, HEAD_TYPES } from '../head.js';
import type { Writes } from '../view.js';
import { splitScope } from './reads.js';

const json = (value: unknown) => JSON.stringify(value);
/** Every row change runs only when the tenant row was written at the version read. */
const GUARDED = 'EXISTS (SELECT 1 FROM head)';

/** A column of rows passed as one array parameter: its name, its element type, its values. */
type Column = [name: string, type: string, values: unknown[]];

/**
 * The statement writing `writes` and the head's `columns` (indexes into HEAD_COLUMNS, their values in `head`) if the
 * row is at `version`, and the last use when `use` is set (`changed` false: nothing else changed); its one column
 * `version` is the new version, no row when the row was not at `version`.
 */
export function writeStatement(
  tenant: string,
  version: string,
  head: unknown[],
  columns: readonly number[],
  use: number | null,
  writes: Writes,
  changed = true,
): { text: string; values: unknown[] } {
  const values: unknown[] = [tenant];
  const param = (value: unknown, type: string) => {
    values.push(value);
    return `$${values.length}::${type}`;
  };
  /** Rows as `unnest(…) AS r(…)`, one array parameter a column. */
  const rows = (columns: Column[]) =>
    `unnest(${columns.map(([, type, list]) => param(list, `${type}[]`)).join(', ')}) AS r(${columns.map(([name]) => name).join(', ')})`;
  // Note: only the columns the command changed, so that a create does not rewrite the faults, endpoints and ledger.
  const sets = columns.map((index) => {
    const column = HEAD_COLUMNS[index]!;
    return `, ${column} = ${param(head[index], HEAD_TYPES[column])}`;
  });
  const ctes = [
    // Note: a write of the last use alone keeps the version, so that it makes no other command run again.
    `head AS (UPDATE sandbox_tenants SET version = ${changed ? "nextval('sandbox_versions')" : 'version'}${sets.join('')},
      last_used_at = coalesce(${param(use, 'float8')}, last_used_at)
      WHERE id = $1 AND version = ${param(version, 'bigint')} RETURNING version)`,
  ];
  const cte = (text: string) => ctes.push(`w${ctes.length} AS (${text})`);
  const remove = (table: string, column: string, type: string, keys: unknown[]) => {
    if (keys.length > 0)
      cte(`DELETE FROM ${table} WHERE tenant_id = $1 AND ${column} = ANY(${param(keys, `${type}[]`)}) AND ${GUARDED}`);
  };

  const objects = [...writes.objects.values()];
  const made = objects.filter((o) => o.request !== undefined && o.position !== undefined);
  const replaced = objects.filter((o) => !made.includes(o));
  if (made.length > 0)
    cte(`INSERT INTO sandbox_objects (tenant_id, kind, id, position, ordinal, status, record, request)
      SELECT $1, kind, id, position, ordinal, status, record::json, request::json FROM ${rows([
        ['kind', 'text', made.map((o) => o.kind)],
        ['id', 'text', made.map((o) => o.record.id)],
        ['position', 'bigint', made.map((o) => o.position)],
        ['ordinal', 'bigint', made.map((o) => o.ordinal)],
        ['status', 'text', made.map((o) => o.record.status)],
        ['record', 'text', made.map((o) => json(o.record))],
        ['request', 'text', made.map((o) => json(o.request))],
      ])} WHERE ${GUARDED}`);
  if (replaced.length > 0)
    cte(`UPDATE sandbox_objects o SET status = r.status, record = r.record::json FROM ${rows([
      ['kind', 'text', replaced.map((o) => o.kind)],
      ['id', 'text', replaced.map((o) => o.record.id)],
      ['status', 'text', replaced.map((o) => o.record.status)],
      ['record', 'text', replaced.map((o) => json(o.record))],
    ])}
      WHERE o.tenant_id = $1 AND o.kind = r.kind AND o.id = r.id AND ${GUARDED}`);
  const counts = [...writes.counts].filter(([, delta]) => delta !== 0);
  if (counts.length > 0)
    cte(`INSERT INTO sandbox_counts (tenant_id, kind, status, n) SELECT $1, kind, status, n FROM ${rows([
      ['kind', 'text', counts.map(([key]) => key.split('\u0000')[0])],
      ['status', 'text', counts.map(([key]) => key.split('\u0000')[1])],
      ['n', 'bigint', counts.map(([, delta]) => delta)],
    ])} WHERE ${GUARDED}
      ON CONFLICT (tenant_id, kind, status) DO UPDATE SET n = sandbox_counts.n + excluded.n`);

  const [plansSet, plansGone] = split(writes.plans);
  if (plansSet.length > 0)
    cte(`INSERT INTO sandbox_plans (tenant_id, key, position, steps) SELECT $1, key, 0, steps::json FROM ${rows([
      ['key', 'text', plansSet.map(([key]) => key)],
      ['steps', 'text', plansSet.map(([, steps]) => json(steps))],
    ])} WHERE ${GUARDED}
      ON CONFLICT (tenant_id, key) DO UPDATE SET steps = excluded.steps`);
  remove('sandbox_plans', 'key', 'text', plansGone);

  const timers = [...writes.timersAdded.values()];
  if (timers.length > 0)
    cte(
      `INSERT INTO sandbox_timers (tenant_id, seq, due_at, body) SELECT $1, seq, due_at, body::json FROM ${rows([
        ['seq', 'bigint', timers.map((t) => t.seq)],
        ['due_at', 'float8', timers.map((t) => t.at)],
        ['body', 'text', timers.map((t) => json(t))],
      ])} WHERE ${GUARDED}`,
    );
  remove('sandbox_timers', 'seq', 'bigint', [...writes.timersRemoved]);

  const [keysSet, keysGone] = split(writes.keys);
  if (keysSet.length > 0) {
    const keys = keysSet.map(([scope, record]) => ({ ...splitScope(scope), record }));
    cte(`INSERT INTO sandbox_idempotency (tenant_id, scope, key, position, fingerprint, expires_at, answer, held_until)
      SELECT $1, scope, key, 0, fingerprint, expires_at, answer::json, held_until FROM ${rows([
        ['scope', 'text', keys.map((k) => k.scope)],
        ['key', 'text', keys.map((k) => k.key)],
        ['fingerprint', 'text', keys.map((k) => k.record.fingerprint)],
        ['expires_at', 'float8', keys.map((k) => k.record.expires)],
        ['answer', 'text', keys.map((k) => (k.record.answer === undefined ? null : json(k.record.answer)))],
        ['held_until', 'float8', keys.map((k) => k.record.heldUntil ?? null)],
      ])} WHERE ${GUARDED}
      ON CONFLICT (tenant_id, scope, key) DO UPDATE SET fingerprint = excluded.fingerprint,
        expires_at = excluded.expires_at, answer = excluded.answer, held_until = excluded.held_until`);
  }
  if (keysGone.length > 0) {
    const gone = keysGone.map(splitScope);
    cte(
      `DELETE FROM sandbox_idempotency WHERE tenant_id = $1 AND (scope, key) IN (SELECT * FROM ${rows([
        ['scope', 'text', gone.map((g) => g.scope)],
        ['key', 'text', gone.map((g) => g.key)],
      ])}) AND ${GUARDED}`,
    );
  }

  const events = [...writes.events];
  if (events.length > 0)
    cte(`INSERT INTO sandbox_events (tenant_id, position, object_id, change)
      SELECT $1, position, object_id, change::json FROM ${rows([
        ['position', 'bigint', events.map(([position]) => position)],
        ['object_id', 'text', events.map(([, change]) => change.object_id)],
        ['change', 'text', events.map(([, change]) => json(change))],
      ])} WHERE ${GUARDED}`);
  if (writes.eventsDropBefore !== undefined)
    cte(`DELETE FROM sandbox_events WHERE tenant_id = $1
      AND position < ${param(writes.eventsDropBefore, 'bigint')} AND ${GUARDED}`);

  const [deliveriesSet, deliveriesGone] = split(writes.deliveries);
  const fresh = deliveriesSet.map(([, write]) => write).filter((w) => w.position !== undefined);
  const rewritten = deliveriesSet.map(([, write]) => write).filter((w) => w.position === undefined);
  if (fresh.length > 0)
    cte(`INSERT INTO sandbox_deliveries (tenant_id, id, position, state, event_id, event_index, body)
      SELECT $1, id, position, state, event_id, event_index, body::json FROM ${rows([
        ['id', 'text', fresh.map((w) => w.delivery.id)],
        ['position', 'bigint', fresh.map((w) => w.position)],
        ['state', 'text', fresh.map((w) => w.delivery.state)],
        ['event_id', 'text', fresh.map((w) => w.delivery.event_id)],
        ['event_index', 'bigint', fresh.map((w) => w.delivery.event_index)],
        ['body', 'text', fresh.map((w) => json(w.delivery))],
      ])} WHERE ${GUARDED}`);
  if (rewritten.length > 0)
    cte(`UPDATE sandbox_deliveries d SET state = r.state, body = r.body::json FROM ${rows([
      ['id', 'text', rewritten.map((w) => w.delivery.id)],
      ['state', 'text', rewritten.map((w) => w.delivery.state)],
      ['body', 'text', rewritten.map((w) => json(w.delivery))],
    ])}
      WHERE d.tenant_id = $1 AND d.id = r.id AND ${GUARDED}`);
  remove('sandbox_deliveries', 'id', 'text', deliveriesGone);

  return { text: `WITH ${ctes.join(',\n')}\nSELECT version FROM head`, values };
}

/** The entries set and the keys deleted (null) of a write map. */
function split<V>(map: Map<string, V | null>): [[string, V][], string[]] {
  const set: [string, V][] = [];
  const gone: string[] = [];
  for (const [key, value] of map) {
    if (value === null) gone.push(key);
    else set.push([key, value]);
  }
  return [set, gone];
}
