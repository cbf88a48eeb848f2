// The memory store's registry of issued tenants and test tenants: Maps in this process, forgotten when it ends (trying
// hosted mode out). Secrets are kept as SHA-256 digests only (issued-credentials.ts says why that hash); an access token
// is looked up by its digest, a key pair by its public key and then its secret key's digest compared in constant time.
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
} from './issued-credentials.js';
import { isRegistryTenant } from './tenant-revoked-error.js';
import { expiryAfterUse } from './test-tenants.js';
import type { CredentialHolder, IssuedCredentials, IssuedTenant, TenantRegistry, TestTenant } from './types.js';

interface Entry {
  record: IssuedTenant;
  access: Buffer;
  secret: Buffer;
  /** The digests of before the last rotation, which work until `record.previousExpiresAt`. */
  previous: { access: Buffer; secret: Buffer } | undefined;
  /** A test tenant's idle time, and when it expires unless used. */
  test?: { idleMs: number; expiresAt: number };
}

/** The memory registry, with what its store asks before it makes a tenant's state. */
export interface MemoryRegistry extends TenantRegistry {
  /** Whether `id` may have state: any id but a registry's, and a registry's tenant while live (parent not revoked). */
  holdsLive(id: string, now: number): boolean;
}

/** A found tenant and its merchant: a test tenant's parent, else the tenant itself. */
const holderOf = ({ record }: Entry): CredentialHolder => ({ tenant: record.id, merchant: record.parent ?? record.id });

