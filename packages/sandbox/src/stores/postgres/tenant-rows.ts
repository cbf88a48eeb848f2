// Tenants as rows of sandbox_tenants: a new tenant's row made on its first command (within open mode's bound, counted
// under a lock every instance takes), the idle ones forgotten in batches that skip the rows a transaction holds, a
// reset, and the count `/metrics` reads.
import type { TenantHead } from '../../core/tenant.js';
import { secondsUntilForgotten, TenantLimitError } from '../tenant-limit-error.js';
import type { TenantBound } from '../types.js';
import { HEAD_COLUMNS, HEAD_TYPES, headValues } from './head.js';
import type { PostgresClient, PostgresPool } from './pool.js';

const INSERT = `INSERT INTO sandbox_tenants (id, version, last_used_at, ${HEAD_COLUMNS.join(', ')})
  VALUES ($1, nextval('sandbox_versions'), $2, ${HEAD_COLUMNS.map((column, index) => `$${index + 3}::${HEAD_TYPES[column]}`).join(', ')})
  ON CONFLICT (id) DO NOTHING`;
// Note: every instance takes this lock before it counts and makes a new tenant, and holds it until that commits, so
// that no two count the same tenants as room for one more; a command on a tenant that exists never takes it.
const COUNT_LOCK = '7241865325823966';
const COUNT = 'SELECT count(*)::int AS n, min(last_used_at) AS oldest FROM sandbox_tenants';
/** Every table that holds a tenant's rows besides sandbox_tenants. */
const TABLES = [
  'sandbox_objects',
  'sandbox_counts',
  'sandbox_plans',
  'sandbox_timers',
  'sandbox_idempotency',
  'sandbox_events',
  'sandbox_deliveries',
];
/** How many idle tenants one statement forgets, so that a sweep's transactions stay short. */
const EVICT_BATCH = 500;
// Note: rows a transaction holds (a tick claiming due work) are skipped: a tenant in use is not idle.
const EVICT = `WITH gone AS (
    DELETE FROM sandbox_tenants WHERE id IN (
      SELECT id FROM sandbox_tenants WHERE last_used_at <= $1 ORDER BY last_used_at LIMIT $2 FOR UPDATE SKIP LOCKED)
    RETURNING id
  ), ${TABLES.map((table, index) => `t${index} AS (DELETE FROM ${table} WHERE tenant_id IN (SELECT id FROM gone))`).join(',\n  ')}
  SELECT id FROM gone`;
const RESET = `WITH gone AS (DELETE FROM sandbox_tenants WHERE id = $1),
  ${TABLES.map((table, index) => `t${index} AS (DELETE FROM ${table} WHERE tenant_id = $1)`).join(',\n  ')}
  SELECT 1`;
/** How long the tenants' count `/metrics` reads is kept, in ms. */
const COUNT_TTL_MS = 5_000;
/** How long this instance remembers that the bound was reached, in ms (never past the oldest tenant's time to go). */
const FULL_MEMO_MS = 1_000;
/** How far behind a tenant's last_used_at may be before a command writes it, at most. */
export const USE_PRECISION_MS = 60_000;

/** Runs `run` in a transaction on a connection of its own, rolled back if it throws. */
export async function inTransaction<T>(db: PostgresPool, run: (client: PostgresClient) => Promise<T>): Promise<T> {
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    const result = await run(client);
    await client.query('COMMIT');
    client.release();
    return result;
  } catch (error) {
    // Note: a connection whose ROLLBACK failed is broken; releasing it with the error makes the pool close it.
    const broken = await client.query('ROLLBACK').then(
      () => undefined,
      (rollback: Error) => rollback,
    );
    client.release(broken ?? false);
    throw error;
  }
}

/** What the tenant rows need: the pool, how a tenant starts, open mode's bound and the wall clock. */
export interface TenantRowsSettings {
  db: PostgresPool;
  newTenant(id: string): TenantHead;
  bound: TenantBound | undefined;
  wallNow(): number;
  onEvicted?(ids: string[]): void;
}

