// Claiming an X-Event-ID in PostgreSQL, so that every instance of a receiver, and every restart, shares one set of claims.
import type { WebhookDedupe } from './dedupe.js';

/**
 * What createPostgresDedupe needs of a `pg` Pool (a Client fits too); typed here so that this entry loads without
 * `pg` installed.
 */
export interface PostgresQueryable {
  /** Runs one parameterised statement. */
  query(text: string, values?: unknown[]): Promise<{ rowCount: number | null }>;
}

/** Options of createPostgresDedupe. */
export interface PostgresDedupeOptions {
  /** Table of claims (default `webhook_event_claims`): a lowercase identifier, optionally `schema.table`; created on first use. */
  table?: string;
  /** How long a claim is kept, in seconds (default 4 days, beyond the sender's roughly three days of retries). */
  ttlSeconds?: number;
}

const DEFAULT_TABLE = 'webhook_event_claims';
const DEFAULT_TTL_SECONDS = 4 * 24 * 60 * 60;
const PRUNE_EVERY_MS = 60_000;
const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;
/** What losing a race to create the table raises: unique_violation (on pg_type), duplicate_object, duplicate_table. */
const CREATE_RACE_CODES = new Set(['23505', '42710', '42P07']);

/**
 * A WebhookDedupe over a `pg` Pool: a claim is an `INSERT … ON CONFLICT DO NOTHING` of the X-Event-ID into a table
 * it creates on first use when missing, so one event is processed once across every instance of a receiver.
 */
export function createPostgresDedupe(pool: PostgresQueryable, options: PostgresDedupeOptions = {}): WebhookDedupe {
  if (typeof pool?.query !== 'function') {
    throw new TypeError('createPostgresDedupe(pool) needs a pg Pool or Client: an object with query(text, values).');
  }
  const table = qualifiedName(options.table ?? DEFAULT_TABLE);
  const ttlSeconds = options.ttlSeconds ?? DEFAULT_TTL_SECONDS;
  if (!Number.isSafeInteger(ttlSeconds) || ttlSeconds < 1)
    throw new TypeError('ttlSeconds must be a positive integer.');
  let ready: Promise<void> | undefined;
  let prunedAt = -Infinity;
  const prepare = () => {
    // Note: a failed attempt is forgotten, so a database that was down at the first delivery is tried again at the next.
    ready ??= createTable(pool, table).catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  };
  return {
    async claim(id) {
      await prepare();
      if (Date.now() - prunedAt >= PRUNE_EVERY_MS) {
        prunedAt = Date.now();
        // Note: no index on claimed_at: a scan once a minute costs less than an index written by every claim.
        await pool.query(`DELETE FROM ${table} WHERE claimed_at < now() - make_interval(secs => $1)`, [ttlSeconds]);
      }
      const result = await pool.query(`INSERT INTO ${table} (event_id) VALUES ($1) ON CONFLICT DO NOTHING`, [id]);
      return result.rowCount === 1;
    },
    async release(id) {
      await prepare();
      await pool.query(`DELETE FROM ${table} WHERE event_id = $1`, [id]);
    },
  };
}

/** The table's name as it goes into SQL and to `to_regclass`: each part checked, then double-quoted. */
function qualifiedName(name: unknown): string {
  const parts = typeof name === 'string' ? name.split('.') : [];
  if (parts.length < 1 || parts.length > 2 || !parts.every((part) => IDENTIFIER.test(part))) {
    throw new TypeError(
      `table must be a lowercase SQL identifier ([a-z_][a-z0-9_]*, at most 63 characters), optionally "schema.table"; got ${JSON.stringify(name)}.`,
    );
  }
  // Note: the parts are checked above and quoted as well, so a reserved word such as "order" is a valid name too.
  return parts.map((part) => `"${part}"`).join('.');
}

async function createTable(pool: PostgresQueryable, table: string): Promise<void> {
  // Note: looked up first, so a role without CREATE on the schema (the default since PostgreSQL 15) works with a table
  // a migration made.
  const found = await pool.query('SELECT 1 WHERE to_regclass($1) IS NOT NULL', [table]);
  if (found.rowCount === 1) return;
  const create = `CREATE TABLE IF NOT EXISTS ${table} (event_id text PRIMARY KEY, claimed_at timestamptz NOT NULL DEFAULT now())`;
  try {
    await pool.query(create);
  } catch (error) {
    // Note: IF NOT EXISTS is no lock: two sessions creating the table at once can both pass the check, and the later
    // one fails on the catalog's unique index; once the first has committed, a second try finds the table.
    if (!CREATE_RACE_CODES.has((error as { code?: unknown })?.code as string)) throw error;
    await pool.query(create);
  }
}
