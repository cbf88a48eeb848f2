// The receiver logic both adapters share: verify, claim the event id, call the merchant's handler, choose the answer.
import { readDeadline, type ReadLimit } from '../../shared/read-bounded.js';
import { MAX_TIMER_MS } from '../../shared/timers.js';
import { secretKeyList } from '../crypto.js';
import { WebhookVerificationError } from '../errors.js';
import type { WebhookHeaders } from '../headers.js';
import type { VerifiedWebhookEvent, WebhookLayout } from '../types.js';
import { verifyWebhookDelivery, type VerifyWebhookOptions, type WebhookSecrets } from '../verify.js';
import type { WebhookDedupe } from './dedupe.js';
import {
  bodyTimeout,
  handlerFailed,
  notPost,
  ok,
  rawBodyUnavailable,
  rejected,
  tooLarge,
  type WebhookAnswer,
} from './problem.js';

/** What the merchant's handler is told besides the event. */
export interface WebhookHandlerContext {
  /** X-Event-ID: the key to de-duplicate on. */
  id: string;
  /** `earlier` only when allowEarlierLayout is on and the delivery had no X-Timestamp. */
  layout: WebhookLayout;
}

/** Options of both receiver adapters. */
export interface WebhookHandlerOptions<AllowEarlier extends boolean = false> extends Omit<
  VerifyWebhookOptions,
  'allowEarlierLayout'
> {
  /** One `whsec_…` secret or several (rotation); checked when the handler is created. */
  secrets: WebhookSecrets;
  /** Also accept the earlier layout (no X-Timestamp); the handler then receives either layout's event. */
  allowEarlierLayout?: AllowEarlier;
  /** Called once per verified event that this receiver claimed; throwing answers 500 so the sender retries. */
  onEvent(event: VerifiedWebhookEvent<AllowEarlier>, context: WebhookHandlerContext): unknown;
  /** Claims each X-Event-ID before onEvent; a delivery whose id is already taken gets 200 `{"duplicate":true}`. */
  dedupe?: WebhookDedupe;
  /** Told about every rejected delivery (with the detailed error) and every failed hook; what it throws is ignored. */
  onError?(error: unknown, status: number): unknown;
  /** Largest accepted body in bytes (default 1 MiB); larger bodies get 413. */
  maxBodyBytes?: number;
  /** Longest wait for the whole body, in milliseconds (default 10,000); a slower body gets 408. */
  readTimeoutMs?: number;
}

/** The read limits of an adapter, checked when it is created. */
export interface ReadLimits {
  maxBodyBytes: number;
  readTimeoutMs: number;
}

/** What reading a body gave: its bytes, or why there are none. */
export type BodyRead = Uint8Array | 'too_large' | 'timed_out';

/** A request as the shared logic needs it, whatever the server API. */
export interface DeliveryRequest {
  method: string | undefined;
  headers: WebhookHeaders;
  read(limits: ReadLimits): Promise<BodyRead>;
}

class TooLarge extends Error {}
class TimedOut extends Error {}

/** Runs one of packages/contract/src/shared/read-bounded.ts's readers within `limits`: the bytes, or why there are none. */
export async function readWithin(
  limits: ReadLimits,
  read: (limit: ReadLimit) => Promise<Uint8Array>,
): Promise<BodyRead> {
  const deadline = readDeadline(limits.readTimeoutMs, () => new TimedOut());
  try {
    return await read({ maxBytes: limits.maxBodyBytes, tooLarge: () => new TooLarge(), stop: deadline.stop });
  } catch (error) {
    if (error instanceof TooLarge) return 'too_large';
    if (error instanceof TimedOut) return 'timed_out';
    throw error;
  } finally {
    deadline.clear();
  }
}

/** The default body limit of the adapters. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** The default read deadline of the adapters, in milliseconds. */
export const DEFAULT_READ_TIMEOUT_MS = 10_000;

/** Checks the options once, when an adapter is created, so a bad secret or limit fails at start-up. */
export function checkHandlerOptions(options: WebhookHandlerOptions<boolean>): ReadLimits {
  secretKeyList(options.secrets);
  if (typeof options.onEvent !== 'function') throw new TypeError('onEvent must be a function.');
  if ('isDuplicate' in options || 'markProcessed' in options) {
    throw new TypeError('isDuplicate and markProcessed were replaced by dedupe: { claim(id), release(id) }.');
  }
  const { dedupe } = options;
  if (dedupe !== undefined && (typeof dedupe?.claim !== 'function' || typeof dedupe.release !== 'function')) {
    throw new TypeError('dedupe must have claim(id) and release(id) functions.');
  }
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 1)
    throw new TypeError('maxBodyBytes must be a positive integer.');
  const readTimeoutMs = options.readTimeoutMs ?? DEFAULT_READ_TIMEOUT_MS;
  if (!Number.isInteger(readTimeoutMs) || readTimeoutMs < 1 || readTimeoutMs > MAX_TIMER_MS) {
    throw new TypeError(`readTimeoutMs must be a whole number of milliseconds from 1 to ${MAX_TIMER_MS}.`);
  }
  return { maxBodyBytes, readTimeoutMs };
}

/** Answers one request; never rejects, whatever the merchant's hooks do. */
export async function answerDelivery(
  request: DeliveryRequest,
  limits: ReadLimits,
  options: WebhookHandlerOptions<boolean>,
): Promise<WebhookAnswer> {
  try {
    if (request.method !== 'POST') return notPost();
    let body: BodyRead;
    try {
      body = await request.read(limits);
    } catch (error) {
      report(options, error, 500);
      return rawBodyUnavailable();
    }
    if (body === 'too_large') return tooLarge(limits.maxBodyBytes);
    if (body === 'timed_out') return bodyTimeout();
    return await handleWebhook(body, request.headers, options);
  } catch (error) {
    report(options, error, 500);
    return handlerFailed();
  }
}

/** Verifies one POSTed delivery, claims its id and runs the merchant's handler on it. */
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
    const answer = rejected(error);
    report(options, error, answer.status);
    return answer;
  }
  const { id, event, layout } = verified;
  const { dedupe } = options;
  let claimed = true;
  try {
    if (dedupe) claimed = claimResult(await dedupe.claim(id));
  } catch (error) {
    return failed(error, options);
  }
  if (!claimed) return ok({ duplicate: true });
  try {
    await options.onEvent(event, { id, layout });
    return ok({});
  } catch (error) {
    if (dedupe) await release(dedupe, id, options);
    return failed(error, options);
  }
}

/** Tells onError, if any; what it throws or rejects with is dropped so that it changes no answer and crashes nothing. */
export function report(options: WebhookHandlerOptions<boolean>, error: unknown, status: number): void {
  try {
    const result = options.onError?.(error, status);
    if (isThenable(result)) result.then(undefined, () => undefined);
  } catch {
    // Note: a failing onError has nowhere left to be reported to.
  }
}

function claimResult(value: unknown): boolean {
  // Note: a claim that forgot to return would otherwise read as "taken" and drop every event without a trace.
  if (typeof value !== 'boolean')
    throw new TypeError('dedupe.claim(id) must return true or false, or a promise of one.');
  return value;
}

async function release(dedupe: WebhookDedupe, id: string, options: WebhookHandlerOptions<boolean>): Promise<void> {
  try {
    await dedupe.release(id);
  } catch (error) {
    // Note: the id stays claimed, so the sender's retry is answered as a duplicate; onError must hear of it.
    report(options, error, 500);
  }
}

function failed(error: unknown, options: WebhookHandlerOptions<boolean>): WebhookAnswer {
  report(options, error, 500);
  return handlerFailed();
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}
