// The durable TenantStore: every tenant in PostgreSQL, shared by any number of sandbox instances, none of which keeps
// a tenant between commands. A command reads its tenant's head and the rows it names in one statement (view.ts: a row
// it names that was not read is read, and the command runs again), and writes what it changed in one more, which
// commits only if the tenant's row is still at the version read (sql/writes.ts). A command its caller says writes
// runs in a batch with the tenant's other writes on this instance (batch.ts), and once its tenant's writes race
// another instance's, under the tenant row's lock, so that they queue rather than run again. A read that changes
// nothing writes nothing.
import { createHash } from 'node:crypto';
import type { TenantState } from '../../core/tenant.js';
import { createSerialQueues } from '@merchant-payments/contract/internal/shared/serial.js';
import type { StoreSession, TenantStore, TenantStoreSettings } from '../types.js';
import { HEAD_COLUMNS, headOf, headRow, headValues, type HeadRow } from './head.js';
import { createBatches } from './batch.js';
import { createPostgresBus } from './bus.js';
import type { ConnectionBounds } from '../connection-bounds.js';
import { connectPool } from './connect.js';
import { checkReady, migrate } from './migrate.js';
import type { PostgresPool, Statement } from './pool.js';
import { createPostgresRegistry } from './registry.js';
import { readKey, readsOf, readStatement, type Read } from './sql/reads.js';
import { writeStatement } from './sql/writes.js';
import { sweepExpiredKeys } from './sweep.js';
import { createTenantRows, inTransaction } from './tenant-rows.js';
import { createView, Flush, Miss, remember, wroteRows, type ReadCache } from './view.js';

export { MIGRATIONS_TABLE, MissingPackageError } from './migrate.js';

/** Options of createPostgresStore; the bounds are those of its own pool's connections (connect.ts), each with a default. */
export interface PostgresStoreOptions extends TenantStoreSettings, Partial<ConnectionBounds> {
  /** A pool to use (the store never ends it); default: one the store makes and ends on close(). */
  pool?: PostgresPool;
  /** The database for the store's own pool; default DATABASE_URL, else the PG* variables (read by `pg`). */
  connectionString?: string;
  /** Whether to run the store's migrations first (default true); false when they are run separately. */
  migrate?: boolean;
}

/** How many times a command runs again after racing another instance's, before the store gives up. */
const MAX_RACES = 100;
const TIME = HEAD_COLUMNS.indexOf('time');
const DUE_WALL = HEAD_COLUMNS.indexOf('due_wall_at');

/** Thrown by `run` when a write raced another instance's and its caller takes the tenant's lock instead. */
class Contended extends Error {}
/** How long a tenant's writers take its row lock at once after a race, in ms, and how many such tenants are kept. */
const CONTENDED_MS = 10_000;
const MAX_CONTENDED = 1_000;

/** Takes a tenant's row lock for a command that writes (runLocked). */
const LOCK_TENANT = 'SELECT 1 FROM sandbox_tenants WHERE id = $1 FOR UPDATE';

/** Prepared statements' names by text. */
const NAMES = new Map<string, string>();
const MAX_NAMES = 1_000;

/** Runs one statement: on the pool, or on the connection of a claim. */
type Query = (statement: Statement) => ReturnType<PostgresPool['query']>;

/**
 * The statement as a prepared one, named after its text, unless it lists (a page's plan depends on how many rows the
 * tenant has, so it is planned for each run rather than once for every tenant).
 */
function prepared(statement: { text: string; values: unknown[] }, lists: boolean): Statement {
  if (lists) return statement;
  let name = NAMES.get(statement.text);
  if (name === undefined) {
    // Note: the texts are the combinations of a few fixed fragments; the bound only guards against a surprise.
    if (NAMES.size >= MAX_NAMES) NAMES.clear();
    name = `sandbox_${createHash('sha1').update(statement.text).digest('base64url')}`;
    NAMES.set(statement.text, name);
  }
  return { ...statement, name };
}

