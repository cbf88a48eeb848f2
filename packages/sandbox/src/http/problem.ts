// The problems the sandbox's HTTP layer answers (RFC 9457, application/problem+json), built by packages/contract/src/shared/problem.ts
// with the parts only this request knows: the `type` URI, the `instance` and the `request_id`.
import { randomBytes } from 'node:crypto';
import { problemCatalogue } from '@merchant-payments/contract/generated/operations/problems.js';
import {
  contentTypeOf,
  isRequestId,
  problemDetails,
  problemType,
  type FieldError,
} from '@merchant-payments/contract/internal/shared/problem.js';

/** A problem before the parts only this request knows (`type` URI, `instance`, `request_id`) are added. */
export interface ProblemInput {
  status: number;
  code: string;
  title: string;
  detail: string;
  errors?: FieldError[];
}

/** The contract's problems the HTTP layer answers itself. */
type HttpProblemCode =
  'bad_request' | 'unauthorized' | 'not_found' | 'rate_limited' | 'tenant_limit_reached' | 'internal_error';

/** A problem the HTTP layer answers itself, with the contract's status and title for its code. */
export function httpProblem(code: HttpProblemCode, detail: string, errors?: FieldError[]): ProblemInput {
  const { status, title } = problemCatalogue[code];
  return { status, title, code, detail, ...(errors ? { errors } : {}) };
}

/** A fresh request id, matching the contract's `request_id` pattern. */
const newRequestId = () => `req_${randomBytes(12).toString('base64url')}`;

/** Where a problem occurs: the path it is about and the request's id. */
export interface Occurrence {
  instance: string;
  readonly requestId: string;
}

/** The occurrence of a request to `instance`; its id is drawn only if a problem needs it, as a success carries none. */
export function occurrence(instance: string, given?: string | null): Occurrence {
  // Note: a load balancer's X-Request-Id is kept when it fits the contract's request_id, so one id follows the request
  // from the balancer's log to ours and to the problem a client quotes; anything else gets an id of our own.
  let id = given && isRequestId(given) ? given : undefined;
  return {
    instance,
    get requestId() {
      return (id ??= newRequestId());
    },
  };
}

/** The problem+json body of one occurrence; problemDetails bounds what a peer's request may have put in it. */
export function problemBody(problem: ProblemInput, where: Occurrence) {
  return problemDetails({
    ...problem,
    type: problemType(problem.code),
    instance: where.instance,
    requestId: where.requestId,
  });
}

/** A JSON response in the media type of its status. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': contentTypeOf(status), ...headers } });
}
