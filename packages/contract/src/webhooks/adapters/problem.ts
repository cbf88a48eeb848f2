// What the adapters answer a sender: RFC 9457 problems (built by packages/contract/src/shared/problem.ts) with a stable `code` and a
// fixed detail per code.
import { PROBLEM_JSON, problemDetails, type FieldError } from '../../shared/problem.js';
import type { WebhookVerificationError, WebhookVerificationReason } from '../errors.js';

/** An HTTP answer, independent of the server API. */
export interface WebhookAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const STATUS: Record<WebhookVerificationReason, 400 | 401> = {
  missing_header: 400,
  malformed_timestamp: 401,
  malformed_signature: 401,
  no_matching_signature: 401,
  timestamp_too_old: 401,
  timestamp_in_future: 401,
  invalid_json: 400,
  schema_mismatch: 400,
  header_mismatch: 400,
};

// Note: fixed texts, because the sender may be anyone: the verifier's own messages tell this receiver's clock
// offset and how many secrets it holds, so they go to onError only.
const DETAIL: Record<WebhookVerificationReason, string> = {
  missing_header: 'A required webhook header is missing or empty.',
  malformed_timestamp: 'X-Timestamp is not whole Unix seconds.',
  malformed_signature: 'X-Signature is not a short list of space-separated "v1,<base64 HMAC-SHA256>" values.',
  no_matching_signature: 'No signature in X-Signature matches this endpoint.',
  timestamp_too_old: 'X-Timestamp is older than this receiver accepts.',
  timestamp_in_future: 'X-Timestamp is further in the future than this receiver accepts.',
  invalid_json: 'The body is not JSON this receiver accepts.',
  schema_mismatch: "The body does not match the contract's webhook event schema.",
  header_mismatch: 'X-Event-ID or X-Event-Type differs from the body.',
};

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Content Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
};

/** An RFC 9457 problem answer with a stable `code`. */
export function problem(status: number, code: string, detail: string, errors?: readonly FieldError[]): WebhookAnswer {
  const body = problemDetails({
    type: 'about:blank',
    title: TITLES[status] ?? 'Error',
    status,
    code,
    detail,
    ...(errors ? { errors } : {}),
  });
  const headers: Record<string, string> = { 'content-type': PROBLEM_JSON };
  if (status === 405) headers['allow'] = 'POST';
  return { status, headers, body: JSON.stringify(body) };
}

/**
 * The answer to a rejected delivery: the reason as `code` and a fixed detail; schema pointers only once signed. The
 * status is the reason's (400 or 401) unless `status` is given.
 */
export function rejected(error: WebhookVerificationError, status: number = STATUS[error.reason]): WebhookAnswer {
  // Note: `errors` exists only for schema_mismatch, reached after the signature verified, so the sender is genuine.
  const errors = error.errors?.map((issue) => ({ pointer: issue.instancePath, detail: issue.message }));
  return problem(status, error.reason, DETAIL[error.reason], errors);
}

/** The answer when onEvent or a de-duplication hook failed: the sender delivers again. */
export const handlerFailed = (): WebhookAnswer =>
  // Note: the hook's own error stays out of the answer; it may carry internal details.
  problem(500, 'handler_failed', 'The event could not be processed; the sender will deliver it again.');

/** The answer for a delivery over the body limit. */
export const tooLarge = (limit: number): WebhookAnswer =>
  problem(413, 'body_too_large', `The body exceeds this receiver's limit of ${limit} bytes.`);

/** The answer for a body that did not arrive within the read deadline. */
export const bodyTimeout = (): WebhookAnswer =>
  problem(408, 'body_timeout', 'The body did not arrive within the time this receiver allows.');

/** The answer for a request that is not a POST. */
export const notPost = (): WebhookAnswer => problem(405, 'method_not_allowed', 'Webhook deliveries are POST requests.');

/** The answer when the raw body could not be read. */
export const rawBodyUnavailable = (): WebhookAnswer =>
  problem(500, 'raw_body_unavailable', 'The receiver could not read the raw request body.');

/** A 200 answer with a JSON object body. */
export const ok = (body: Record<string, unknown>): WebhookAnswer => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
