// How a request is answered when PostgreSQL stopped one of its statements at the sandbox's bounds on every
// connection (stores/connection-bounds.ts): statement_timeout (SQLSTATE 57014) or lock_timeout (55P03). The store
// writes each command in one statement, so a stopped one wrote nothing, and the answer says that a retry is safe.
import { httpProblem, type ProblemInput } from './problem.js';

/** Which bound stopped a statement. */
export type StoppedBy = 'statement_timeout' | 'lock_timeout';

const BY_CODE: Record<string, StoppedBy> = { '57014': 'statement_timeout', '55P03': 'lock_timeout' };

/** The bound that stopped the statement behind `error` (a `pg` error, or one that has it as its cause), if any. */
export function stoppedBy(error: unknown): StoppedBy | undefined {
  for (let at = error, depth = 0; at instanceof Error && depth < 3; at = at.cause, depth += 1) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string' && Object.hasOwn(BY_CODE, code)) return BY_CODE[code];
  }
  return undefined;
}

/** Seconds a client waits before retrying a request stopped at a lock: the lock is another request's, held briefly. */
const LOCK_RETRY_AFTER = 1;

/**
 * The answer to a stopped request: a lock wait is 429 `rate_limited` with Retry-After where the API declares 429
 * (`throttles`), a statement that ran too long is 500 `internal_error`, which the contract says is safe to retry.
 */
export function stoppedAnswer(
  stopped: StoppedBy,
  throttles: boolean,
): { problem: ProblemInput; headers: Record<string, string> } {
  const safe =
    'nothing this request had not committed was written, and it is safe to retry with the same Idempotency-Key';
  if (stopped === 'lock_timeout' && throttles)
    return {
      problem: httpProblem(
        'rate_limited',
        `This request waited too long for a lock another request of its tenant holds; ${safe}: retry after ${LOCK_RETRY_AFTER} s (Retry-After).`,
      ),
      headers: { 'retry-after': String(LOCK_RETRY_AFTER) },
    };
  const what =
    stopped === 'lock_timeout'
      ? 'waited longer for a lock than the sandbox lets a statement wait (lock_timeout)'
      : 'ran longer than the sandbox lets a statement run (statement_timeout)';
  return {
    problem: httpProblem('internal_error', `A statement of this request ${what} and was stopped; ${safe}.`),
    headers: {},
  };
}
