// The sandbox's tenants in PostgreSQL (createPostgresStore). Plain JavaScript, as node-pg-migrate imports each file by
// its path with a bare Node, from src/ in tests and from dist/ once installed (tsc copies it there).
// Note: times and amounts of the core are JavaScript numbers, kept as double precision so that they round-trip
// exactly; the record columns are json, not jsonb, so that a record read back prints with its keys in their order.

/** Creates the tables of createPostgresStore. */
export const up = (pgm) => {
  pgm.sql(`
    CREATE SEQUENCE sandbox_versions;

    CREATE TABLE sandbox_tenants (
      id text PRIMARY KEY,
      version bigint NOT NULL,
      clock_mode text NOT NULL CHECK (clock_mode IN ('manual', 'real')),
      clock_manual double precision NOT NULL,
      clock_offset double precision NOT NULL,
      time double precision NOT NULL,
      seq bigint NOT NULL,
      ids_state bigint NOT NULL,
      ids_count bigint NOT NULL,
      events_dropped bigint NOT NULL,
      event_log_limit integer NOT NULL,
      retry_compression double precision NOT NULL,
      secret_key_digest text,
      ledger json NOT NULL,
      endpoints json NOT NULL,
      due json NOT NULL,
      rest json NOT NULL,
      due_wall_at double precision
    );
    COMMENT ON COLUMN sandbox_tenants.due_wall_at IS
      'Wall time (ms) at which a real-clock tenant next has work: its earliest timer less its clock offset, or earlier; NULL for manual clocks and idle tenants.';
    CREATE INDEX sandbox_tenants_due ON sandbox_tenants (due_wall_at) WHERE due_wall_at IS NOT NULL;

    CREATE TABLE sandbox_objects (
      tenant_id text NOT NULL,
      kind text NOT NULL CHECK (kind IN ('payment', 'payout', 'appeal')),
      id text NOT NULL,
      position bigint NOT NULL,
      status text NOT NULL,
      record json NOT NULL,
      request json NOT NULL,
      PRIMARY KEY (tenant_id, kind, id)
    );
    CREATE INDEX sandbox_objects_list ON sandbox_objects (tenant_id, kind, position);
    CREATE INDEX sandbox_objects_list_status ON sandbox_objects (tenant_id, kind, status, position);

    CREATE TABLE sandbox_plans (
      tenant_id text NOT NULL,
      key text NOT NULL,
      position bigint NOT NULL,
      steps json NOT NULL,
      PRIMARY KEY (tenant_id, key)
    );

    CREATE TABLE sandbox_timers (
      tenant_id text NOT NULL,
      seq bigint NOT NULL,
      due_at double precision NOT NULL,
      body json NOT NULL,
      PRIMARY KEY (tenant_id, seq)
    );
    CREATE INDEX sandbox_timers_due ON sandbox_timers (tenant_id, due_at, seq);

    CREATE TABLE sandbox_idempotency (
      tenant_id text NOT NULL,
      scope text NOT NULL,
      key text NOT NULL,
      position bigint NOT NULL,
      fingerprint text NOT NULL,
      expires_at double precision NOT NULL,
      answer json,
      PRIMARY KEY (tenant_id, scope, key)
    );

    CREATE TABLE sandbox_events (
      tenant_id text NOT NULL,
      position bigint NOT NULL,
      change json NOT NULL,
      PRIMARY KEY (tenant_id, position)
    );

    CREATE TABLE sandbox_deliveries (
      tenant_id text NOT NULL,
      id text NOT NULL,
      position bigint NOT NULL,
      state text NOT NULL,
      body json NOT NULL,
      PRIMARY KEY (tenant_id, id)
    );
  `);
};

/** Drops them again. */
export const down = (pgm) => {
  pgm.sql(`
    DROP TABLE sandbox_deliveries, sandbox_events, sandbox_idempotency, sandbox_timers, sandbox_plans, sandbox_objects, sandbox_tenants;
    DROP SEQUENCE sandbox_versions;
  `);
};
