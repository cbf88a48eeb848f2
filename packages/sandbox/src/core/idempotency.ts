// Idempotency-Key as the contract states it: scoped to the tenant and the operation, kept 24 hours on the tenant's
// clock from the answer; the same body replays the first answer, another body is 422, a key still in progress is 409.
import { hash } from 'node:crypto';
import { configure } from 'safe-stable-stringify';
import { failure, type Answer } from './answer.js';
import type { TenantState } from './tenant.js';
import { deepFreeze } from './freeze.js';

/** How long a key is kept: "at least 24 hours" (IdempotencyKey parameter). */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

/** How long a key in progress stays held on the wall clock unless renewed: several renewals long, yet within a client's retries of 409. */
export const IDEMPOTENCY_LEASE_MS = 30_000;

/** What to do with a request that carries a key. */
export type IdempotencyCheck = { kind: 'proceed' } | { kind: 'answer'; answer: Answer };

// Note: the fingerprint is taken before the request check, so a body nested thousands deep must not overflow the
// stack; no request the contract allows comes near this depth, so bodies that differ only below it are all refused.
const FINGERPRINT_DEPTH = 64;
const canonical = configure({ deterministic: true, maximumDepth: FINGERPRINT_DEPTH });

/** SHA-256 of a canonical text of a value (object keys sorted), so that the same body has the same fingerprint. */
export function fingerprint(value: unknown): string {
  return hash('sha256', canonical(value) ?? '', 'base64');
}

/** The 422 answer to a key sent again with another request. */
export const keyReused = () =>
  failure(
    'idempotency_key_reused',
    'This Idempotency-Key was used with a different request; use a new key for a new operation.',
  );

/** The 409 answer to a key whose first request is still in progress. */
export const keyInProgress = () =>
  failure(
    'idempotency_request_in_progress',
    'A request with this Idempotency-Key is still being processed; retry after a short wait.',
  );

/** Where a key is kept: scoped to the operation (the tenant's records are the tenant's own). */
export const keyScope = (operation: string, key: string) => `${operation}\u0000${key}`;

/**
 * Looks a key up: the answer to give at once (replay, 409, 422), or `proceed` after marking the key in progress, held
 * until `wallNow` plus the lease; a key whose holder let its lease pass is taken anew by a request with the same body.
 */
export function beginIdempotent(
  tenant: TenantState,
  operation: string,
  key: string,
  print: string,
  now: number,
  wallNow: number,
): IdempotencyCheck {
  const scope = keyScope(operation, key);
  const stored = tenant.idempotency.get(scope);
  // Note: a record whose retention ran out is as good as gone; the store's sweep (or the memory store's) deletes it.
  const record = stored?.answer && stored.expires <= now ? undefined : stored;
  // Note: a record in progress with no lease was written before leases existed, by a holder long gone.
  const abandoned = record !== undefined && !record.answer && (record.heldUntil ?? -Infinity) <= wallNow;
  if (!record || (abandoned && record.fingerprint === print)) {
    tenant.idempotency.set(scope, {
      fingerprint: print,
      expires: Infinity,
      answer: undefined,
      heldUntil: wallNow + IDEMPOTENCY_LEASE_MS,
    });
    return { kind: 'proceed' };
  }
  if (record.fingerprint !== print) {
    return { kind: 'answer', answer: keyReused() };
  }
  if (!record.answer) {
    return { kind: 'answer', answer: keyInProgress() };
  }
  return { kind: 'answer', answer: { ...record.answer, replayed: true } };
}

/** Keeps the first answer of a key, for replays, for the retention from `now` (the answer's time on the tenant's clock). */
export function completeIdempotent(
  tenant: TenantState,
  operation: string,
  key: string,
  answer: Answer,
  now: number,
): void {
  const scope = keyScope(operation, key);
  const record = tenant.idempotency.get(scope);
  if (!record) return;
  record.answer = deepFreeze(answer);
  record.expires = now + IDEMPOTENCY_RETENTION_MS;
  delete record.heldUntil;
  // Note: to the end of the Map, which keeps answered records in expiry order for pruneIdempotency.
  tenant.idempotency.delete(scope);
  tenant.idempotency.set(scope, record);
}

/** Extends the lease of a key still in progress from `wallNow`; false when the key is no longer in progress (answered or let go). */
export function renewIdempotent(tenant: TenantState, operation: string, key: string, wallNow: number): boolean {
  const record = tenant.idempotency.get(keyScope(operation, key));
  if (!record || record.answer) return false;
  record.heldUntil = wallNow + IDEMPOTENCY_LEASE_MS;
  tenant.idempotency.set(keyScope(operation, key), record);
  return true;
}

/** Forgets a key whose first request ended without an answer worth replaying (it failed inside the service). */
export function releaseIdempotent(tenant: TenantState, operation: string, key: string): void {
  tenant.idempotency.delete(keyScope(operation, key));
}
