// Issued mode's credentials: how they are made, and how a presented one is checked against what a registry keeps.
// Note: the access token and the secret key are 32 random bytes each, so they are kept as a plain SHA-256 hash, as
// GitHub and Stripe keep API keys: a slow password hash (scrypt, argon2) guards guessable human passwords, and would
// only make every request cost milliseconds here, where no guess of a 256-bit value can ever be checked against a hash.
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long the credentials a rotation replaces keep working, by default: a day. */
export const DEFAULT_OVERLAP_SECONDS = 86_400;
/** The longest overlap a rotation may give: seven days. */
export const MAX_OVERLAP_SECONDS = 604_800;

/** `ten_` and 22 base64url characters (16 random bytes). */
export const TENANT_ID = /^ten_[A-Za-z0-9_-]{22}$/;
/** `sbx_at_` and 43 base64url characters (32 random bytes). */
export const ACCESS_TOKEN = /^sbx_at_[A-Za-z0-9_-]{43}$/;
/** `sbx_pk_` and 22 base64url characters (16 random bytes). */
export const PUBLIC_KEY = /^sbx_pk_[A-Za-z0-9_-]{22}$/;
/** `sbx_sk_` and 43 base64url characters (32 random bytes). */
export const SECRET_KEY = /^sbx_sk_[A-Za-z0-9_-]{43}$/;

const random = (prefix: string, bytes: number) => `${prefix}${randomBytes(bytes).toString('base64url')}`;

/** A new tenant id. */
export const newTenantId = () => random('ten_', 16);
/** A new Variant A access token. */
export const newAccessToken = () => random('sbx_at_', 32);
/** A new Variant B public key. */
export const newPublicKey = () => random('sbx_pk_', 16);
/** A new Variant B secret key. */
export const newSecretKey = () => random('sbx_sk_', 32);

/** The SHA-256 of a secret: all a registry keeps of it, and what it looks an access token up by. */
export const digest = (secret: string): Buffer => hash('sha256', secret, 'buffer');

/** Whether two digests are the same, in time that does not depend on where they differ. */
export function sameDigest(kept: Uint8Array | null | undefined, given: Uint8Array): boolean {
  return kept !== null && kept !== undefined && kept.length === given.length && timingSafeEqual(kept, given);
}

/** Throws a RangeError unless `seconds` is a whole number from 0 to MAX_OVERLAP_SECONDS. */
export function checkOverlap(seconds: number): void {
  if (!(Number.isInteger(seconds) && seconds >= 0 && seconds <= MAX_OVERLAP_SECONDS)) {
    throw new RangeError(
      `overlap must be a whole number of seconds from 0 to ${MAX_OVERLAP_SECONDS}, got ${String(seconds)}.`,
    );
  }
}

/** Throws a RangeError unless `limit` is a page size from 1 to 100. */
export function checkLimit(limit: number): void {
  if (!(Number.isInteger(limit) && limit >= 1 && limit <= 100))
    throw new RangeError(`limit must be a whole number from 1 to 100, got ${String(limit)}.`);
}
