// The store's maintenance, as graphile-worker and pg-boss run theirs: Idempotency-Key records whose retention ran out
// on their tenant's clock are deleted in short batches, by one instance at a time. A command already reads such a
// record as gone (core/idempotency.ts), so the sweep only gives the rows back; it never changes an answer.
import type { PostgresPool } from './pool.js';

/** How many records one statement deletes, so that each of the sweep's transactions stays short. */
export const SWEEP_BATCH = 1_000;
// Note: another lock than the migrations' and the tenant count's; an instance that does not get it leaves the sweep to
// the one that has it.
const SWEEP_LOCK = '7241865325823967';
const EXPIRED = `DELETE FROM sandbox_idempotency WHERE ctid IN (
    SELECT i.ctid FROM sandbox_idempotency i JOIN sandbox_tenants t ON t.id = i.tenant_id
    WHERE i.answer IS NOT NULL AND i.expires_at <= t.time LIMIT $1)`;

/** Deletes the answered Idempotency-Key records past their retention; how many (0 when another instance is sweeping). */
export async function sweepExpiredKeys(db: PostgresPool): Promise<number> {
  const client = await db.connect();
  try {
    const { rows } = await client.query('SELECT pg_try_advisory_lock($1::bigint) AS locked', [SWEEP_LOCK]);
    if (rows[0]!.locked !== true) return 0;
    try {
      let total = 0;
      for (let batch = SWEEP_BATCH; batch === SWEEP_BATCH;) {
        batch = (await client.query(EXPIRED, [SWEEP_BATCH])).rowCount ?? 0;
        total += batch;
      }
      return total;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1::bigint)', [SWEEP_LOCK]);
    }
  } finally {
    client.release();
  }
}
