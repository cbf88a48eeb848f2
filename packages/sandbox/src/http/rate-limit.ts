// The per-merchant rate limit: a token bucket per merchant (a tenant and its test tenants share one), in this instance
// only (several instances behind one address each keep their own buckets, so a merchant may get up to n times the rate
// from n instances).
import { httpProblem, type ProblemInput } from './problem.js';

/** How many buckets may be kept before the idle ones (refilled to full, so the same as none) are dropped. */
const SWEEP_AT = 10_000;

/** A request's turn: taken, or refused with the seconds to wait and the 429's headers. */
export type RateTurn = { ok: true } | { ok: false; problem: ProblemInput; headers: Record<string, string> };

/** A per-merchant token bucket of `rate` requests per second (a burst of a second's worth) on the wall clock `now`. */
export interface RateLimiter {
  /** Takes a token of the merchant's bucket; with `refuse` false it only spends one when there is one. */
  take(merchant: string, refuse: boolean): RateTurn;
  /** How many buckets are kept (for the bound's test). */
  readonly size: number;
}

/** The rate limiter of `rate` requests per second per merchant. */
export function createRateLimiter(rate: number, now: () => number): RateLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>();
  let sweepAt = SWEEP_AT;
  const refill = (bucket: { tokens: number; at: number }, at: number) => {
    bucket.tokens = Math.min(rate, bucket.tokens + (Math.max(0, at - bucket.at) / 1000) * rate);
    bucket.at = at;
  };
  const sweep = (at: number) => {
    for (const [tenant, bucket] of buckets) {
      refill(bucket, at);
      if (bucket.tokens >= rate) buckets.delete(tenant);
    }
    // Note: doubled when most buckets are busy, so that a sweep costs a constant per request on average.
    sweepAt = Math.max(SWEEP_AT, buckets.size * 2);
  };
  return {
    get size() {
      return buckets.size;
    },
    take(merchant, refuse) {
      const at = now();
      let bucket = buckets.get(merchant);
      if (!bucket) {
        if (buckets.size >= sweepAt) sweep(at);
        bucket = { tokens: rate, at };
        buckets.set(merchant, bucket);
      } else refill(bucket, at);
      if (bucket.tokens >= 1 || !refuse) {
        bucket.tokens = Math.max(0, bucket.tokens - 1);
        return { ok: true };
      }
      const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / rate));
      const detail = `This merchant (a tenant and its test tenants) is over the sandbox's rate limit of ${rate} requests per second; retry after ${retryAfter} s (Retry-After).`;
      return {
        ok: false,
        problem: httpProblem('rate_limited', detail),
        headers: {
          'retry-after': String(retryAfter),
          'ratelimit-policy': `"default";q=${rate};w=1`,
          ratelimit: `"default";r=0;t=${retryAfter}`,
        },
      };
    },
  };
}
