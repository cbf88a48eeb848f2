// An answer to one of the contract's operations goes out only once the response check passed it; one that breaks the
// contract becomes a 500 problem naming every violation, because it is a sandbox bug a test must not pass over.
import type { OperationRef, SandboxValidators } from './hooks.js';
import { contentTypeOf, httpProblem, jsonResponse, problemBody, type Occurrence } from './problem.js';

/** The JSON response `status`/`body`/`headers` if the response check passes it, else a 500 `internal_error` naming why. */
export async function checkedResponse(
  validators: SandboxValidators,
  operation: OperationRef,
  where: Occurrence,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  const violations = await validators.response?.({ operation, status, headers: new Headers({ 'content-type': contentTypeOf(status), ...headers }), body });
  if (!violations?.length) return jsonResponse(status, body, headers);
  const detail = `The sandbox's ${status} answer to ${operation.operationId} breaks the contract; this is a sandbox bug.`;
  return jsonResponse(500, problemBody(httpProblem('internal_error', detail, violations), where));
}
