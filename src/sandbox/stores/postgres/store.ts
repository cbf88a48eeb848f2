// The durable TenantStore: every tenant in PostgreSQL, shared by any number of sandbox instances. A transaction locks
// the tenant's row, runs the command on the state (cached per instance, reloaded when another instance wrote), writes
// what changed and commits before it resolves. With open mode's bound, a new tenant is counted under a lock every
// instance takes, and the idle ones are forgotten by one DELETE that skips the rows a transaction holds.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TenantState } from '../../core/tenant.js';
import { secondsUntilForgotten, TenantLimitError } from '../tenant-limit-error.js';
import type { TenantStore, TenantStoreSettings } from '../types.js';
import type { PostgresClient, PostgresPool } from './pool.js';
import { createPostgresRegistry } from './registry.js';
import {
  LOAD_QUERIES,
  TENANT_COLUMNS,
  changes,
  emptyBaseline,
  fromRows,
  tenantRow,
  type Baseline,
  type TenantRows,
} from './rows.js';

/** Options of createPostgresStore. */
export interface PostgresStoreOptions extends TenantStoreSettings {
  /** A pool to use (the store never ends it); default: one the store makes and ends on close(). */
  pool?: PostgresPool;
  /** The database for the store's own pool; default DATABASE_URL, else the PG* variables (read by `pg`). */
  connectionString?: string;
  /** Whether to run the store's migrations first (default true); false when they are run separately. */
  migrate?: boolean;
}

/** The table node-pg-migrate records the store's migrations in, apart from an application's own `pgmigrations`. */
export const MIGRATIONS_TABLE = 'sandbox_pgmigrations';
// Note: a blocking lock of our own, where node-pg-migrate's try-lock would fail every instance but one started together.
const MIGRATION_LOCK = '7241865325823965';
const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/** The migrations this code ships, by the names node-pg-migrate records (the file name without `.js`). */
function expectedMigrations(): string[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((file) => file.endsWith('.js'))
    .map((file) => file.slice(0, -'.js'.length));
}

/** Thrown when `pg` or `node-pg-migrate` is not installed: the command answers it with exit 2 and the install to run. */
export class MissingPackageError extends Error {
  override name = 'MissingPackageError';
}

/** Loads an optional peer dependency, or says which package to install. */
async function load<T>(name: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new MissingPackageError(
      `The sandbox's postgres store needs the \`${name}\` package: npm install pg node-pg-migrate`,
      { cause: error },
    );
  }
}

async function migrate(pool: PostgresPool): Promise<void> {
  const { runner } = await load('node-pg-migrate', () => import('node-pg-migrate'));
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1::bigint)', [MIGRATION_LOCK]);
    await runner({
      dbClient: client as never,
      dir: MIGRATIONS_DIR,
      // Note: tsc puts a .d.ts beside the migration in dist/; only the .js files are migrations.
      ignorePattern: '.*(?<!\\.js)',
      migrationsTable: MIGRATIONS_TABLE,
      direction: 'up',
      noLock: true,
      singleTransaction: true,
      log: () => {},
    });
  } finally {
    await client.query('SELECT pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK]).catch(() => {});
    client.release();
  }
}

const TENANT_SELECT = `SELECT version, last_used_at, ${TENANT_COLUMNS.map((column) => (column === 'rest' ? 'rest::text' : column)).join(', ')} FROM sandbox_tenants WHERE id = $1 FOR UPDATE`;
// Note: a row another transaction holds is left out rather than waited for: due work an instance is already doing.
const TENANT_TRY_SELECT = `${TENANT_SELECT} SKIP LOCKED`;
const TENANT_INSERT = `INSERT INTO sandbox_tenants (id, version, last_used_at, ${TENANT_COLUMNS.join(', ')})
  VALUES ($1, nextval('sandbox_versions'), $2, ${TENANT_COLUMNS.map((_column, index) => `$${index + 3}`).join(', ')})
  ON CONFLICT (id) DO NOTHING RETURNING version`;
// Note: last_used_at is written only when it is stale (NULL keeps it), so that most updates leave the indexed column as it was.
const TENANT_UPDATE = `UPDATE sandbox_tenants SET version = nextval('sandbox_versions'), ${TENANT_COLUMNS.map((column, index) => `${column} = $${index + 2}`).join(', ')},
  last_used_at = COALESCE($${TENANT_COLUMNS.length + 2}, last_used_at) WHERE id = $1 RETURNING version`;
