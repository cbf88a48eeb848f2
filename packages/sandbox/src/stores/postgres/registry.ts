// The postgres store's registry of issued tenants: one table (migrations/1780000000000_sandbox-issued-tenants.js) on
// the store's pool. Every look-up is a query, with no cache in the instance, so that every instance on the database
// sees a tenant provisioned, rotated or revoked by another at once. Secrets are kept as SHA-256 digests only
// (issued-credentials.ts says why that hash); an access token is found by its digest (a unique index), a key pair by its
// public key, and the secret key's digest is then compared in constant time.
import {
  ACCESS_TOKEN,
  PUBLIC_KEY,
  checkLimit,
  checkOverlap,
  digest,
  newAccessToken,
  newPublicKey,
  newSecretKey,
  newTenantId,
  sameDigest,
} from '../issued-credentials.js';
import type { IssuedTenant, TenantRegistry } from '../types.js';
import type { PostgresPool } from './pool.js';

const RECORD = 'id, public_key, created_at, rotated_at, previous_expires_at, revoked_at';
const INSERT = `INSERT INTO sandbox_issued_tenants (id, public_key, access_token_digest, secret_key_digest, created_at) VALUES ($1, $2, $3, $4, $5)`;
const NEWEST = `SELECT ${RECORD} FROM sandbox_issued_tenants ORDER BY position DESC LIMIT $1`;
const POSITION = 'SELECT position FROM sandbox_issued_tenants WHERE id = $1';
const OLDER = `SELECT ${RECORD} FROM sandbox_issued_tenants WHERE position < $1 ORDER BY position DESC LIMIT $2`;
const ONE = `SELECT ${RECORD} FROM sandbox_issued_tenants WHERE id = $1`;
// Note: the right-hand sides read the row as it was, so the current pair becomes the previous one in one statement.
const ROTATE = `UPDATE sandbox_issued_tenants SET previous_access_token_digest = access_token_digest, previous_secret_key_digest = secret_key_digest,
  access_token_digest = $2, secret_key_digest = $3, previous_expires_at = $4, rotated_at = $5
  WHERE id = $1 AND revoked_at IS NULL RETURNING public_key`;
const REVOKE = 'UPDATE sandbox_issued_tenants SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1';
const BY_ACCESS = `SELECT id, access_token_digest, previous_access_token_digest, previous_expires_at FROM sandbox_issued_tenants
  WHERE revoked_at IS NULL AND (access_token_digest = $1 OR previous_access_token_digest = $1)`;
const BY_PUBLIC_KEY = `SELECT id, secret_key_digest, previous_secret_key_digest, previous_expires_at FROM sandbox_issued_tenants
  WHERE revoked_at IS NULL AND public_key = $1`;

type Row = Record<string, unknown>;

const record = (row: Row): IssuedTenant => ({
  id: row.id as string,
  publicKey: row.public_key as string,
  status: row.revoked_at === null ? 'active' : 'revoked',
  createdAt: row.created_at as number,
  rotatedAt: row.rotated_at as number | null,
  previousExpiresAt: row.previous_expires_at as number | null,
  revokedAt: row.revoked_at as number | null,
});

/** Whether a row found by a credential takes its digest `given`: the current one, or the previous one before it expires. */
function takes(row: Row, given: Buffer, current: string, previous: string, now: number): boolean {
  if (sameDigest(row[current] as Buffer, given)) return true;
  const expires = row.previous_expires_at as number | null;
  return expires !== null && now < expires && sameDigest(row[previous] as Buffer | null, given);
}

/** The registry of issued tenants in the database of `pool` (migrated by createPostgresStore). */
export function createPostgresRegistry(pool: PostgresPool): TenantRegistry {
  async function query(text: string, values: unknown[]): Promise<{ rows: Row[]; rowCount: number | null }> {
    const client = await pool.connect();
    try {
      const result = await client.query(text, values);
      client.release();
      return result;
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
  }

  return {
    async create(now) {
      const credentials = {
        id: newTenantId(),
        accessToken: newAccessToken(),
        publicKey: newPublicKey(),
        secretKey: newSecretKey(),
      };
      await query(INSERT, [
        credentials.id,
        credentials.publicKey,
        digest(credentials.accessToken),
        digest(credentials.secretKey),
        now,
      ]);
      return credentials;
    },

    async list({ limit, startingAfter }) {
      checkLimit(limit);
      let rows: Row[];
      if (startingAfter === undefined) {
        ({ rows } = await query(NEWEST, [limit + 1]));
      } else {
        const after = (await query(POSITION, [startingAfter])).rows[0];
        if (!after) return undefined;
        ({ rows } = await query(OLDER, [after.position, limit + 1]));
      }
      return { tenants: rows.slice(0, limit).map(record), hasMore: rows.length > limit };
    },

    async get(id) {
      const row = (await query(ONE, [id])).rows[0];
      return row && record(row);
    },

    async rotate(id, overlapSeconds, now) {
      checkOverlap(overlapSeconds);
      const accessToken = newAccessToken();
      const secretKey = newSecretKey();
      const previousExpiresAt = now + overlapSeconds * 1000;
      const row = (await query(ROTATE, [id, digest(accessToken), digest(secretKey), previousExpiresAt, now])).rows[0];
      if (row) return { id, accessToken, publicKey: row.public_key as string, secretKey, previousExpiresAt };
      return (await query(ONE, [id])).rows[0] ? 'revoked' : undefined;
    },

    async revoke(id, now) {
      return ((await query(REVOKE, [id, now])).rowCount ?? 0) > 0;
    },

    async tenantOfAccessToken(token, now) {
      // Note: a token of another form was never issued; it costs no query.
      if (!ACCESS_TOKEN.test(token)) return undefined;
      const given = digest(token);
      const row = (await query(BY_ACCESS, [given])).rows[0];
      return row && takes(row, given, 'access_token_digest', 'previous_access_token_digest', now)
        ? (row.id as string)
        : undefined;
    },

    async tenantOfKeyPair(publicKey, secretKey, now) {
      if (!PUBLIC_KEY.test(publicKey)) return undefined;
      const given = digest(secretKey);
      const row = (await query(BY_PUBLIC_KEY, [publicKey])).rows[0];
      return row && takes(row, given, 'secret_key_digest', 'previous_secret_key_digest', now)
        ? (row.id as string)
        : undefined;
    },
  };
}
