// The contract's precompiled validators (packages/contract/src/validation) behind the sandbox's SandboxValidators seam: the default of
// createSandbox, so that a request, response or webhook body that breaks the contract is never passed over in silence.
import type { FieldError } from '@merchant-payments/contract/internal/shared/problem.js';
import {
  requestProblem,
  responseProblem,
  validateRequest,
  validateResponse,
  validateWebhookBody,
  type Violation,
} from '@merchant-payments/contract/internal/validation/index.js';
import type { OperationRef, SandboxValidators } from './hooks.js';

/** packages/contract/src/validation names the variants by their key (`a`), the sandbox by their letter (`A`). */
const variantKey = (operation: OperationRef) => (operation.variant === 'A' ? 'a' : 'b');

/** Violations as the Problem schema's field errors: each detail bounded and printable. */
function fieldErrors(violations: readonly Violation[], subject?: string): FieldError[] {
  // Note: responseProblem bounds and escapes each detail exactly as a problem body must hold it.
  return responseProblem(violations, {}, subject).errors ?? [];
}

/** The contract's checks of requests, responses and webhook bodies, compiled ahead of time from the bundled specs. */
export const contractValidators: SandboxValidators = {
  request({ operation, pathParams, query, headers, body }) {
    const checked = validateRequest(variantKey(operation), operation.operationId, {
      params: pathParams,
      query,
      headers,
      body,
    });
    if (checked.ok) return undefined;
    // Note: requestProblem words the detail (the one violation, or how many) and bounds every field error.
    const problem = requestProblem(checked);
    return { status: checked.status, code: checked.code, detail: problem.detail ?? '', errors: problem.errors ?? [] };
  },
  response({ operation, status, headers, body }) {
    const violations = validateResponse(variantKey(operation), operation.operationId, { status, headers, body });
    return violations.length > 0 ? fieldErrors(violations) : undefined;
  },
  webhook({ layout, body }) {
    const violations = validateWebhookBody(layout, body);
    return violations.length > 0 ? fieldErrors(violations, 'The webhook body') : undefined;
  },
};
