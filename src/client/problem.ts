// RFC 9457 problem details: the body of every error the contract describes, with helpers to narrow and print it.
import type { Problem } from '../../generated/types/shared.js';

// Problem is an error body (`status`, stable `code`, `title`, `detail`, `request_id`, and `errors` on validation
// failures); ProblemFieldError one violation inside `errors`.
export type { Problem, ProblemFieldError } from '../../generated/types/shared.js';

/** True when `value` is a Problem body; use it on `error` to tell a contract error from an unexpected body (e.g. a proxy's HTML). */
export function isProblem(value: unknown): value is Problem {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.type === 'string' &&
    typeof v.title === 'string' &&
    typeof v.status === 'number' &&
    typeof v.code === 'string' &&
    (v.errors === undefined || Array.isArray(v.errors))
  );
}

/** True when `value` is a Problem with the given stable `code`, e.g. `hasProblemCode(error, 'idempotency_key_reused')`. */
export function hasProblemCode<Code extends string>(value: unknown, code: Code): value is Problem & { code: Code } {
  return isProblem(value) && value.code === code;
}

/** One line for logs and messages: `422 validation_failed: <detail> [/amount: <detail>] (request_id req_…)`. */
export function describeProblem(problem: Problem): string {
  const fields = (problem.errors ?? []).map((e) => `${e.pointer}: ${e.detail}`).join('; ');
  const requestId = problem.request_id ? ` (request_id ${problem.request_id})` : '';
  return `${problem.status} ${problem.code}: ${problem.detail ?? problem.title}${fields ? ` [${fields}]` : ''}${requestId}`;
}