// Note: the version stays, since the state did not change: no instance's cached copy is made stale by a use.
const TENANT_TOUCH = 'UPDATE sandbox_tenants SET last_used_at = $2 WHERE id = $1';
// Note: every instance takes this lock before it counts and makes a new tenant, and holds it until that commits, so
// that no two count the same tenants as room for one more; a transaction on a tenant that exists never takes it.
const TENANT_COUNT_LOCK = '7241865325823966';
const TENANT_COUNT = 'SELECT count(*)::int AS n, min(last_used_at) AS oldest FROM sandbox_tenants';
/** How many idle tenants one statement of evictIdle forgets, so that a sweep's transactions stay short. */
const EVICT_BATCH = 500;
const TABLES = [
  'sandbox_objects',
  'sandbox_plans',
  'sandbox_timers',
  'sandbox_idempotency',
  'sandbox_events',
  'sandbox_deliveries',
];
// Note: the tenants' rows are taken as a transaction takes one (FOR UPDATE), skipping those a transaction holds: a
// tenant in use is not idle, and its transaction will record the use.
const EVICT = `WITH gone AS (
    DELETE FROM sandbox_tenants WHERE id IN (
      SELECT id FROM sandbox_tenants WHERE last_used_at <= $1 ORDER BY last_used_at LIMIT $2 FOR UPDATE SKIP LOCKED)
    RETURNING id
  ), ${TABLES.map((table, index) => `t${index} AS (DELETE FROM ${table} WHERE tenant_id IN (SELECT id FROM gone))`).join(',\n  ')}
  SELECT id FROM gone`;
/** How long the tenants' count `/metrics` reads is kept, in ms. */
const COUNT_TTL_MS = 5_000;
/** How long this instance remembers that the bound was reached, in ms (never past the oldest tenant's time to go). */
const FULL_MEMO_MS = 1_000;
/** How far behind a tenant's last_used_at may be before a transaction writes it, at most. */
export const USE_PRECISION_MS = 60_000;

interface Cached {
  /** The tenant row's version the state is of; versions come from one sequence, so a recreated tenant never reuses one. */
  version: string;
  state: TenantState;
  baseline: Baseline;
  /** When this instance last committed a transaction of the tenant (wall ms); the cache forgets what it has not used for the idle time. */
  usedAt?: number;
}

/**
 * A new tenant would pass open mode's bound; `oldest` is the last use of the tenant unused the longest, `remembered`
 * when this instance found the bound reached a moment ago and did not count again.
 */
class AtBound extends Error {
  constructor(
    readonly oldest: number | undefined,
    readonly remembered = false,
  ) {
    super('open mode holds its most tenants');
  }
}

