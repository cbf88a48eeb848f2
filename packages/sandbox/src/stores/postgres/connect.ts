// The store's own connections: a `pg` Pool of `poolSize`, and the listener bus's one client, each with the sandbox's
// bounds on every statement (statement_timeout, lock_timeout) sent as startup parameters, so that they cost no round
// trip per request and no connection ever runs without them.
import {
  DEFAULT_LOCK_TIMEOUT_MS,
  DEFAULT_POOL_SIZE,
  DEFAULT_STATEMENT_TIMEOUT_MS,
  type ConnectionBounds,
} from '../connection-bounds.js';
import { loadPeer } from './migrate.js';
import type { PostgresPool } from './pool.js';

/** The settings of a `pg` Pool or Client on `connectionString` with the bounds. */
export function connectionConfig(connectionString: string | undefined, bounds: Partial<ConnectionBounds>) {
  return {
    ...(connectionString === undefined ? {} : { connectionString }),
    statement_timeout: bounds.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
    lock_timeout: bounds.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS,
  };
}

/** A pool on `connectionString` (default DATABASE_URL, else the PG* variables, read by `pg`) with the bounds. */
export async function connectPool(
  connectionString: string | undefined,
  bounds: Partial<ConnectionBounds>,
): Promise<PostgresPool> {
  const pg = await loadPeer('pg', () => import('pg'));
  const made = new pg.default.Pool({
    ...connectionConfig(connectionString, bounds),
    max: bounds.poolSize ?? DEFAULT_POOL_SIZE,
  });
  // Note: an idle connection the server closed (a restart) is dropped by the pool; unhandled, its error would end the process.
  made.on('error', () => {});
  return made;
}
