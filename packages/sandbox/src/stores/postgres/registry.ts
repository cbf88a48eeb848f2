// The postgres store's registry of issued tenants and test tenants: one table (migrations/1780000000000_sandbox-issued-
// tenants.js, and 1800000000000_sandbox-test-tenants.js for test tenants) on the store's pool. Every look-up is a query, with no cache in the instance, so that every instance on the database
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
import { movesExpiry } from '../test-tenants.js';
import type { CredentialHolder, IssuedTenant, TenantRegistry } from '../types.js';
import type { PostgresPool } from './pool.js';
import { deleteTenantRows, inTransaction } from './tenant-rows.js';

const RECORD = 'id, public_key, created_at, rotated_at, previous_expires_at, revoked_at, parent_id';
const INSERT = `INSERT INTO sandbox_issued_tenants (id, public_key, access_token_digest, secret_key_digest, created_at, parent_id, idle_ms, expires_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`;
// Note: the admin API's list, rotate and revoke work on its own tenants only; a test tenant is its parent's business.
const NEWEST = `SELECT ${RECORD} FROM sandbox_issued_tenants WHERE parent_id IS NULL ORDER BY position DESC LIMIT $1`;
const POSITION = 'SELECT position FROM sandbox_issued_tenants WHERE id = $1 AND parent_id IS NULL';
const OLDER = `SELECT ${RECORD} FROM sandbox_issued_tenants WHERE parent_id IS NULL AND position < $1 ORDER BY position DESC LIMIT $2`;
const ONE = `SELECT ${RECORD} FROM sandbox_issued_tenants WHERE id = $1`;
// Note: the right-hand sides read the row as it was, so the current pair becomes the previous one in one statement.
const ROTATE = `UPDATE sandbox_issued_tenants SET previous_access_token_digest = access_token_digest, previous_secret_key_digest = secret_key_digest,
  access_token_digest = $2, secret_key_digest = $3, previous_expires_at = $4, rotated_at = $5
  WHERE id = $1 AND parent_id IS NULL AND revoked_at IS NULL RETURNING public_key`;
const ADMIN_ONE = 'SELECT 1 FROM sandbox_issued_tenants WHERE id = $1 AND parent_id IS NULL';
const REVOKE =
  'UPDATE sandbox_issued_tenants SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1 AND parent_id IS NULL';
// Note: every test tenant of the parent, those revoked and not yet purged included, so that their rows go too.
const REVOKE_CHILDREN =
  'UPDATE sandbox_issued_tenants SET revoked_at = COALESCE(revoked_at, $2) WHERE parent_id = $1 RETURNING id';
// Note: an expired test tenant is refused here already, before the sweep revokes it, and so is one whose parent was revoked.
const LIVE = `revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2) AND NOT EXISTS (
  SELECT 1 FROM sandbox_issued_tenants p WHERE p.id = sandbox_issued_tenants.parent_id AND p.revoked_at IS NOT NULL)`;
const BY_ACCESS = `SELECT id, parent_id, access_token_digest, previous_access_token_digest, previous_expires_at, idle_ms, expires_at FROM sandbox_issued_tenants
  WHERE ${LIVE} AND (access_token_digest = $1 OR previous_access_token_digest = $1)`;
const BY_PUBLIC_KEY = `SELECT id, parent_id, secret_key_digest, previous_secret_key_digest, previous_expires_at, idle_ms, expires_at FROM sandbox_issued_tenants
  WHERE ${LIVE} AND public_key = $1`;
const TOUCH = 'UPDATE sandbox_issued_tenants SET expires_at = $2 + idle_ms WHERE id = $1 AND revoked_at IS NULL';
// Note: a transaction-scoped lock per parent, so that two creates on two instances can't both see room for one.
const LOCK_PARENT = "SELECT pg_advisory_xact_lock(hashtext('sandbox test tenants ' || $1))";
// Note: held until the new test tenant commits, so that a revoke of the parent (which updates this row first, then its
// test tenants) waits for it and revokes it too, or is seen here; an open-mode parent has no row.
const PARENT = 'SELECT revoked_at FROM sandbox_issued_tenants WHERE id = $1 FOR SHARE';
const ACTIVE_TESTS =
  'SELECT count(*)::int AS n FROM sandbox_issued_tenants WHERE parent_id = $1 AND revoked_at IS NULL AND expires_at > $2';
const TESTS = `SELECT id, public_key, created_at, expires_at FROM sandbox_issued_tenants
  WHERE parent_id = $1 AND revoked_at IS NULL AND expires_at > $2 ORDER BY position DESC LIMIT $3 OFFSET $4`;
const REVOKE_TESTS = `UPDATE sandbox_issued_tenants SET revoked_at = $2
  WHERE parent_id = $1 AND revoked_at IS NULL AND ($3::text IS NULL OR id = $3) RETURNING id`;
const EXPIRE =
  'UPDATE sandbox_issued_tenants SET revoked_at = $1 WHERE parent_id IS NOT NULL AND revoked_at IS NULL AND expires_at <= $1';
const REVOKED_TESTS =
  'SELECT id FROM sandbox_issued_tenants WHERE parent_id IS NOT NULL AND revoked_at IS NOT NULL ORDER BY position LIMIT $1';
const PURGE =
  'DELETE FROM sandbox_issued_tenants WHERE id = ANY($1) AND parent_id IS NOT NULL AND revoked_at IS NOT NULL';

