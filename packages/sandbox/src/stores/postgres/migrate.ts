// The store's schema: its migrations (node-pg-migrate, in a table of their own), run under a lock every instance
// waits for, and the readiness check that the database has them all.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PostgresPool } from './pool.js';

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
export async function loadPeer<T>(name: string, load: () => Promise<T>): Promise<T> {
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

/** Runs the migrations this code ships that the database lacks. */
export async function migrate(pool: PostgresPool): Promise<void> {
  const { runner } = await loadPeer('node-pg-migrate', () => import('node-pg-migrate'));
  const client = await pool.connect();
  try {
    // Note: a migration may build an index over a large table, and an instance may wait for another's migrations: the
    // pool's statement and lock time-outs (connect.ts) bound requests, not these; the connection is closed afterwards.
    await client.query('SET statement_timeout = 0');
    await client.query('SET lock_timeout = 0');
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
    client.release(true);
  }
}

/**
 * Resolves when the database answers and has every migration; rejects with an Error that says which part failed and
 * never names the database's address.
 */
export async function checkReady(pool: PostgresPool): Promise<void> {
  const { rows } = await pool.query(`SELECT name FROM ${MIGRATIONS_TABLE}`).catch((error: Error) => {
    const code = (error as NodeJS.ErrnoException).code;
    // Note: pg's message may quote the host; the probe says only what failed, the address stays in the operator's config.
    if (code === '42P01')
      throw new Error(`the store's migrations table ${MIGRATIONS_TABLE} cannot be read`, { cause: error });
    throw new Error(`the database did not accept a connection (${code ?? 'no error code'})`, { cause: error });
  });
  const applied = new Set(rows.map((row) => row.name as string));
  const missing = expectedMigrations().filter((name) => !applied.has(name));
  if (missing.length > 0) throw new Error(`the database lacks the store's migrations ${missing.join(', ')}`);
}
