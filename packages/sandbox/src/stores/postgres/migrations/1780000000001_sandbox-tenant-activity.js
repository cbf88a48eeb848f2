// When each tenant was last used, so that open mode forgets the idle ones (createPostgresStore's evictIdle) and
// counts its tenants under a lock of its own. Written by a transaction only when it is older than the store's
// precision (a minute at most), so that a read-only request adds no write.
// Note: wall time in ms since the epoch, from the sandbox's `now`, as double precision like the other times; a tenant
// made before this column existed counts as used when the migration ran.

/** Adds sandbox_tenants.last_used_at and the index the sweep and the oldest tenant's look-up go by. */
export const up = (pgm) => {
  pgm.sql(`
    ALTER TABLE sandbox_tenants ADD COLUMN last_used_at double precision NOT NULL DEFAULT (extract(epoch FROM now()) * 1000);
    COMMENT ON COLUMN sandbox_tenants.last_used_at IS
      'Wall time (ms since the epoch) of the tenant''s last use, at most the store''s precision (a minute) behind; open mode forgets a tenant unused for its idle time.';
    CREATE INDEX sandbox_tenants_last_used ON sandbox_tenants (last_used_at);
  `);
};

/** Drops them again. */
export const down = (pgm) => {
  pgm.sql('DROP INDEX sandbox_tenants_last_used; ALTER TABLE sandbox_tenants DROP COLUMN last_used_at;');
};
