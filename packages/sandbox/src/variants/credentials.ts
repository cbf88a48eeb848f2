// Credentials to tenants. In open mode each credential names one tenant, by a hash, so that neither the store nor an
// error message ever holds a credential; Variant B's first secret key per public key is kept in the tenant's state,
// also by its hash, so that every store keeps it and a reset forgets it with the rest of the tenant. In issued mode the
// registry names the tenant (its `ten_…` id, the same for both variants), and every refusal reads alike.
import { hash, timingSafeEqual } from 'node:crypto';
import type { TenantHead } from '../core/index.js';
import type { CredentialHolder } from '../stores/types.js';
import type { Authentication } from './operation.js';

/** The tenant that a credential of a variant names (`a_…` for a bearer token, `b_…` for a public key). */
export function tenantIdOf(variant: 'a' | 'b', credential: string): string {
  return `${variant}_${hash('sha256', credential, 'base64url').slice(0, 22)}`;
}

/** Whether `secret` is the tenant's secret key: the first one seen becomes it (`learned`). Runs inside a transaction. */
export function pairSecret(tenant: TenantHead, secret: string): 'learned' | 'known' | 'wrong' {
  const given = hash('sha256', secret, 'buffer');
  if (tenant.secretKeyDigest === undefined) {
    tenant.secretKeyDigest = given.toString('base64url');
    return 'learned';
  }
  return timingSafeEqual(Buffer.from(tenant.secretKeyDigest, 'base64url'), given) ? 'known' : 'wrong';
}

/**
 * The one detail of every refusal in issued mode, whatever was wrong (no credential, an unknown one, a revoked tenant,
 * an expired previous one, a wrong secret key), so that it never tells whether a tenant or a key exists.
 */
export const NOT_ISSUED =
  'These credentials are not those of a tenant of this sandbox; its operator issues them (merchant-payments sandbox tenant create).';

/**
 * Open mode's refusal of a credential of the form the sandbox issues (`sbx_at_…`, `sbx_pk_…`) that names no live test
 * tenant: such a credential was a test tenant's, so a request with it must not land in a new, empty tenant unnoticed.
 */
export const NOT_A_TEST_TENANT =
  "These credentials have the form of a test tenant's (sbx_…), and no test tenant of this sandbox has them: it was deleted or expired, or the secret key is not its own. Make a test tenant with POST /_sandbox/tenants, or use credentials of another form, each a tenant of its own.";

/** Issued mode's answer: the registry's tenant with its merchant, or the one refusal. */
export const issuedAuthentication = (holder: CredentialHolder | undefined): Authentication =>
  holder === undefined ? { ok: false, detail: NOT_ISSUED } : { ok: true, ...holder };

/** Open mode's answer for a credential of its own: a tenant that is its own merchant. */
export const openAuthentication = (tenant: string): Authentication => ({ ok: true, tenant, merchant: tenant });
