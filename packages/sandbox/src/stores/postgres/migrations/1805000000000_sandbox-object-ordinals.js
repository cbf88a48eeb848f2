// Deep pages at the cost of a first one: each object gets its number among its tenant's objects of its kind, 1, 2, …
// in the order they were made, so that the newest-first page at any offset is a seek (`ordinal <= newest - offset`)
// rather than a walk past every object before it. Objects are never deleted one by one (only a tenant's reset or its
// eviction deletes them, all at once), so the numbers stay dense. Existing rows are numbered in their order of making.
// A page filtered by status walks the status index to its offset, reading only the index, and fetches its rows by
// ordinal; the indexes by position are then read by nothing, and dropped, so a create still updates three indexes.

/** Adds and fills sandbox_objects.ordinal, unique per tenant and kind, and indexes the status lists by it. */
export const up = (pgm) => {
  pgm.sql(`
    ALTER TABLE sandbox_objects ADD COLUMN ordinal bigint;
    UPDATE sandbox_objects o SET ordinal = n.ordinal FROM (
      SELECT tenant_id, kind, id, row_number() OVER (PARTITION BY tenant_id, kind ORDER BY position) AS ordinal
      FROM sandbox_objects) n
      WHERE o.tenant_id = n.tenant_id AND o.kind = n.kind AND o.id = n.id;
    ALTER TABLE sandbox_objects ALTER COLUMN ordinal SET NOT NULL;
    CREATE UNIQUE INDEX sandbox_objects_ordinal ON sandbox_objects (tenant_id, kind, ordinal);
    CREATE INDEX sandbox_objects_status_ordinal ON sandbox_objects (tenant_id, kind, status, ordinal);
    DROP INDEX sandbox_objects_list, sandbox_objects_list_status;
    COMMENT ON COLUMN sandbox_objects.ordinal IS
      'The object''s number among its tenant''s objects of its kind, from 1 in the order they were made: an unfiltered page is a seek by it.';
  `);
};

/** Puts the indexes by position back and drops the ordinal. */
export const down = (pgm) => {
  pgm.sql(`
    CREATE INDEX sandbox_objects_list ON sandbox_objects (tenant_id, kind, position);
    CREATE INDEX sandbox_objects_list_status ON sandbox_objects (tenant_id, kind, status, position);
    DROP INDEX sandbox_objects_ordinal, sandbox_objects_status_ordinal;
    ALTER TABLE sandbox_objects DROP COLUMN ordinal;
  `);
};
