// The problem+json the contract answers a rejected request or a broken response with, built by packages/contract/src/shared/problem.ts.
import type { Problem } from '../../generated/types/shared.js';
import { problemDetails } from '../shared/problem.js';
import type { RequestValidation } from './request.js';
import type { Violation } from './types.js';

/** Where a problem occurred, for the helpers below. */
export interface ProblemContext {
  instance?: string;
  requestId?: string;
}

/** Where a violation is, when its detail does not say: the pointer into the body. */
const located = (violation: Violation) =>
  violation.in === 'body' && violation.pointer ? `${violation.pointer}: ${violation.detail}` : violation.detail;

/** The problem for a rejected request: the status and code validateRequest chose, every violation in `errors`. */
export function requestProblem(
  rejection: Extract<RequestValidation, { ok: false }>,
  context: ProblemContext = {},
): Problem {
  const { status, code, violations } = rejection;
  const [first] = violations;
  const detail =
    violations.length === 1 && first
      ? located(first)
      : `The request breaks the contract in ${violations.length} places; see errors.`;
  return problemDetails({ ...context, code, status, detail, errors: violations });
}

/**
 * The 500 `internal_error` for an answer that breaks the contract, naming every violation; `subject` says what broke
 * it (a webhook body, say).
 */
export function responseProblem(
  violations: readonly Violation[],
  context: ProblemContext = {},
  subject = 'The response',
): Problem {
  const [first] = violations;
  const detail =
    violations.length === 1 && first
      ? `${subject} breaks the contract: ${located(first)}`
      : `${subject} breaks the contract in ${violations.length} places; see errors.`;
  return problemDetails({ ...context, code: 'internal_error', detail, errors: violations });
}
