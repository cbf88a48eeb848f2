// Idempotency-Key as the contract states it: scoped to the tenant and the operation, kept 24 hours on the tenant's
// clock; the same body replays the first answer, another body is 422, a key still in progress is 409.
import { hash } from 'node:crypto';
import { configure } from 'safe-stable-stringify';
import { failure, type Answer } from './answer.js';
import type { TenantState } from './tenant.js';
import { deepFreeze } from './freeze.js';

/** How long a key is kept: "at least 24 hours" (IdempotencyKey parameter). */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

/** What is kept for one key. */
export interface IdempotencyRecord {
  fingerprint: string;
  /** When the record is forgotten, on the tenant's clock (ms). */
  expires: number;
  /** The first answer, frozen (its body shares the record version it returned); absent while still in progress. */
  answer?: Answer;
}

/** What to do with a request that carries a key. */
export type IdempotencyCheck = { kind: 'proceed' } | { kind: 'answer'; answer: Answer };

const canonical = configure({ deterministic: true });

/** SHA-256 of a canonical text of a value (object keys sorted), so that the same body has the same fingerprint. */
export function fingerprint(value: unknown): string {
  return hash('sha256', canonical(value) ?? '', 'base64');
}

const scoped = (operation: string, key: string) => `${operation}\u0000${key}`;

/** Forgets every record whose retention has run out. */
export function pruneIdempotency(tenant: TenantState, now: number): void {
  // Note: records are inserted as time moves forward, so the Map's order is also expiry order.
  for (const [key, record] of tenant.idempotency) {
    if (record.expires > now) break;
    tenant.idempotency.delete(key);
  }
}

/** Looks a key up: the answer to give at once (replay, 409, 422), or `proceed` after marking the key in progress. */
export function beginIdempotent(tenant: TenantState, operation: string, key: string, print: string, now: number): IdempotencyCheck {
  pruneIdempotency(tenant, now);
  const record = tenant.idempotency.get(scoped(operation, key));
  if (!record) {
    tenant.idempotency.set(scoped(operation, key), { fingerprint: print, expires: now + IDEMPOTENCY_RETENTION_MS, answer: undefined });
    return { kind: 'proceed' };
  }
  if (record.fingerprint !== print) {
    return { kind: 'answer', answer: failure('idempotency_key_reused', 'This Idempotency-Key was used with a different request; use a new key for a new operation.') };
  }
  if (!record.answer) {
    return { kind: 'answer', answer: failure('idempotency_request_in_progress', 'A request with this Idempotency-Key is still being processed; retry after a short wait.') };
  }
  return { kind: 'answer', answer: { ...record.answer, replayed: true } };
}

/** Keeps the first answer of a key, for replays. */
export function completeIdempotent(tenant: TenantState, operation: string, key: string, answer: Answer): void {
  const record = tenant.idempotency.get(scoped(operation, key));
  if (record) record.answer = deepFreeze(answer);
}

/** Forgets a key whose first request ended without an answer worth replaying (it failed inside the service). */
export function releaseIdempotent(tenant: TenantState, operation: string, key: string): void {
  tenant.idempotency.delete(scoped(operation, key));
}
