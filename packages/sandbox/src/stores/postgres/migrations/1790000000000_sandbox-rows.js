// The store reads a tenant by key and index instead of loading it whole (createPostgresStore): exact totals kept in
// count rows, the event log and deliveries findable by object, event and position, faults and the event count in the
// tenant row. Existing rows are carried over: the counts and the new columns are filled from what is stored.
// Note: a new object's or delivery's position is its tenant's ids_count once its id is drawn, which is above every
// position the earlier store gave (those counted the objects, and every id drawn counts one).

/** Adds sandbox_counts, the tenant row's faults and events_made, and the columns and indexes the reads go by. */
export const up = (pgm) => {
  pgm.sql(`
    CREATE TABLE sandbox_counts (
      tenant_id text NOT NULL,
      kind text NOT NULL CHECK (kind IN ('payment', 'payout', 'appeal')),
      status text NOT NULL,
      n bigint NOT NULL,
      PRIMARY KEY (tenant_id, kind, status)
    );
    COMMENT ON TABLE sandbox_counts IS
      'How many objects of each kind a tenant has in each status, kept by every write, so that a list total is exact without count(*).';
    INSERT INTO sandbox_counts (tenant_id, kind, status, n)
      SELECT tenant_id, kind, status, count(*) FROM sandbox_objects GROUP BY tenant_id, kind, status;

    ALTER TABLE sandbox_tenants
      ADD COLUMN events_made bigint,
      ADD COLUMN faults json NOT NULL DEFAULT '[]';
    UPDATE sandbox_tenants t
      SET events_made = t.events_dropped + (SELECT count(*) FROM sandbox_events e WHERE e.tenant_id = t.id);
    ALTER TABLE sandbox_tenants ALTER COLUMN events_made SET NOT NULL;
    COMMENT ON COLUMN sandbox_tenants.events_made IS
      'How many status changes the tenant ever made: the position of the next one in sandbox_events.';
    COMMENT ON COLUMN sandbox_tenants.faults IS
      'The faults the control API set, oldest first, each with the requests it still fails (at most 100).';

    ALTER TABLE sandbox_events ADD COLUMN object_id text;
    UPDATE sandbox_events SET object_id = change->>'object_id';
    ALTER TABLE sandbox_events ALTER COLUMN object_id SET NOT NULL;
    CREATE INDEX sandbox_events_object ON sandbox_events (tenant_id, object_id, position);

    ALTER TABLE sandbox_deliveries ADD COLUMN event_id text, ADD COLUMN event_index bigint;
    UPDATE sandbox_deliveries SET event_id = body->>'event_id', event_index = (body->>'event_index')::bigint;
    ALTER TABLE sandbox_deliveries ALTER COLUMN event_id SET NOT NULL, ALTER COLUMN event_index SET NOT NULL;
    CREATE INDEX sandbox_deliveries_list ON sandbox_deliveries (tenant_id, position);
    CREATE INDEX sandbox_deliveries_state ON sandbox_deliveries (tenant_id, state, position);
    CREATE INDEX sandbox_deliveries_event ON sandbox_deliveries (tenant_id, event_id);
    CREATE INDEX sandbox_deliveries_event_index ON sandbox_deliveries (tenant_id, event_index);

    CREATE INDEX sandbox_idempotency_expiry ON sandbox_idempotency (tenant_id, expires_at) WHERE answer IS NOT NULL;
  `);
};

/** Drops them again. */
export const down = (pgm) => {
  pgm.sql(`
    DROP INDEX sandbox_idempotency_expiry;
    DROP INDEX sandbox_deliveries_list, sandbox_deliveries_state, sandbox_deliveries_event, sandbox_deliveries_event_index;
    ALTER TABLE sandbox_deliveries DROP COLUMN event_id, DROP COLUMN event_index;
    DROP INDEX sandbox_events_object;
    ALTER TABLE sandbox_events DROP COLUMN object_id;
    ALTER TABLE sandbox_tenants DROP COLUMN events_made, DROP COLUMN faults;
    DROP TABLE sandbox_counts;
  `);
};
