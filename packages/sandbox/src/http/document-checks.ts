// What the control and admin APIs share around their generated checks: a failed request check as the pipeline's
// rejection, and an answer's violations as a problem's errors. The variants' checks go through their own bindings.
import {
  requestProblem,
  responseProblem,
  validateResponse,
  type RequestValidation,
} from '@merchant-payments/contract/internal/validation/index.js';
import type { FieldError } from '@merchant-payments/contract/internal/shared/problem.js';
import type { RequestRejection } from './hooks.js';

/** A request the document's checks refused, as the pipeline answers it: the status, code, detail and every error. */
export function rejectionOf(failed: Extract<RequestValidation, { ok: false }>): { rejection: RequestRejection } {
  const problem = requestProblem(failed);
  return {
    rejection: { status: failed.status, code: failed.code, detail: problem.detail ?? '', errors: problem.errors ?? [] },
  };
}

/** How an answer breaks its document (`api`), as a problem's errors; undefined when it keeps it. */
export function answerViolations(
  api: 'sandbox' | 'admin',
  operationId: string,
  status: number,
  headers: Headers,
  body: unknown,
): FieldError[] | undefined {
  const violations = validateResponse(api, operationId, { status, headers, body });
  return violations.length > 0 ? (responseProblem(violations, {}).errors ?? []) : undefined;
}
