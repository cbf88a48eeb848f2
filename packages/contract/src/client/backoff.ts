// How long to wait before the next attempt: exponential backoff with full jitter, or what Retry-After asks, both capped.
import type { RetryPolicy } from './options.js';

// Note: these say the request itself can never succeed there (not implemented, HTTP version, network login).
const PERMANENT_5XX = new Set([501, 505, 511]);

/** The problem code a 409 carries while the first request with the same Idempotency-Key is still running. */
export const IN_PROGRESS_CODE = 'idempotency_request_in_progress';

/** Statuses worth another attempt whatever the body: rate limited, or a transient failure on the service's side. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && !PERMANENT_5XX.has(status));
}

/** Wait before attempt `failedAttempt + 1`: a random time up to min(maxDelayMs, baseDelayMs * 2^(failedAttempt-1)). */
export function backoffDelay(
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs' | 'jitter' | 'random'>,
  failedAttempt: number,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (failedAttempt - 1));
  return policy.jitter ? Math.floor(policy.random() * ceiling) : ceiling;
}

/** Milliseconds a Retry-After value asks for (delay-seconds or an HTTP-date), or undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Wait after a response: Retry-After on 429, 409 and 503 when present, otherwise backoff; never more than maxDelayMs. */
export function responseDelay(policy: RetryPolicy, failedAttempt: number, response: Response): number {
  const honours = response.status === 429 || response.status === 409 || response.status === 503;
  const asked = honours ? parseRetryAfter(response.headers.get('retry-after')) : undefined;
  // Note: a Retry-After above maxDelayMs is cut to it, so a buggy or hostile header cannot stall the caller;
  // the service may answer 429 again, which uses up an attempt.
  return asked === undefined ? backoffDelay(policy, failedAttempt) : Math.min(asked, policy.maxDelayMs);
}
