// What the postgres store and its registry need of `pg`, typed here so that the sandbox's entry loads without `pg`
// installed.

/** One statement with its parameters; a `name` makes it a prepared statement on each connection that runs it. */
export interface Statement {
  name?: string;
  text: string;
  values?: unknown[];
}

/** What the store needs of a `pg` Pool. */
export interface PostgresPool {
  /** Takes a connection for one transaction. */
  connect(): Promise<PostgresClient>;
  /** Runs one statement on a connection of the pool, as its own transaction. */
  query(
    text: string | Statement,
    values?: unknown[],
  ): Promise<{ rows: Record<string, unknown>[]; rowCount: number | null }>;
  /** Closes every connection. */
  end(): Promise<void>;
  /** `pg`'s counts of connections (all, idle) and of callers waiting for one; read by `/metrics` when present. */
  readonly totalCount?: number;
  readonly idleCount?: number;
  readonly waitingCount?: number;
}

/** What the store needs of a pooled `pg` client. */
export interface PostgresClient {
  /** Runs one parameterised statement. */
  query(
    text: string | Statement,
    values?: unknown[],
  ): Promise<{ rows: Record<string, unknown>[]; rowCount: number | null }>;
  /** Gives the connection back; with an error, the pool closes it instead. */
  release(error?: Error | boolean): void;
}
