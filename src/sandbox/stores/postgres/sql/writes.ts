// The one statement that writes what a command changed: the tenant row, updated only if its version is still the one
// the command read (so no lock is held while the command runs, and a command that raced another one writes nothing
// and runs again), and every row change as a data-modifying CTE that runs only when the tenant row was written. It
// commits on its own: one round trip and one commit a command.
import type { Timer } from '../../../core/timers.js';
import { HEAD_COLUMNS, HEAD_TYPES } from '../head.js';
import { splitScope as scoped } from './reads.js';
import type { Writes } from '../view.js';

const json = (value: unknown) => JSON.stringify(value);
const GUARD = 'WHERE EXISTS (SELECT 1 FROM head)';

/**
 * The statement writing `writes` and the head `values` (HEAD_COLUMNS) if the row is at `version`, and the last use when
 * `use` is set (`changed` false: nothing else changed); its one column `version` is the new version, no row when the
 * row was not at `version`.
 */
export function writeStatement(
  tenant: string,
  version: string,
  head: unknown[],
  use: number | null,
  writes: Writes,
  changed = true,
): { text: string; values: unknown[] } {
  const values: unknown[] = [tenant];
  const param = (value: unknown, type: string) => {
    values.push(value);
    return `$${values.length}::${type}`;
  };
  const sets = HEAD_COLUMNS.map((column, index) => `${column} = ${param(head[index], HEAD_TYPES[column])}`);
  const ctes = [
    // Note: a write of the last use alone keeps the version, so that it makes no other command run again.
    `head AS (UPDATE sandbox_tenants SET version = ${changed ? "nextval('sandbox_versions')" : 'version'}, ${sets.join(', ')},
      last_used_at = coalesce(${param(use, 'float8')}, last_used_at)
      WHERE id = $1 AND version = ${param(version, 'bigint')} RETURNING version)`,
  ];
  const cte = (name: string, text: string) => ctes.push(`${name} AS (${text})`);

  const objects = [...writes.objects.values()];
  const made = objects.filter((o) => o.request !== undefined && o.position !== undefined);
  const replaced = objects.filter((o) => !made.includes(o));
  if (made.length > 0)
    cte(
      'objects_made',
      `INSERT INTO sandbox_objects (tenant_id, kind, id, position, status, record, request)
      SELECT $1, kind, id, position, status, record::json, request::json
      FROM unnest(${param(
        made.map((o) => o.kind),
        'text[]',
      )}, ${param(
        made.map((o) => o.record.id),
        'text[]',
      )},
        ${param(
          made.map((o) => o.position),
          'bigint[]',
        )}, ${param(
          made.map((o) => o.record.status),
          'text[]',
        )},
        ${param(
          made.map((o) => json(o.record)),
          'text[]',
        )}, ${param(
          made.map((o) => json(o.request)),
          'text[]',
        )})
        AS r(kind, id, position, status, record, request) ${GUARD}`,
    );
  if (replaced.length > 0)
    cte(
      'objects_changed',
      `UPDATE sandbox_objects o SET status = r.status, record = r.record::json
      FROM unnest(${param(
        replaced.map((o) => o.kind),
        'text[]',
      )}, ${param(
        replaced.map((o) => o.record.id),
        'text[]',
      )},
        ${param(
          replaced.map((o) => o.record.status),
          'text[]',
        )}, ${param(
          replaced.map((o) => json(o.record)),
          'text[]',
        )})
        AS r(kind, id, status, record)
      WHERE o.tenant_id = $1 AND o.kind = r.kind AND o.id = r.id AND EXISTS (SELECT 1 FROM head)`,
    );
  const counts = [...writes.counts]
    .filter(([, delta]) => delta !== 0)
    .map(([key, delta]) => [...key.split('\u0000'), delta]);
  if (counts.length > 0)
    cte(
      'counts',
      `INSERT INTO sandbox_counts (tenant_id, kind, status, n)
      SELECT $1, kind, status, n FROM unnest(${param(
        counts.map((c) => c[0]),
        'text[]',
      )},
        ${param(
          counts.map((c) => c[1]),
          'text[]',
        )}, ${param(
          counts.map((c) => c[2]),
          'bigint[]',
        )}) AS r(kind, status, n) ${GUARD}
      ON CONFLICT (tenant_id, kind, status) DO UPDATE SET n = sandbox_counts.n + excluded.n`,
    );

  const [plansSet, plansGone] = split(writes.plans);
  if (plansSet.length > 0)
    cte(
      'plans_set',
      `INSERT INTO sandbox_plans (tenant_id, key, position, steps)
      SELECT $1, key, 0, steps::json FROM unnest(${param(
        plansSet.map(([key]) => key),
        'text[]',
      )},
        ${param(
          plansSet.map(([, steps]) => json(steps)),
          'text[]',
        )}) AS r(key, steps) ${GUARD}
      ON CONFLICT (tenant_id, key) DO UPDATE SET steps = excluded.steps`,
    );
  if (plansGone.length > 0)
    cte(
      'plans_gone',
      `DELETE FROM sandbox_plans WHERE tenant_id = $1 AND key = ANY(${param(plansGone, 'text[]')}) AND EXISTS (SELECT 1 FROM head)`,
    );

  const timers: Timer[] = [...writes.timersAdded.values()];
  if (timers.length > 0)
    cte(
      'timers_added',
      `INSERT INTO sandbox_timers (tenant_id, seq, due_at, body)
      SELECT $1, seq, due_at, body::json FROM unnest(${param(
        timers.map((t) => t.seq),
        'bigint[]',
      )},
        ${param(
          timers.map((t) => t.at),
          'float8[]',
        )}, ${param(
          timers.map((t) => json(t)),
          'text[]',
        )}) AS r(seq, due_at, body) ${GUARD}`,
    );
  if (writes.timersRemoved.size > 0)
    cte(
      'timers_removed',
      `DELETE FROM sandbox_timers WHERE tenant_id = $1 AND seq = ANY(${param([...writes.timersRemoved], 'bigint[]')}) AND EXISTS (SELECT 1 FROM head)`,
    );

  const [keysSet, keysGone] = split(writes.keys);
  if (keysSet.length > 0) {
    const records = keysSet.map(([scope, record]) => ({ ...scoped(scope), record: record }));
    cte(
      'keys_set',
      `INSERT INTO sandbox_idempotency (tenant_id, scope, key, position, fingerprint, expires_at, answer, held_until)
      SELECT $1, scope, key, 0, fingerprint, expires_at, answer::json, held_until
      FROM unnest(${param(
        records.map((r) => r.scope),
        'text[]',
      )}, ${param(
        records.map((r) => r.key),
        'text[]',
      )},
        ${param(
          records.map((r) => r.record.fingerprint),
          'text[]',
        )}, ${param(
          records.map((r) => r.record.expires),
          'float8[]',
        )},
        ${param(
          records.map((r) => (r.record.answer === undefined ? null : json(r.record.answer))),
          'text[]',
        )},
        ${param(
          records.map((r) => r.record.heldUntil ?? null),
          'float8[]',
        )})
        AS r(scope, key, fingerprint, expires_at, answer, held_until) ${GUARD}
      ON CONFLICT (tenant_id, scope, key) DO UPDATE SET fingerprint = excluded.fingerprint,
        expires_at = excluded.expires_at, answer = excluded.answer, held_until = excluded.held_until`,
    );
  }
  if (keysGone.length > 0) {
    const gone = keysGone.map(scoped);
    cte(
      'keys_gone',
      `DELETE FROM sandbox_idempotency WHERE tenant_id = $1 AND (scope, key) IN (
        SELECT * FROM unnest(${param(
          gone.map((g) => g.scope),
          'text[]',
        )}, ${param(
          gone.map((g) => g.key),
          'text[]',
        )}))
        AND EXISTS (SELECT 1 FROM head)`,
    );
  }

  const events = [...writes.events];
  if (events.length > 0)
    cte(
      'events_added',
      `INSERT INTO sandbox_events (tenant_id, position, object_id, change)
      SELECT $1, position, object_id, change::json FROM unnest(${param(
        events.map(([position]) => position),
        'bigint[]',
      )},
        ${param(
          events.map(([, change]) => change.object_id),
          'text[]',
        )}, ${param(
          events.map(([, change]) => json(change)),
          'text[]',
        )})
        AS r(position, object_id, change) ${GUARD}`,
    );
  if (writes.eventsDropBefore !== undefined)
    cte(
      'events_dropped',
      `DELETE FROM sandbox_events WHERE tenant_id = $1 AND position < ${param(writes.eventsDropBefore, 'bigint')} AND EXISTS (SELECT 1 FROM head)`,
    );

  const [deliveriesSet, deliveriesGone] = split(writes.deliveries);
  const deliveryRows = deliveriesSet.map(([, write]) => write);
  const fresh = deliveryRows.filter((w) => w.position !== undefined);
  const rewritten = deliveryRows.filter((w) => w.position === undefined);
  if (fresh.length > 0)
    cte(
      'deliveries_made',
      `INSERT INTO sandbox_deliveries (tenant_id, id, position, state, event_id, event_index, body)
      SELECT $1, id, position, state, event_id, event_index, body::json
      FROM unnest(${param(
        fresh.map((w) => w.delivery.id),
        'text[]',
      )}, ${param(
        fresh.map((w) => w.position),
        'bigint[]',
      )},
        ${param(
          fresh.map((w) => w.delivery.state),
          'text[]',
        )}, ${param(
          fresh.map((w) => w.delivery.event_id),
          'text[]',
        )},
        ${param(
          fresh.map((w) => w.delivery.event_index),
          'bigint[]',
        )}, ${param(
          fresh.map((w) => json(w.delivery)),
          'text[]',
        )})
        AS r(id, position, state, event_id, event_index, body) ${GUARD}`,
    );
  if (rewritten.length > 0)
    cte(
      'deliveries_changed',
      `UPDATE sandbox_deliveries d SET state = r.state, body = r.body::json
      FROM unnest(${param(
        rewritten.map((w) => w.delivery.id),
        'text[]',
      )}, ${param(
        rewritten.map((w) => w.delivery.state),
        'text[]',
      )},
        ${param(
          rewritten.map((w) => json(w.delivery)),
          'text[]',
        )}) AS r(id, state, body)
      WHERE d.tenant_id = $1 AND d.id = r.id AND EXISTS (SELECT 1 FROM head)`,
    );
  if (deliveriesGone.length > 0)
    cte(
      'deliveries_gone',
      `DELETE FROM sandbox_deliveries WHERE tenant_id = $1 AND id = ANY(${param(deliveriesGone, 'text[]')}) AND EXISTS (SELECT 1 FROM head)`,
    );

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