/**
 * A TenantStore in PostgreSQL (opt-in: install `pg` and `node-pg-migrate`); migrates the database first. The commands
 * of one tenant are serialised by a lock on its row, so any number of instances may share the database.
 */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<TenantStore> {
  let pool = options.pool;
  const ownPool = pool === undefined;
  if (!pool) {
    const pg = await load('pg', () => import('pg'));
    const connectionString = options.connectionString ?? process.env.DATABASE_URL;
    const made = new pg.default.Pool(connectionString === undefined ? {} : { connectionString });
    // Note: an idle connection the server closed (a restart) is dropped by the pool; unhandled, its error would end the process.
    made.on('error', () => {});
    pool = made;
  }
  const db = pool;
  try {
    if (options.migrate ?? true) await migrate(db);
  } catch (error) {
    if (ownPool) await db.end();
    throw error;
  }
  const { bound, onEvicted } = options;
  const wallNow = options.now ?? Date.now;
  // Note: a tenant's last use is written when it is older than this, so a tenant is forgotten between its idle time
  // and that much later, never before: a tenant in use is never forgotten for a write that was skipped.
  const precisionMs = Math.min(USE_PRECISION_MS, bound ? bound.idleMs / 10 : USE_PRECISION_MS);
  // Note: in the order of this instance's use (run deletes a tenant's entry and sets it again), oldest first.
  const cache = new Map<string, Cached>();
  let counted: { n: number; at: number } | undefined;
  // Note: a refusal is remembered for a moment, so that a flood of new credentials at the bound costs each one look-up
  // of its row rather than the lock, a count and a sweep; a reset or sweep here, or the oldest tenant's time, ends it.
  let full: { at: number; oldest: number | undefined } | undefined;
  const stillFull = (): AtBound | undefined => {
    if (!full || !bound || performance.now() - full.at >= FULL_MEMO_MS) return undefined;
    if (full.oldest !== undefined && wallNow() >= full.oldest + bound.idleMs + precisionMs) return undefined;
    return new AtBound(full.oldest, true);
  };
  const roomMade = () => {
    counted = undefined;
    full = undefined;
  };
  // Note: one instance's transactions on a tenant queue here rather than each holding a connection while it waits for the row.
  const queues = new Map<string, Promise<unknown>>();
  const serialised = <T>(tenant: string, run: () => Promise<T>): Promise<T> => {
    const previous = queues.get(tenant) ?? Promise.resolve();
    const next = previous.then(run, run);
    const settled = next.catch(() => {});
    queues.set(tenant, settled);
    void settled.then(() => {
      if (queues.get(tenant) === settled) queues.delete(tenant);
    });
    return next;
  };

  async function inTransaction<T>(run: (client: PostgresClient) => Promise<T>): Promise<T> {
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

  /**
   * The tenant's state, locked: `candidate` (this instance's last) unless another instance wrote since, and when its
   * use was last written. With `skipLocked`, undefined when the row is held by another transaction or does not exist.
   * Throws AtBound when making the tenant would pass open mode's bound.
   */
  async function open(
    client: PostgresClient,
    tenant: string,
    candidate: Cached | undefined,
    skipLocked = false,
  ): Promise<{ current: Cached; usedAt: number } | undefined> {
    let { rows } = await client.query(skipLocked ? TENANT_TRY_SELECT : TENANT_SELECT, [tenant]);
    if (rows.length === 0 && skipLocked) return undefined;
    if (rows.length === 0 && bound) {
      const remembered = stillFull();
      if (remembered) throw remembered;
      await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [TENANT_COUNT_LOCK]);
      // Note: another instance may have made the tenant while this one waited for the lock; a tenant that exists is never refused.
      ({ rows } = await client.query(TENANT_SELECT, [tenant]));
      if (rows.length === 0) {
        const held = (await client.query(TENANT_COUNT)).rows[0]!;
        if ((held.n as number) >= bound.max)
          throw new AtBound(held.oldest === null ? undefined : (held.oldest as number));
      }
    }
    if (rows.length === 0) {
      const state = options.newTenant(tenant);
      const row = tenantRow(state);
      const usedAt = wallNow();
      const inserted = await client.query(TENANT_INSERT, [tenant, usedAt, ...row]);
      // Note: the inserted row is locked by this transaction; when another instance inserted first, wait for its row.
      if (inserted.rows.length === 1) {
        roomMade();
        return { current: { version: String(inserted.rows[0]!.version), state, baseline: emptyBaseline(row) }, usedAt };
      }
      ({ rows } = await client.query(TENANT_SELECT, [tenant]));
    }
    const version = String(rows[0]!.version);
    const usedAt = rows[0]!.last_used_at as number;
    if (candidate?.version === version) return { current: candidate, usedAt };
    const parts = await Promise.all(Object.values(LOAD_QUERIES).map((text) => client.query(text, [tenant])));
    const [objects, plans, timers, idempotency, events, deliveries] = parts.map((result) => result.rows);
    const loaded = fromRows(tenant, {
      tenant: rows[0]!,
      objects,
      plans,
      timers,
      idempotency,
      events,
      deliveries,
    } as TenantRows);
    return { current: { version, ...loaded }, usedAt };
  }

  /** One try at `work` on the locked tenant, writing what it changed and, unless only the ticker looked, its use. */
  const attempt = <T>(
    tenant: string,
    candidate: Cached | undefined,
    work: (state: TenantState) => T,
    skipLocked: boolean,
  ) =>
    inTransaction(async (client) => {
      const opened = await open(client, tenant, candidate, skipLocked);
      if (opened === undefined) return undefined;
      const { current } = opened;
      const result = work(current.state);
      const { statements, row, rowChanged, next } = changes(tenant, current.state, current.baseline);
      const at = wallNow();
      // Note: the ticker's look (skipLocked) is not a use; the due work it finds sends its deliveries in transactions, which are.
      const use = !skipLocked && at - opened.usedAt >= precisionMs ? at : null;
      let version = current.version;
      if (rowChanged) {
        for (const statement of statements) await client.query(statement.text, statement.values);
        version = String((await client.query(TENANT_UPDATE, [tenant, ...row, use])).rows[0]!.version);
      } else if (use !== null) {
        await client.query(TENANT_TOUCH, [tenant, use]);
      }
      return { result, committed: { version, state: current.state, baseline: next, usedAt: at } };
    });

  /** Forgets the tenants whose last use is older than the idle time and the precision it is written with; how many. */
  async function evictIdle(): Promise<number> {
    if (!bound) return 0;
    const now = wallNow();
    let total = 0;
    for (let batch = EVICT_BATCH; batch === EVICT_BATCH;) {
      const { rows } = await inTransaction((client) =>
        client.query(EVICT, [now - bound.idleMs - precisionMs, EVICT_BATCH]),
      );
      const ids = rows.map((row) => row.id as string);
      for (const id of ids) cache.delete(id);
      if (ids.length > 0) {
        roomMade();
        onEvicted?.(ids);
      }
      total += ids.length;
      batch = ids.length;
    }
    // Note: what another instance forgot stays in this one's cache until this one has not used it for the idle time.
    for (const [id, cached] of cache) {
      if ((cached.usedAt ?? -Infinity) > now - bound.idleMs) break;
      cache.delete(id);
    }
    return total;
  }

  /**
   * Runs `work` on the locked tenant and writes what it changed; undefined when `skipLocked` found the row held. At
   * open mode's bound, forgets the idle tenants once and tries again, then rejects with TenantLimitError.
   */
  const run = <T>(tenant: string, work: (state: TenantState) => T, skipLocked: boolean) =>
    serialised(tenant, async () => {
      // Note: out of the cache until committed, as work changes the state in place and a failure must leave no trace.
      const candidate = cache.get(tenant);
      cache.delete(tenant);
      let ran: Awaited<ReturnType<typeof attempt<T>>>;
      try {
        ran = await attempt(tenant, candidate, work, skipLocked);
      } catch (error) {
        if (!(error instanceof AtBound) || !bound) throw error;
        const idleSeconds = bound.idleMs / 1000;
        if (error.remembered)
          throw new TenantLimitError(
            bound.max,
            idleSeconds,
            secondsUntilForgotten(error.oldest, bound.idleMs + precisionMs, wallNow(), idleSeconds),
          );
        // Note: in a transaction of its own, since the refused one rolls back whatever it did.
        await evictIdle();
        try {
          ran = await attempt(tenant, undefined, work, skipLocked);
        } catch (again) {
          if (!(again instanceof AtBound)) throw again;
          full = { at: performance.now(), oldest: again.oldest };
          throw new TenantLimitError(
            bound.max,
            idleSeconds,
            secondsUntilForgotten(again.oldest, bound.idleMs + precisionMs, wallNow(), idleSeconds),
          );
        }
      }
      if (ran === undefined) {
        if (candidate) cache.set(tenant, candidate);
        return undefined;
      }
      cache.set(tenant, ran.committed);
      return { result: ran.result };
    });

  return {
    transaction: async (tenant, work) => (await run(tenant, work, false))!.result,

    // Note: a tenant this instance is already working on is skipped here too, before a connection is taken.
    tryTransaction: (tenant, work) => (queues.has(tenant) ? Promise.resolve(undefined) : run(tenant, work, true)),

    async dueTenants(wallNow) {
      const client = await db.connect();
      try {
        const { rows } = await client.query(
          'SELECT id FROM sandbox_tenants WHERE due_wall_at <= $1 ORDER BY due_wall_at',
          [wallNow],
        );
        return rows.map((row) => row.id as string);
      } finally {
        client.release();
      }
    },

    reset: (tenant) =>
      serialised(tenant, async () => {
        cache.delete(tenant);
        roomMade();
        await inTransaction(async (client) => {
          await client.query('DELETE FROM sandbox_tenants WHERE id = $1', [tenant]);
          for (const table of TABLES) await client.query(`DELETE FROM ${table} WHERE tenant_id = $1`, [tenant]);
        });
      }),

    evictIdle,

    async tenantCount() {
      // Note: a count scans the table, so a scrape reads one at most COUNT_TTL_MS old (this instance's own changes drop it).
      const at = performance.now();
      if (counted && at - counted.at < COUNT_TTL_MS) return counted.n;
      const client = await db.connect();
      try {
        const n = (await client.query('SELECT count(*)::int AS n FROM sandbox_tenants')).rows[0]!.n as number;
        counted = { n, at };
        return n;
      } finally {
        client.release();
      }
    },

    async close() {
      cache.clear();
      if (ownPool) await db.end();
    },

    async ready() {
      const client = await db.connect().catch((error: Error) => {
        // Note: pg's message may quote the host; the probe says only what failed, the address stays in the operator's config.
        throw new Error(
          `the database did not accept a connection (${(error as NodeJS.ErrnoException).code ?? 'no error code'})`,
          { cause: error },
        );
      });
      try {
        const { rows } = await client.query(`SELECT name FROM ${MIGRATIONS_TABLE}`).catch((error: Error) => {
          throw new Error(`the store's migrations table ${MIGRATIONS_TABLE} cannot be read`, { cause: error });
        });
        const applied = new Set(rows.map((row) => row.name as string));
        const missing = expectedMigrations().filter((name) => !applied.has(name));
        if (missing.length > 0) throw new Error(`the database lacks the store's migrations ${missing.join(', ')}`);
      } finally {
        client.release();
      }
    },

    poolStats: () => ({ total: db.totalCount ?? 0, idle: db.idleCount ?? 0, waiting: db.waitingCount ?? 0 }),
    registry: createPostgresRegistry(db),
  };
}
