// What a control route answers, before it becomes a Response: a status and a JSON body (none for 204), or a problem
// with one of the codes the control document uses.
import { problemCatalogue } from '@merchant-payments/contract/internal/validation/index.js';
import type { FieldError } from '@merchant-payments/contract/internal/shared/problem.js';
import type { Occurrence, ProblemInput } from '../http/problem.js';
import { jsonResponse, problemBody } from '../http/problem.js';

// Note: the control document adds these codes to the contract's own (problemCatalogue), with these titles.
const CONTROL_ONLY = {
  forbidden: { status: 403, title: 'Forbidden' },
  limit_reached: { status: 422, title: 'Limit reached' },
  webhook_host_forbidden: { status: 422, title: 'Webhook host forbidden' },
} as const;

/** A problem `code` the control API answers with: the contract's, or the one its document adds. */
export type ControlProblemCode =
  | 'bad_request'
  | 'unauthorized'
  | 'not_found'
  | 'idempotency_request_in_progress'
  | 'validation_failed'
  | 'invalid_state'
  | 'idempotency_key_reused'
  | 'insufficient_balance'
  | 'internal_error'
  | keyof typeof CONTROL_ONLY;

/** A control answer: a JSON body (or none) with its status, or a problem. */
export type Reply = { status: 101 | 200 | 201 | 204; body?: unknown } | { problem: ProblemInput };

/** `200 { data }`, or `201 { data }` for something created. */
export const dataReply = (data: unknown, status: 200 | 201 = 200): Reply => ({ status, body: { data } });

/** `200 { data, pagination }`: one page of a list. */
export const pageReply = (data: unknown[], pagination: { total: number; limit: number; offset: number }): Reply => ({
  status: 200,
  body: { data, pagination },
});

/** `204`, no body. */
export const noContent = (): Reply => ({ status: 204 });

/** A problem with one of the control API's codes. */
export function problemReply(code: ControlProblemCode, detail: string, errors?: FieldError[]): Reply {
  const { status, title } =
    code in CONTROL_ONLY ? CONTROL_ONLY[code as keyof typeof CONTROL_ONLY] : problemCatalogue[code]!;
  return { problem: { status, title, code, detail, ...(errors ? { errors } : {}) } };
}

/** The Response of a reply; a problem gets its `type`, `instance` and `request_id` here. */
export function replyResponse(reply: Reply, where: Occurrence, headers: Record<string, string> = {}): Response {
  if ('problem' in reply) return jsonResponse(reply.problem.status, problemBody(reply.problem, where), headers);
  if (reply.body === undefined) return new Response(null, { status: reply.status, headers });
  return jsonResponse(reply.status, reply.body, headers);
}