/** A tenant's row: made, forgotten, counted. */
export interface TenantRows {
  /** How far behind a tenant's last use may be written (0 without a bound, where no use is written). */
  precisionMs: number;
  /** Makes the tenant's row if it has none; rejects with TenantLimitError past open mode's bound. */
  admit(tenant: string): Promise<void>;
  evictIdle(): Promise<number>;
  reset(tenant: string): Promise<void>;
  tenantCount(): Promise<number>;
}

/** The tenant rows of a store. */
export function createTenantRows(settings: TenantRowsSettings): TenantRows {
  const { db, bound, wallNow } = settings;
  // Note: a tenant's last use is written when it is older than this, so a tenant is forgotten between its idle time
  // and that much later, never before: a tenant in use is never forgotten for a write that was skipped.
  const precisionMs = bound ? Math.min(USE_PRECISION_MS, bound.idleMs / 10) : 0;
  let counted: { n: number; at: number } | undefined;
  // Note: a refusal is remembered for a moment, so that a flood of new credentials at the bound costs each one look-up
  // of its row rather than the lock, a count and a sweep; a reset or sweep here, or the oldest tenant's time, ends it.
  let full: { at: number; oldest: number | undefined } | undefined;
  const roomMade = () => {
    counted = undefined;
    full = undefined;
  };
  const refusal = (oldest: number | undefined) =>
    new TenantLimitError(
      bound!.max,
      bound!.idleMs / 1000,
      secondsUntilForgotten(oldest, bound!.idleMs + precisionMs, wallNow(), bound!.idleMs / 1000),
    );
  const insert = (client: { query: PostgresClient['query'] }, tenant: string) =>
    client.query(INSERT, [tenant, wallNow(), ...headValues(settings.newTenant(tenant), undefined)]);

  /** Makes the row under the count's lock; the oldest last use when the bound holds no room. */
  const admitCounted = (tenant: string) =>
    inTransaction(db, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [COUNT_LOCK]);
      // Note: another instance may have made the tenant while this one waited for the lock; a tenant that exists is never refused.
      const exists = await client.query('SELECT 1 FROM sandbox_tenants WHERE id = $1', [tenant]);
      if (exists.rows.length > 0) return { admitted: true as const };
      const held = (await client.query(COUNT)).rows[0]!;
      if ((held.n as number) >= bound!.max)
        return { admitted: false as const, oldest: held.oldest === null ? undefined : (held.oldest as number) };
      await insert(client, tenant);
      return { admitted: true as const };
    });

  async function evictIdle(): Promise<number> {
    if (!bound) return 0;
    const cutoff = wallNow() - bound.idleMs - precisionMs;
    let total = 0;
    for (let batch = EVICT_BATCH; batch === EVICT_BATCH;) {
      const { rows } = await db.query(EVICT, [cutoff, EVICT_BATCH]);
      const ids = rows.map((row) => row.id as string);
      if (ids.length > 0) {
        roomMade();
        settings.onEvicted?.(ids);
      }
      total += ids.length;
      batch = ids.length;
    }
    return total;
  }

  return {
    precisionMs,
    async admit(tenant) {
      if (!bound) {
        await insert(db, tenant);
        return;
      }
      if (full && performance.now() - full.at < FULL_MEMO_MS) {
        if (full.oldest === undefined || wallNow() < full.oldest + bound.idleMs + precisionMs)
          throw refusal(full.oldest);
      }
      let made = await admitCounted(tenant);
      if (!made.admitted) {
        // Note: in a statement of its own, so that the count's lock is not held while idle tenants are deleted.
        await evictIdle();
        made = await admitCounted(tenant);
      }
      if (!made.admitted) {
        full = { at: performance.now(), oldest: made.oldest };
        throw refusal(made.oldest);
      }
      roomMade();
    },
    evictIdle,
    async reset(tenant) {
      roomMade();
      await db.query(RESET, [tenant]);
    },
    async tenantCount() {
      // Note: a count scans the table, so a scrape reads one at most COUNT_TTL_MS old (this instance's own changes drop it).
      const at = performance.now();
      if (counted && at - counted.at < COUNT_TTL_MS) return counted.n;
      const n = (await db.query('SELECT count(*)::int AS n FROM sandbox_tenants')).rows[0]!.n as number;
      counted = { n, at };
      return n;
    },
  };
}