/** A new, empty registry in memory. */
export function createMemoryRegistry(): MemoryRegistry {
  /** Oldest first. */
  const entries: Entry[] = [];
  const byId = new Map<string, Entry>();
  const byPublicKey = new Map<string, Entry>();
  /** By the base64url of an access token's digest, the current and the previous one alike, until revoked. */
  const byAccess = new Map<string, Entry>();
  const key = (access: Buffer) => access.toString('base64url');

  /** Whether the tenant takes the digest `given` of its current secret, or of its previous one before it expires. */
  const takes = (entry: Entry, given: Buffer, pick: 'access' | 'secret', now: number) => {
    if (entry.record.status !== 'active') return false;
    if (sameDigest(entry[pick], given)) return true;
    const expires = entry.record.previousExpiresAt;
    return expires !== null && now < expires && sameDigest(entry.previous?.[pick], given);
  };
  /** Whether the tenant is live: active, a test tenant before it expires and while its parent is not revoked. */
  const live = (entry: Entry, now: number) =>
    entry.record.status === 'active' &&
    (!entry.test || entry.test.expiresAt > now) &&
    byId.get(entry.record.parent ?? '')?.record.status !== 'revoked';
  /** Whether a found tenant lets the look-up in: a test tenant only while live, and the use moves its expiry. */
  const admits = (entry: Entry, now: number) => {
    if (!entry.test) return true;
    if (!live(entry, now)) return false;
    if (entry.test.expiresAt <= now) return false;
    entry.test.expiresAt = expiryAfterUse(entry.test, now);
    return true;
  };
  const make = (now: number, parent: string | null, test?: Entry['test']): IssuedCredentials => {
    const credentials = {
      id: newTenantId(),
      accessToken: newAccessToken(),
      publicKey: newPublicKey(),
      secretKey: newSecretKey(),
    };
    const entry: Entry = {
      record: {
        id: credentials.id,
        publicKey: credentials.publicKey,
        status: 'active',
        createdAt: now,
        rotatedAt: null,
        previousExpiresAt: null,
        revokedAt: null,
        parent,
      },
      access: digest(credentials.accessToken),
      secret: digest(credentials.secretKey),
      previous: undefined,
      ...(test ? { test } : {}),
    };
    entries.push(entry);
    byId.set(credentials.id, entry);
    byPublicKey.set(credentials.publicKey, entry);
    byAccess.set(key(entry.access), entry);
    return credentials;
  };
  /** An admin API tenant (never a test tenant), which list, rotate and revoke work on. */
  const issued = (id: string) => {
    const entry = byId.get(id);
    return entry?.record.parent === null ? entry : undefined;
  };
  const stop = (entry: Entry, now: number) => {
    entry.record = { ...entry.record, status: 'revoked', revokedAt: now };
    byAccess.delete(key(entry.access));
    if (entry.previous) byAccess.delete(key(entry.previous.access));
  };
  const testsOf = (parent: string, now: number) =>
    entries.filter((e) => e.record.parent === parent && e.record.status === 'active' && e.test!.expiresAt > now);
  const testView = ({ record, test }: Entry): TestTenant => ({
    id: record.id,
    publicKey: record.publicKey,
    createdAt: record.createdAt,
    expiresAt: test!.expiresAt,
  });

  return {
    async create(now) {
      return make(now, null);
    },

    async list({ limit, startingAfter }) {
      checkLimit(limit);
      const own = entries.filter((e) => e.record.parent === null);
      let from = own.length - 1;
      if (startingAfter !== undefined) {
        const after = issued(startingAfter);
        if (!after) return undefined;
        from = own.indexOf(after) - 1;
      }
      const tenants: IssuedTenant[] = [];
      for (let index = from; index >= 0 && tenants.length < limit; index -= 1) tenants.push({ ...own[index]!.record });
      return { tenants, hasMore: from - tenants.length >= 0 };
    },

    async get(id) {
      const entry = byId.get(id);
      return entry && { ...entry.record };
    },

    async rotate(id, overlapSeconds, now) {
      checkOverlap(overlapSeconds);
      const entry = issued(id);
      if (!entry) return undefined;
      if (entry.record.status === 'revoked') return 'revoked';
      const accessToken = newAccessToken();
      const secretKey = newSecretKey();
      // Note: the pair an earlier rotation replaced stops here, whatever its expiry said.
      if (entry.previous) byAccess.delete(key(entry.previous.access));
      entry.previous = { access: entry.access, secret: entry.secret };
      entry.access = digest(accessToken);
      entry.secret = digest(secretKey);
      byAccess.set(key(entry.access), entry);
      const previousExpiresAt = now + overlapSeconds * 1000;
      entry.record = { ...entry.record, rotatedAt: now, previousExpiresAt };
      return { id, accessToken, publicKey: entry.record.publicKey, secretKey, previousExpiresAt };
    },

    async revoke(id, now) {
      const entry = issued(id);
      if (!entry) return false;
      if (entry.record.status === 'active') stop(entry, now);
      return true;
    },

    async createTest(parent, { max, idleMs }, now) {
      if (byId.get(parent)?.record.status === 'revoked') return 'revoked';
      if (testsOf(parent, now).length >= max) return 'limit_reached';
      const expiresAt = now + idleMs;
      return { ...make(now, parent, { idleMs, expiresAt }), expiresAt };
    },

    async listTests(parent, { limit, offset }, now) {
      const tests = testsOf(parent, now).reverse();
      return { tenants: tests.slice(offset, offset + limit).map(testView), total: tests.length };
    },

    async revokeTests(parent, now, id) {
      const mine = entries.filter(
        (e) => e.record.parent === parent && e.record.status === 'active' && (id === undefined || e.record.id === id),
      );
      for (const entry of mine) stop(entry, now);
      return mine.map((e) => e.record.id);
    },

    async expireTests(now, limit) {
      for (const entry of entries)
        if (entry.test && entry.record.status === 'active' && entry.test.expiresAt <= now) stop(entry, now);
      return entries
        .filter((e) => e.test && e.record.status === 'revoked')
        .slice(0, limit)
        .map((e) => e.record.id);
    },

    async purge(ids) {
      const gone = new Set(ids.filter((id) => byId.get(id)?.test && byId.get(id)?.record.status === 'revoked'));
      if (gone.size === 0) return;
      for (const id of gone) {
        byPublicKey.delete(byId.get(id)!.record.publicKey);
        byId.delete(id);
      }
      const kept = entries.filter((e) => !gone.has(e.record.id));
      entries.splice(0, entries.length, ...kept);
    },

    holdsLive(id, now) {
      if (!isRegistryTenant(id)) return true;
      const entry = byId.get(id);
      return entry !== undefined && live(entry, now);
    },

    async tenantOfAccessToken(token, now) {
      // Note: a token of another form was never issued; it costs no hash.
      if (!ACCESS_TOKEN.test(token)) return undefined;
      const given = digest(token);
      const entry = byAccess.get(key(given));
      return entry && takes(entry, given, 'access', now) && admits(entry, now) ? holderOf(entry) : undefined;
    },

    async tenantOfKeyPair(publicKey, secretKey, now) {
      if (!PUBLIC_KEY.test(publicKey)) return undefined;
      const entry = byPublicKey.get(publicKey);
      // Note: hashed whether or not the public key is known, so that the time taken says nothing of which it is.
      const given = digest(secretKey);
      return entry && takes(entry, given, 'secret', now) && admits(entry, now) ? holderOf(entry) : undefined;
    },
  };
}
