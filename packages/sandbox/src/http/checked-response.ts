// An answer to one of the contract's operations goes out only once the response check passed it; one that breaks the
// contract becomes a 500 problem naming every violation, because it is a sandbox bug a test must not pass over.
import { contentTypeOf, type FieldError } from '@merchant-payments/contract/internal/shared/problem.js';
import { httpProblem, jsonResponse, problemBody, type Occurrence } from './problem.js';

/** Marks the stand-in of a 101 (below), so that the request's log line and metrics say 101. */
export const SWITCHING_PROTOCOLS = 'x-sandbox-switching-protocols';

/** Judges an answer before it leaves: its violations, or undefined when it fits. */
export type ResponseJudge = (
  status: number,
  headers: Headers,
  body: unknown,
) => FieldError[] | undefined | Promise<FieldError[] | undefined>;

/**
 * The response `status`/`body`/`headers` (JSON, or empty when `body` is undefined) if `judge` passes it, else a 500
 * `internal_error` naming why.
 */
export async function checkedResponse(
  judge: ResponseJudge,
  operationId: string,
  where: Occurrence,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  const typed = body === undefined ? headers : { 'content-type': contentTypeOf(status), ...headers };
  const violations = await judge(status, new Headers(typed), body);
  // Note: a fetch Response cannot carry 101 (its status is 200 to 599). The WebSocket handshake is written on the socket
  // by the upgrade (http/upgrade.ts), which drops this stand-in unsent.
  if (!violations?.length && status === 101)
    return new Response(null, { status: 200, headers: { ...headers, [SWITCHING_PROTOCOLS]: '1' } });
  if (!violations?.length)
    return body === undefined ? new Response(null, { status, headers }) : jsonResponse(status, body, headers);
  const detail = `The sandbox's ${status} answer to ${operationId} breaks the contract; this is a sandbox bug.`;
  return jsonResponse(500, problemBody(httpProblem('internal_error', detail, violations), where));
}