type Row = Record<string, unknown>;

const record = (row: Row): IssuedTenant => ({
  id: row.id as string,
  publicKey: row.public_key as string,
  status: row.revoked_at === null ? 'active' : 'revoked',
  createdAt: row.created_at as number,
  rotatedAt: row.rotated_at as number | null,
  previousExpiresAt: row.previous_expires_at as number | null,
  revokedAt: row.revoked_at as number | null,
  parent: row.parent_id as string | null,
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

  /** Runs `work` on one client inside BEGIN and COMMIT. */
  async function transaction<T>(
    work: (run: (text: string, values: unknown[]) => Promise<{ rows: Row[] }>) => Promise<T>,
  ) {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work((text, values) => client.query(text, values));
      await client.query('COMMIT');
      client.release();
      return result;
    } catch (error) {
      // Note: the connection is dropped rather than reused, whatever state the failed transaction left it in.
      client.release(error as Error);
      throw error;
    }
  }
  const insert = (run: typeof query, now: number, parent: string | null, idleMs: number | null) => {
    const credentials = {
      id: newTenantId(),
      accessToken: newAccessToken(),
      publicKey: newPublicKey(),
      secretKey: newSecretKey(),
    };
    const expiresAt = idleMs === null ? null : now + idleMs;
    const values = [credentials.id, credentials.publicKey, digest(credentials.accessToken)];
    return run(INSERT, [...values, digest(credentials.secretKey), now, parent, idleMs, expiresAt]).then(() => ({
      ...credentials,
      expiresAt,
    }));
  };
  /** The tenant of a found row and its merchant, after moving a test tenant's expiry when its use is past the precision. */
  async function used(row: Row, now: number): Promise<CredentialHolder> {
    const idleMs = row.idle_ms as number | null;
    if (idleMs !== null && movesExpiry({ idleMs, expiresAt: row.expires_at as number }, now))
      await query(TOUCH, [row.id, now]);
    return { tenant: row.id as string, merchant: (row.parent_id as string | null) ?? (row.id as string) };
  }

  return {
    async create(now) {
      const { expiresAt: _none, ...credentials } = await insert(query, now, null, null);
      return credentials;
    },

    async createTest(parent, { max, idleMs }, now) {
      return transaction(async (run) => {
        await run(LOCK_PARENT, [parent]);
        const held = (await run(PARENT, [parent])).rows[0];
        if (held && held.revoked_at !== null) return 'revoked' as const;
        const { n } = (await run(ACTIVE_TESTS, [parent, now])).rows[0]!;
        if ((n as number) >= max) return 'limit_reached' as const;
        const made = await insert(run as typeof query, now, parent, idleMs);
        return { ...made, expiresAt: made.expiresAt! };
      });
    },

    async listTests(parent, { limit, offset }, now) {
      const total = (await query(ACTIVE_TESTS, [parent, now])).rows[0]!.n as number;
      const { rows } = total > offset ? await query(TESTS, [parent, now, limit, offset]) : { rows: [] };
      const tenants = rows.map((row) => ({
        id: row.id as string,
        publicKey: row.public_key as string,
        createdAt: row.created_at as number,
        expiresAt: row.expires_at as number,
      }));
      return { tenants, total };
    },

    async revokeTests(parent, now, id) {
      return (await query(REVOKE_TESTS, [parent, now, id ?? null])).rows.map((row) => row.id as string);
    },

    async expireTests(now, limit) {
      await query(EXPIRE, [now]);
      return (await query(REVOKED_TESTS, [limit])).rows.map((row) => row.id as string);
    },

    async purge(ids) {
      if (ids.length > 0) await query(PURGE, [ids]);
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
      return (await query(ADMIN_ONE, [id])).rows[0] ? 'revoked' : undefined;
    },

    // Note: one transaction, so that a row made for the tenant or a test tenant of it (tenant-rows.ts holds their
    // registry rows FOR SHARE while it makes one) either committed before the updates here and is deleted below, or
    // sees the revocation; the test tenants' records go with their rows.
    async revoke(id, now) {
      return inTransaction(pool, async (client) => {
        if (((await client.query(REVOKE, [id, now])).rowCount ?? 0) === 0) return false;
        const tests = (await client.query(REVOKE_CHILDREN, [id, now])).rows.map((row) => row.id as string);
        await deleteTenantRows(client, [id, ...tests]);
        await client.query(PURGE, [tests]);
        return true;
      });
    },

    async tenantOfAccessToken(token, now) {
      // Note: a token of another form was never issued; it costs no query.
      if (!ACCESS_TOKEN.test(token)) return undefined;
      const given = digest(token);
      const row = (await query(BY_ACCESS, [given, now])).rows[0];
      return row && takes(row, given, 'access_token_digest', 'previous_access_token_digest', now)
        ? used(row, now)
        : undefined;
    },

    async tenantOfKeyPair(publicKey, secretKey, now) {
      if (!PUBLIC_KEY.test(publicKey)) return undefined;
      const given = digest(secretKey);
      const row = (await query(BY_PUBLIC_KEY, [publicKey, now])).rows[0];
      return row && takes(row, given, 'secret_key_digest', 'previous_secret_key_digest', now)
        ? used(row, now)
        : undefined;
    },
  };
}
