// The receiver logic both adapters share: verify, de-duplicate, call the merchant's handler, choose the answer.
import { secretKeyList } from '../crypto.js';
import { WebhookVerificationError, type WebhookVerificationReason } from '../errors.js';
import type { WebhookHeaders } from '../headers.js';
import type { VerifiedWebhookEvent, WebhookLayout } from '../types.js';
import { verifyWebhookDelivery, type VerifyWebhookOptions, type WebhookSecrets } from '../verify.js';

/** What the merchant's handler is told besides the event. */
export interface WebhookHandlerContext {
  /** X-Event-ID: the key to de-duplicate on. */
  id: string;
  /** `earlier` only when allowEarlierLayout is on and the delivery had no X-Timestamp. */
  layout: WebhookLayout;
}

/** Options of both receiver adapters. */
export interface WebhookHandlerOptions<AllowEarlier extends boolean = false>
  extends Omit<VerifyWebhookOptions, 'allowEarlierLayout'> {
  /** One `whsec_…` secret or several (rotation); checked when the handler is created. */
  secrets: WebhookSecrets;
  /** Also accept the earlier layout (no X-Timestamp); the handler then receives either layout's event. */
  allowEarlierLayout?: AllowEarlier;
  /** Called once per verified, not yet processed event; throwing answers 500 so the sender retries. */
  onEvent(event: VerifiedWebhookEvent<AllowEarlier>, context: WebhookHandlerContext): unknown;
  /** True when this X-Event-ID was already processed: the delivery is acknowledged without calling onEvent. */
  isDuplicate?(id: string): boolean | Promise<boolean>;
  /** Records that this X-Event-ID was processed, after onEvent succeeded. */
  markProcessed?(id: string): unknown;
  /** Told about every rejected delivery and every handler failure, e.g. for logging. */
  onError?(error: unknown, status: number): void;
  /** Largest accepted body in bytes (default 1 MiB); larger bodies get 413. */
  maxBodyBytes?: number;
}

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
const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  405: 'Method Not Allowed',
  413: 'Content Too Large',
  500: 'Internal Server Error',
};

/** The default body limit of the adapters. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Checks the options once, when an adapter is created, so a bad secret fails at start-up. */
export function checkHandlerOptions(options: WebhookHandlerOptions<boolean>): number {
  secretKeyList(options.secrets);
  if (typeof options.onEvent !== 'function') throw new TypeError('onEvent must be a function.');
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isSafeInteger(limit) || limit < 1) throw new TypeError('maxBodyBytes must be a positive integer.');
  return limit;
}

/** An RFC 9457 problem answer with a stable `code`. */
export function problem(status: number, code: string, detail: string, extra: Record<string, unknown> = {}): WebhookAnswer {
  const body = { type: 'about:blank', title: TITLES[status] ?? 'Error', status, detail, code, ...extra };
  const headers: Record<string, string> = { 'content-type': 'application/problem+json' };
  if (status === 405) headers['allow'] = 'POST';
  return { status, headers, body: JSON.stringify(body) };
}

/** Verifies one POSTed delivery and runs the merchant's handler on it. */
export async function handleWebhook(
  rawBody: Uint8Array,
  headers: WebhookHeaders,
  options: WebhookHandlerOptions<boolean>,
): Promise<WebhookAnswer> {
  let verified;
  try {
    verified = await verifyWebhookDelivery(rawBody, headers, options.secrets, options);
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) return failed(error, options);
    const status = STATUS[error.reason];
    options.onError?.(error, status);
    const errors = error.errors?.map((issue) => ({ pointer: issue.instancePath, detail: issue.message }));
    return problem(status, error.reason, error.message, errors ? { errors } : {});
  }
  try {
    if (await options.isDuplicate?.(verified.id)) return ok({ duplicate: true });
    await options.onEvent(verified.event, { id: verified.id, layout: verified.layout });
    await options.markProcessed?.(verified.id);
    return ok({});
  } catch (error) {
    return failed(error, options);
  }
}

/** The answer for a delivery over the body limit. */
export function tooLarge(limit: number): WebhookAnswer {
  return problem(413, 'body_too_large', `The body exceeds this receiver's limit of ${limit} bytes.`);
}

function ok(body: Record<string, unknown>): WebhookAnswer {
  return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

function failed(error: unknown, options: WebhookHandlerOptions<boolean>): WebhookAnswer {
  options.onError?.(error, 500);
  // Note: the handler's own error stays out of the answer; it may carry internal details.
  return problem(500, 'handler_failed', 'The event could not be processed; the sender will deliver it again.');
}
