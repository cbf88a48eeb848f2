// Credentials to tenants: each credential names one tenant, by a hash, so that neither the state file nor an error
// message ever holds a credential. Variant B's first secret key per public key is remembered, also by its hash.
import { hash, timingSafeEqual } from 'node:crypto';

/** The tenant that a credential of a variant names (`a_…` for a bearer token, `b_…` for a public key). */
export function tenantIdOf(variant: 'a' | 'b', credential: string): string {
  return `${variant}_${hash('sha256', credential, 'base64url').slice(0, 22)}`;
}

const digest = (secret: string) => hash('sha256', secret, 'buffer');

/** Variant B's key pairs: the secret key first seen with each public key's tenant, kept as a SHA-256 digest. */
export interface KeyMemory {
  /** Whether `secret` is the tenant's secret key: the first one seen becomes it (`learned`, a change to save). */
  pair(tenant: string, secret: string): 'learned' | 'known' | 'wrong';
  /** Forgets a tenant's secret key (a reset tenant takes the next one it sees). */
  forget(tenant: string): void;
  /** The digests by tenant, for the state file. */
  entries(): [string, Uint8Array][];
}

/** A key memory, optionally restored from a state file's entries. */
export function createKeyMemory(initial: Iterable<[string, Uint8Array]> = []): KeyMemory {
  const digests = new Map<string, Uint8Array>(initial);
  return {
    pair(tenant, secret) {
      const given = digest(secret);
      const known = digests.get(tenant);
      if (!known) {
        digests.set(tenant, given);
        return 'learned';
      }
      return timingSafeEqual(known, given) ? 'known' : 'wrong';
    },
    forget: (tenant) => void digests.delete(tenant),
    entries: () => [...digests],
  };
}
