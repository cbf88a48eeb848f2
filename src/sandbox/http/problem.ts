// Problem answers (RFC 9457, application/problem+json) with the members the contract's Problem schema names.
import { randomBytes } from 'node:crypto';

/** A field error: where in the request, and what is wrong there. */
export interface FieldError {
  pointer: string;
  detail: string;
}

/** A problem before the parts only this request knows (`type` URI, `instance`, `request_id`) are added. */
export interface ProblemInput {
  status: number;
  code: string;
  title: string;
  detail: string;
  errors?: FieldError[];
}

/** The problems the HTTP layer answers itself, with the contract's titles (components/responses). */
export const HTTP_PROBLEMS = {
  bad_request: { status: 400, title: 'Bad request' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  not_found: { status: 404, title: 'Not found' },
  rate_limited: { status: 429, title: 'Too many requests' },
  internal_error: { status: 500, title: 'Internal server error' },
} as const;

/** A problem the HTTP layer answers itself. */
export function httpProblem(code: keyof typeof HTTP_PROBLEMS, detail: string, errors?: FieldError[]): ProblemInput {
  return { ...HTTP_PROBLEMS[code], code, detail, ...(errors ? { errors } : {}) };
}

/** Where the contract documents each problem `code`. */
export const problemType = (code: string) => `https://docs.payments.example/problems/${code}`;

/** A fresh request id, matching the contract's `request_id` pattern. */
export const newRequestId = () => `req_${randomBytes(12).toString('base64url')}`;

/** The problem+json body of one occurrence. */
export function problemBody(problem: ProblemInput, where: { instance: string; requestId: string }) {
  const { status, code, title, detail, errors } = problem;
  return { type: problemType(code), title, status, detail, instance: where.instance, code, request_id: where.requestId, ...(errors ? { errors } : {}) };
}

/** The media type of a JSON answer: `application/problem+json` for a 4xx/5xx, `application/json` otherwise. */
export const contentTypeOf = (status: number) => (status >= 400 ? 'application/problem+json' : 'application/json');

/** A JSON response in the media type of its status. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': contentTypeOf(status), ...headers } });
}
