// The bounds of a store's connections to its database, and their defaults: a store that has no database (memory)
// takes the pool's size only, as the size that the merchant budget's default share is counted from.

/** How many connections an instance's pool holds, and how long a statement, or its wait for a lock, may take. */
export interface ConnectionBounds {
  /** The pool's most connections (`pg.Pool`'s `max`). */
  poolSize: number;
  /** PostgreSQL's `statement_timeout`, in ms: a statement running longer is stopped (SQLSTATE 57014). */
  statementTimeoutMs: number;
  /** PostgreSQL's `lock_timeout`, in ms: a statement waiting longer for a lock is stopped (SQLSTATE 55P03). */
  lockTimeoutMs: number;
}

/** The pool's size by default: `pg`'s own. */
export const DEFAULT_POOL_SIZE = 10;
/**
 * A statement's bound by default: the store's statements read or write one tenant by key or index and take
 * milliseconds; five seconds stops a runaway (a deep page, a plan gone wrong) long before a client's own time-out
 * (the clients' default is 30 s), so that one merchant cannot hold a connection for longer than that.
 */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 5_000;
/**
 * A lock wait's bound by default: writes take row locks for one statement, so a wait longer than two seconds means a
 * pile-up behind one tenant row (or an operator's lock), which a retry resolves better than a connection held waiting.
 */
export const DEFAULT_LOCK_TIMEOUT_MS = 2_000;
