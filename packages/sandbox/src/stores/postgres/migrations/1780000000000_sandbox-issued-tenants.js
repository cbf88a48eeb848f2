// The tenants of issued mode (`auth: 'issued'`) and their credentials, which the admin API provisions
// (packages/sandbox/src/stores/postgres/registry.ts). Only SHA-256 digests of the access token and the secret key are kept.
// Note: times are wall-clock ms since the epoch as double precision, as in the other tables, from the sandbox's `now`.

/** Creates sandbox_issued_tenants. */
export const up = (pgm) => {
  pgm.sql(`
    CREATE TABLE sandbox_issued_tenants (
      id text PRIMARY KEY,
      position bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
      public_key text NOT NULL UNIQUE,
      access_token_digest bytea NOT NULL UNIQUE,
      secret_key_digest bytea NOT NULL,
      previous_access_token_digest bytea UNIQUE,
      previous_secret_key_digest bytea,
      previous_expires_at double precision,
      created_at double precision NOT NULL,
      rotated_at double precision,
      revoked_at double precision
    );
    COMMENT ON TABLE sandbox_issued_tenants IS
      'Tenants the admin API issued. A credential works while revoked_at is NULL; the previous pair until previous_expires_at.';
    COMMENT ON COLUMN sandbox_issued_tenants.position IS
      'Creation order, which lists go by (newest first), whatever the wall clock said.';
    COMMENT ON COLUMN sandbox_issued_tenants.access_token_digest IS
      'SHA-256 of the Variant A access token (32 random bytes); the token itself is never stored.';
    COMMENT ON COLUMN sandbox_issued_tenants.previous_expires_at IS
      'Wall time (ms since the epoch) until which the previous access token and secret key still work.';
  `);
};

/** Drops it again. */
export const down = (pgm) => {
  pgm.sql('DROP TABLE sandbox_issued_tenants;');
};
