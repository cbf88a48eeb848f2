// Test tenants: tenants a tenant makes of its own through the control API (POST /_sandbox/tenants), kept beside the
// issued ones with the parent's id. Each expires once unused for its own idle time, which a look-up of its credentials
// moves forward (at most once a minute); expired and deleted ones are revoked first and their rows deleted once their
// sandbox state is, so that an instance that stops in between leaves nothing a later sweep does not finish.
// Note: parent_id has no foreign key, since an open-mode tenant (`a_…`, `b_…`) has no row here.

/** Adds the parent, the idle time and the expiry, and the indexes a parent's list and the sweep go by. */
export const up = (pgm) => {
  pgm.sql(`
    ALTER TABLE sandbox_issued_tenants
      ADD COLUMN parent_id text,
      ADD COLUMN idle_ms double precision,
      ADD COLUMN expires_at double precision;
    COMMENT ON COLUMN sandbox_issued_tenants.parent_id IS
      'The tenant that made this test tenant (an issued tenant''s id, or an open-mode tenant''s); NULL for a tenant the admin API issued.';
    COMMENT ON COLUMN sandbox_issued_tenants.expires_at IS
      'Wall time (ms since the epoch) a test tenant expires at unless used; each use moves it to idle_ms after the use.';
    CREATE INDEX sandbox_issued_tenants_parent ON sandbox_issued_tenants (parent_id, position) WHERE parent_id IS NOT NULL;
    CREATE INDEX sandbox_issued_tenants_expiry ON sandbox_issued_tenants (expires_at) WHERE parent_id IS NOT NULL;
  `);
};

/** Drops them again. */
export const down = (pgm) => {
  pgm.sql(`
    DROP INDEX sandbox_issued_tenants_expiry;
    DROP INDEX sandbox_issued_tenants_parent;
    ALTER TABLE sandbox_issued_tenants DROP COLUMN expires_at, DROP COLUMN idle_ms, DROP COLUMN parent_id;
  `);
};