/** A TenantStore in PostgreSQL (opt-in: install `pg` and `node-pg-migrate`); migrates the database first. */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<TenantStore> {
  let pool = options.pool;
  const ownPool = pool === undefined;
  pool ??= await connectPool(options.connectionString ?? process.env.DATABASE_URL, options);
  const db = pool;
  try {
    if (options.migrate ?? true) await migrate(db);
  } catch (error) {
    if (ownPool) await db.end();
    throw error;
  }
  const wallNow = options.now ?? Date.now;
  // Note: its errors are the connection's (a restart), which it survives by connecting again.
  const bus = createPostgresBus(db, options.connectionString ?? process.env.DATABASE_URL, options, () => {});
  const tenants = createTenantRows({
    db,
    newTenant: options.newTenant,
    bound: options.bound,
    wallNow,
    onEvicted: options.onEvicted,
  });
  // Note: one instance's commands on a tenant run one after another, so that they never race each other; the queue
  // holds only the tenants with a command in flight.
  const queues = createSerialQueues();

  /** What was read of a tenant at one version: kept for the next run of the command, or a request's next command. */
  interface Kept {
    tenant: string;
    version: string;
    head: HeadRow;
    cache: ReadCache;
  }

  /** What one run of `work` gave: its result and, unless it changed nothing, the write to make. */
  type Ran<T> =
    | { result: T; write?: { text: string; values: unknown[] }; kept: Kept }
    | { flush: { text: string; values: unknown[] } }
    | { restart: true };

  /**
   * Reads the tenant (what `seed` has not read already) and runs `work` until it has read all it names, then builds its
   * write; a restart when the tenant changed between two reads or has no row yet (made first, within the bound).
   */
  async function runOnce<T>(
    query: Query,
    tenant: string,
    work: (state: TenantState) => T,
    reads: Map<string, Read>,
    seed: Kept | undefined,
  ): Promise<Ran<T>> {
    const cache: ReadCache = new Map(seed?.cache);
    let version = seed?.version;
    let head = seed?.head;
    let pending = [...reads].filter(([key]) => !cache.has(key)).map(([, read]) => read);
    for (;;) {
      if (version === undefined || pending.length > 0) {
        const first = version === undefined;
        const statement = readStatement(tenant, wallNow(), pending, first);
        const row = (await query(prepared(statement, statement.lists))).rows[0]!;
        // Note: pg reads a bigint as a string.
        const readVersion = row.version as string | null;
        if (readVersion === null) {
          await tenants.admit(tenant);
          return { restart: true };
        }
        if (first) {
          version = readVersion;
          head = headRow(row.head as string);
          const due = row.due as { until: number };
          remember(cache, { read: 'timers', until: due.until }, due);
        } else if (readVersion !== version) {
          return { restart: true };
        }
        pending.forEach((read, index) => remember(cache, read, row[`r${index}`]));
      }
      const read = head!;
      const state = headOf(tenant, read.text);
      const before = headValues(state, undefined);
      const view = createView(state, read.counts, cache);
      const build = (): { text: string; values: unknown[] } | undefined => {
        const after = headValues(state, view.earliest());
        const at = wallNow();
        const use = tenants.precisionMs > 0 && at - read.lastUsedAt >= tenants.precisionMs ? at : null;
        const columns = after.flatMap((value, index) =>
          (index === DUE_WALL ? value !== read.dueWallAt : value !== before[index]) ? [index] : [],
        );
        // Note: moving `time` alone (a read that found nothing due) is not worth a write: the next command moves it again.
        const changed = columns.some((index) => index !== TIME) || wroteRows(view.writes);
        if (!changed && use === null) return undefined;
        return writeStatement(tenant, version!, after, changed ? columns : [], use, view.writes, changed);
      };
      let failure: unknown;
      try {
        const result = work(view.state);
        return { result, write: build(), kept: { tenant, version: version, head: read, cache } };
      } catch (error) {
        failure = error;
      }
      if (failure instanceof Flush) {
        try {
          // Note: Flush comes only after a write, so there is always one to commit.
          return { flush: build()! };
        } catch (error) {
          failure = error;
        }
      }
      if (!(failure instanceof Miss)) throw failure;
      for (const missed of failure.reads) reads.set(readKey(missed), missed);
      pending = failure.reads;
    }
  }

  /**
   * Runs `work` until its write commits (or it has nothing to write); `query` runs each statement. The session's reads
   * are read with the first statement, and what a request's earlier transaction read serves its next one, unless the
   * command writes: a write is always made on a head read by its own transaction (`locked`: under the row's lock).
   * With `yieldOnRace`, a write that raced another one is not tried again here: Contended says to take the lock.
   */
  async function run<T>(
    query: Query,
    tenant: string,
    work: (state: TenantState) => T,
    session: StoreSession | undefined,
    locked: boolean,
    yieldOnRace = false,
  ): Promise<T> {
    // Note: what a run found it needs is read up front by the next one.
    const reads = new Map(readsOf(session?.reads).map((read) => [readKey(read), read]));
    const kept = session?.kept as Kept | undefined;
    let seed = !locked && kept?.tenant === tenant ? kept : undefined;
    for (let races = 0; races < MAX_RACES;) {
      const seeded = seed !== undefined;
      const ran = await runOnce(query, tenant, work, reads, seed);
      seed = undefined;
      if (session) session.kept = undefined;
      if ('restart' in ran) continue;
      if ('flush' in ran) {
        if (seeded) continue;
        await query(prepared(ran.flush, false));
        continue;
      }
      if (!ran.write) {
        if (session) session.kept = ran.kept;
        return ran.result;
      }
      // Note: an earlier transaction's head may be older than a command of this instance that committed since; the
      // write is built again on a fresh read rather than sent to fail.
      if (seeded) continue;
      const written = await query(prepared(ran.write, false));
      if (written.rows.length === 1) return ran.result;
      if (yieldOnRace) throw new Contended();
      races += 1;
    }
    throw new Error(`Tenant ${tenant}'s command raced another one ${MAX_RACES} times without committing.`);
  }

  /**
   * Runs a command that writes under its tenant row's lock, taken before the head is read and held until the write
   * commits: another instance's writer of the tenant waits for it (within the lock time-out) instead of racing it.
   */
  async function runLocked<T>(tenant: string, work: (state: TenantState) => T, session?: StoreSession): Promise<T> {
    for (;;) {
      const held = await inTransaction(db, async (client) => {
        const row = await client.query(prepared({ text: LOCK_TENANT, values: [tenant] }, false));
        if (row.rows.length === 0) return undefined;
        return { result: await run((statement) => client.query(statement), tenant, work, session, true) };
      });
      if (held) return held.result;
      // Note: a tenant's first command makes its row (within the bound), outside the transaction, then takes its lock.
      await tenants.admit(tenant);
    }
  }

  // Note: the tenants whose writes raced another instance's lately, oldest first: their writers take the row's lock at
  // once, for CONTENDED_MS after the last race, while every other tenant's writes take the two round trips of an
  // optimistic read and write. Bounded, so that many tenants written from two instances cost a fixed amount here.
  const contended = new Map<string, number>();
  const isContended = (tenant: string) => {
    const until = contended.get(tenant);
    if (until === undefined) return false;
    if (until > performance.now()) return true;
    contended.delete(tenant);
    return false;
  };
  const markContended = (tenant: string) => {
    contended.delete(tenant);
    if (contended.size >= MAX_CONTENDED) contended.delete(contended.keys().next().value!);
    contended.set(tenant, performance.now() + CONTENDED_MS);
  };

  /** A command that writes: optimistic while its tenant is not contended, under the row's lock once it is. */
  async function runWriter<T>(tenant: string, work: (state: TenantState) => T, session?: StoreSession): Promise<T> {
    if (!isContended(tenant)) {
      try {
        return await run(query, tenant, work, session, false, true);
      } catch (error) {
        if (!(error instanceof Contended)) throw error;
        markContended(tenant);
      }
    }
    return runLocked(tenant, work, session);
  }

  const query: Query = (statement) => db.query(statement);
  const batches = createBatches(
    (tenant, job) => queues.run(tenant, job),
    (tenant) => (work, session) => runWriter(tenant, work, session),
  );

  return {
    transaction: (tenant, work, session, intent) =>
      intent?.writes
        ? batches.submit(tenant, work, session)
        : queues.run(tenant, () => run(query, tenant, work, session, false)),

    // Note: the tenant's row is claimed with SKIP LOCKED for the whole run, so that the instance that has it runs the due
    // work and every other instance moves on at once; a tenant this instance is working on is skipped before a connection is taken.
    tryTransaction: (tenant, work) =>
      queues.busy(tenant)
        ? Promise.resolve(undefined)
        : queues.run(tenant, () =>
            inTransaction(db, async (client) => {
              const claimed = await client.query('SELECT 1 FROM sandbox_tenants WHERE id = $1 FOR UPDATE SKIP LOCKED', [
                tenant,
              ]);
              if (claimed.rows.length === 0) return undefined;
              return { result: await run((statement) => client.query(statement), tenant, work, undefined, true) };
            }),
          ),

    async dueTenants(wall) {
      const { rows } = await db.query(
        'SELECT id FROM sandbox_tenants WHERE due_wall_at <= $1 ORDER BY due_wall_at LIMIT 1000',
        [wall],
      );
      return rows.map((row) => row.id as string);
    },

    reset: (tenant) => queues.run(tenant, () => tenants.reset(tenant)),
    evictIdle: () => tenants.evictIdle(),
    tenantCount: () => tenants.tenantCount(),
    maintain: async () => void (await sweepExpiredKeys(db)),

    listenerBus: bus,
    async close() {
      await bus.close();
      if (ownPool) await db.end();
    },

    ready: () => checkReady(db),
    poolStats: () => ({ total: db.totalCount ?? 0, idle: db.idleCount ?? 0, waiting: db.waitingCount ?? 0 }),
    registry: createPostgresRegistry(db),
  };
}
