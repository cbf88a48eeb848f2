// How many tenants sandbox_tenants holds, in one row kept by the statements that make and delete tenant rows
// (tenant-rows.ts), so that admitting a new tenant within open mode's bound takes that row's lock for a moment instead
// of a lock every instance takes and a count(*) over every tenant. Filled from what is stored.
// Note: a tenant that an instance of an older version makes while the new ones start goes uncounted, so the bound may
// be passed by as many until they are forgotten; a delete never takes the count below 0.

/** Adds sandbox_tenant_count and fills it. */
export const up = (pgm) => {
  pgm.sql(`
    CREATE TABLE sandbox_tenant_count (
      one boolean PRIMARY KEY DEFAULT true CHECK (one),
      n bigint NOT NULL,
      bound bigint,
      CONSTRAINT sandbox_tenant_count_bound CHECK (bound IS NULL OR n <= bound)
    );
    COMMENT ON TABLE sandbox_tenant_count IS
      'The number of rows of sandbox_tenants, in its one row: raised by the statement that makes a tenant row, lowered by those that delete them.';
    COMMENT ON COLUMN sandbox_tenant_count.bound IS
      'Open mode''s bound as the last raise wrote it (NULL without one, and after a delete): a raise past it breaks the constraint, so its statement makes nothing.';
    INSERT INTO sandbox_tenant_count (n) SELECT count(*) FROM sandbox_tenants;
  `);
};

/** Drops it again. */
export const down = (pgm) => {
  pgm.sql('DROP TABLE sandbox_tenant_count;');
};
