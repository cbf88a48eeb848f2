// Tenants as rows of sandbox_tenants: a new tenant's row made on its first command (a registry's tenant only while it is
// live; within open mode's bound, kept by a count row), the idle ones forgotten in batches that skip the rows a
// transaction holds, a reset, and the count `/metrics` reads.
import type { TenantHead } from '../../core/tenant.js';
import { secondsUntilForgotten, TenantLimitError } from '../tenant-limit-error.js';
import { isRegistryTenant, TenantRevokedError } from '../tenant-revoked-error.js';
import type { TenantBound } from '../types.js';
import { HEAD_COLUMNS, HEAD_TYPES, headValues } from './head.js';
import type { PostgresClient, PostgresPool } from './pool.js';

// Note: a registry's tenant gets a row only while it is live, and its registry row is held FOR SHARE until the new row
// commits, so that a revoke (which updates that row, then deletes the tenant's rows in later statements) either waits
// for the new row and deletes it, or is seen here; any other tenant (open mode's `a_…`, `b_…`) is live.
const LIVE_REGISTRY = `SELECT 1 FROM sandbox_issued_tenants r
  WHERE r.id = $1 AND r.revoked_at IS NULL AND (r.expires_at IS NULL OR r.expires_at > $2)
    AND NOT EXISTS (SELECT 1 FROM sandbox_issued_tenants p WHERE p.id = r.parent_id AND p.revoked_at IS NOT NULL)
  FOR SHARE OF r`;
// Note: the count row is raised by the statement that makes the row, and its lock taken last (after the registry's row
// and the new row), as every statement that deletes rows takes it last, so that no two of them wait for each other.
// The row's constraint keeps the count within the bound ($3, NULL for none) that the raise writes, so a row made past
// it fails the statement, which makes nothing; a statement that lowers the count clears the bound, so that a bound an
// operator lowered never blocks a delete. One statement, so that the lock is held for no round trip to the instance.
// Note: and its commit does not wait for the disk (set_config's local setting lasts for the statement's own
// transaction): losing it in a crash loses the new, empty row and its count together, and every write that relies on
// the row (the command's own, with synchronous commit) flushes the log up to it first.
const admitText = (live: string) => `WITH quick AS (SELECT set_config('synchronous_commit', 'off', true)),
  live AS (${live}),
  made AS (INSERT INTO sandbox_tenants (id, version, last_used_at, ${HEAD_COLUMNS.join(', ')})
    SELECT $1, nextval('sandbox_versions'), $2, ${HEAD_COLUMNS.map((column, index) => `$${index + 4}::${HEAD_TYPES[column]}`).join(', ')}
    WHERE EXISTS (SELECT 1 FROM live)
    ON CONFLICT (id) DO NOTHING RETURNING 1),
  counted AS (UPDATE sandbox_tenant_count SET n = n + 1, bound = $3::bigint WHERE EXISTS (SELECT 1 FROM made) RETURNING 1)
  SELECT (SELECT count(*) FROM quick)::int AS quick, (SELECT count(*) FROM live)::int AS live,
    (SELECT count(*) FROM made)::int AS made, (SELECT count(*) FROM counted)::int AS counted`;
