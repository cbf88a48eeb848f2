// The memory store's registry of issued tenants: Maps in this process, forgotten when it ends (trying hosted mode out).
// Secrets are kept as SHA-256 digests only (issued-credentials.ts says why that hash); an access token is looked up by
// its digest, a key pair by its public key and then its secret key's digest compared in constant time.
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
import type { IssuedTenant, TenantRegistry } from './types.js';

interface Entry {
  record: IssuedTenant;
  /** Its place in creation order, from 0. */
  position: number;
  access: Buffer;
  secret: Buffer;
  /** The digests of before the last rotation, which work until `record.previousExpiresAt`. */
  previous: { access: Buffer; secret: Buffer } | undefined;
}

/** A new, empty registry in memory. */
export function createMemoryRegistry(): TenantRegistry {
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

  return {
    async create(now) {
      const credentials = {
        id: newTenantId(),
        accessToken: newAccessToken(),
        publicKey: newPublicKey(),
        secretKey: newSecretKey(),
      };
      const record: IssuedTenant = {
        id: credentials.id,
        publicKey: credentials.publicKey,
        status: 'active',
        createdAt: now,
        rotatedAt: null,
        previousExpiresAt: null,
        revokedAt: null,
      };
      const entry: Entry = {
        record,
        position: entries.length,
        access: digest(credentials.accessToken),
        secret: digest(credentials.secretKey),
        previous: undefined,
      };
      entries.push(entry);
      byId.set(record.id, entry);
      byPublicKey.set(record.publicKey, entry);
      byAccess.set(key(entry.access), entry);
      return credentials;
    },

    async list({ limit, startingAfter }) {
      checkLimit(limit);
      let from = entries.length - 1;
      if (startingAfter !== undefined) {
        const after = byId.get(startingAfter);
        if (!after) return undefined;
        from = after.position - 1;
      }
      const tenants: IssuedTenant[] = [];
      for (let index = from; index >= 0 && tenants.length < limit; index -= 1)
        tenants.push({ ...entries[index]!.record });
      return { tenants, hasMore: from - tenants.length >= 0 };
    },

    async get(id) {
      const entry = byId.get(id);
      return entry && { ...entry.record };
    },

    async rotate(id, overlapSeconds, now) {
      checkOverlap(overlapSeconds);
      const entry = byId.get(id);
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
      const entry = byId.get(id);
      if (!entry) return false;
      if (entry.record.status === 'revoked') return true;
      entry.record = { ...entry.record, status: 'revoked', revokedAt: now };
      byAccess.delete(key(entry.access));
      if (entry.previous) byAccess.delete(key(entry.previous.access));
      return true;
    },

    async tenantOfAccessToken(token, now) {
      // Note: a token of another form was never issued; it costs no hash.
      if (!ACCESS_TOKEN.test(token)) return undefined;
      const given = digest(token);
      const entry = byAccess.get(key(given));
      return entry && takes(entry, given, 'access', now) ? entry.record.id : undefined;
    },

    async tenantOfKeyPair(publicKey, secretKey, now) {
      if (!PUBLIC_KEY.test(publicKey)) return undefined;
      const entry = byPublicKey.get(publicKey);
      // Note: hashed whether or not the public key is known, so that the time taken says nothing of which it is.
      const given = digest(secretKey);
      return entry && takes(entry, given, 'secret', now) ? entry.record.id : undefined;
    },
  };
}
