// The lease of a key in progress (IdempotencyRecord.heldUntil), so that a key whose holder died is taken again.
// Note: NULL for an answered key; a key left in progress before this column existed reads as abandoned.

/** Adds sandbox_idempotency.held_until. */
export const up = (pgm) => {
  pgm.sql(`
    ALTER TABLE sandbox_idempotency ADD COLUMN held_until double precision;
    COMMENT ON COLUMN sandbox_idempotency.held_until IS
      'Wall time (ms since the epoch) until which the holder of a key in progress is taken to be alive; NULL once answered.';
  `);
};

/** Drops it again. */
export const down = (pgm) => {
  pgm.sql('ALTER TABLE sandbox_idempotency DROP COLUMN held_until;');
};