/** The constraint a row made past the bound breaks. */
const BOUND_CONSTRAINT = 'sandbox_tenant_count_bound';
const ADMIT = admitText('SELECT 1');
const ADMIT_REGISTERED = admitText(LIVE_REGISTRY);
const OLDEST = 'SELECT min(last_used_at) AS oldest FROM sandbox_tenants';
const COUNT = 'SELECT n::int AS n FROM sandbox_tenant_count';
/** Lowers the count by the rows a statement deleted (`gone`), never below 0. */
const uncount = (gone: string) =>
  `UPDATE sandbox_tenant_count SET n = greatest(n - (SELECT count(*) FROM ${gone}), 0), bound = NULL WHERE EXISTS (SELECT 1 FROM ${gone})`;
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
  ), ${TABLES.map((table, index) => `t${index} AS (DELETE FROM ${table} WHERE tenant_id IN (SELECT id FROM gone))`).join(',\n  ')},
  counted AS (${uncount('gone')})
  SELECT id FROM gone`;
// Note: a reset deletes the tenant rows first and the rest in later statements of its transaction: a write that
// committed while the first waited for its row is then seen (a statement sees only what committed before it began),
// and a new row for the same id waits for the commit. The count row's lock comes last, for a moment.
const RESET_HEADS = 'DELETE FROM sandbox_tenants WHERE id = ANY($1) RETURNING id';
const RESET_ROWS = `WITH ${TABLES.map((table, index) => `t${index} AS (DELETE FROM ${table} WHERE tenant_id = ANY($1))`).join(',\n  ')}
  SELECT 1`;
const RESET_COUNT =
  'UPDATE sandbox_tenant_count SET n = greatest(n - $1::bigint, 0), bound = NULL WHERE $1::bigint > 0';

/** Deletes every row of the tenants `ids` and lowers the count, inside the caller's transaction on `client`. */
export async function deleteTenantRows(client: { query: PostgresClient['query'] }, ids: readonly string[]) {
  if (ids.length === 0) return;
  const heads = await client.query(RESET_HEADS, [ids]);
  await client.query(RESET_ROWS, [ids]);
  await client.query(RESET_COUNT, [heads.rows.length]);
}
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
  // Note: a refusal is remembered for a moment, so that a flood of new credentials at the bound costs each one look-up
  // of its row rather than a statement and a sweep; a reset or sweep here, or the oldest tenant's time, ends it.
  let full: { at: number; oldest: number | undefined } | undefined;
  const roomMade = () => {
    full = undefined;
  };
  const refusal = (oldest: number | undefined) =>
    new TenantLimitError(
      bound!.max,
      bound!.idleMs / 1000,
      secondsUntilForgotten(oldest, bound!.idleMs + precisionMs, wallNow(), bound!.idleMs / 1000),
    );

  /** Makes the row and counts it, in one statement; false when the bound holds no room (nothing made). */
  const admitCounted = async (tenant: string): Promise<boolean> => {
    const text = isRegistryTenant(tenant) ? ADMIT_REGISTERED : ADMIT;
    const values = [tenant, wallNow(), bound?.max ?? null, ...headValues(settings.newTenant(tenant), undefined)];
    // Note: on a connection of its own, since the pool's query closes a connection whose statement failed, and a
    // refusal here is an ordinary answer that leaves the connection as good as before.
    const client = await db.connect();
    let row: { live: number };
    try {
      row = (await client.query(text, values)).rows[0] as { live: number };
      client.release();
    } catch (error) {
      const full = (error as { constraint?: string }).constraint === BOUND_CONSTRAINT;
      client.release(full ? undefined : (error as Error));
      if (full) return false;
      throw error;
    }
    if (row.live === 0) throw new TenantRevokedError(tenant);
    return true;
  };

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

  const oldest = async () => {
    const found = (await db.query(OLDEST)).rows[0]!.oldest as number | null;
    return found ?? undefined;
  };

  return {
    precisionMs,
    async admit(tenant) {
      if (bound && full && performance.now() - full.at < FULL_MEMO_MS) {
        if (full.oldest === undefined || wallNow() < full.oldest + bound.idleMs + precisionMs)
          throw refusal(full.oldest);
      }
      if (await admitCounted(tenant)) return;
      // Note: in a statement of its own, so that the count row's lock is not held while idle tenants are deleted.
      await evictIdle();
      if (await admitCounted(tenant)) return;
      full = { at: performance.now(), oldest: await oldest() };
      throw refusal(full.oldest);
    },
    evictIdle,
    async reset(tenant) {
      roomMade();
      await inTransaction(db, (client) => deleteTenantRows(client, [tenant]));
    },
    async tenantCount() {
      return (await db.query(COUNT)).rows[0]!.n as number;
    },
  };
}
