// The fetch the clients hand to openapi-fetch. It owns every attempt of a call: the time-out, redirects, the
// size limit, bodies that do not parse, and retries, so nothing depends on the order middleware was added in.
import { backoffDelay, IN_PROGRESS_CODE, isRetryableStatus, responseDelay } from './backoff.js';
import { NetworkError } from './errors/network-error.js';
import { RedirectError } from './errors/redirect-error.js';
import { RequestError, type RequestErrorDetails } from './errors/request-error.js';
import { TimeoutError } from './errors/timeout-error.js';
import { IDEMPOTENCY_KEY_HEADER } from './idempotency.js';
import type { ClientLogger, FetchLike, RedirectMode, RetryInfo, RetryPolicy } from './options.js';
import { readAnswer, type Answer } from './read-response.js';
import { redactHeaders, type Scrubber } from './redact.js';
import { isRedirect, locationOf, refusal } from './redirect.js';

/** What createTransport needs. */
export interface TransportOptions {
  /** The caller's fetch; undefined for globalThis.fetch, looked up per call. */
  fetch: FetchLike | undefined;
  timeoutMs: number;
  maxResponseBytes: number;
  redirect: RedirectMode;
  retry: RetryPolicy;
  onRetry?: ((info: RetryInfo) => void) | undefined;
  logger?: ClientLogger | undefined;
  scrub: Scrubber;
}

/** One call as every attempt sends it: the body is read once, so each attempt sends the same bytes. */
interface Call {
  method: string;
  url: string;
  headers: Headers;
  body: ArrayBuffer | undefined;
  signal: AbortSignal;
  idempotencyKey: string | undefined;
  /** Safe to send again: GET, HEAD, or carrying an Idempotency-Key. */
  retryable: boolean;
}

type Failure = { response: Response; error?: undefined } | { error: NetworkError | TimeoutError; response?: undefined };

/** Wraps a fetch so that each call gets bounded, checked attempts, retried as the policy allows; failures throw named errors. */
export function createTransport(options: TransportOptions): FetchLike {
  const { retry: policy, scrub } = options;

  function send(call: Call, url: string, signal: AbortSignal): Promise<Response> {
    const init: RequestInit = { method: call.method, headers: call.headers, body: call.body ?? null, signal, redirect: 'manual' };
    return options.fetch ? options.fetch(new Request(url, init)) : globalThis.fetch(url, init);
  }

  // Follows what the redirect mode allows and throws RedirectError at the first redirect it does not.
  async function settle(call: Call, first: Response, signal: AbortSignal, details: RequestErrorDetails): Promise<Response> {
    let [response, url] = [first, call.url];
    for (let hops = 0; isRedirect(response); hops += 1) {
      const location = locationOf(response, url);
      await response.body?.cancel().catch(() => {});
      const why = refusal({ mode: options.redirect, method: call.method, status: response.status, from: call.url, location, hops });
      if (why !== undefined || location === undefined) {
        throw new RedirectError({ ...details, status: response.status, location, why: why ?? 'it has no Location' });
      }
      [response, url] = [await send(call, location, signal), location];
    }
    return response;
  }

  async function attemptOnce(call: Call, attempt: number): Promise<Answer> {
    if (call.signal.aborted) throw call.signal.reason;
    const controller = new AbortController();
    const onCallerAbort = () => controller.abort(call.signal.reason);
    // Note: no `once`: the finally below removes it, and `once` costs a wrapper per attempt on Node 20.
    call.signal.addEventListener('abort', onCallerAbort);
    let timedOut = false;
    const timer = Number.isFinite(options.timeoutMs)
      ? setTimeout(() => {
          timedOut = true;
          controller.abort(new DOMException(`No response within ${options.timeoutMs} ms`, 'TimeoutError'));
        }, options.timeoutMs)
      : undefined;
    const details = { method: call.method, url: call.url, attempts: attempt, idempotencyKey: call.idempotencyKey };
    options.logger?.debug?.(scrub.text(`${call.method} ${call.url} headers ${JSON.stringify(redactHeaders(call.headers))}`));
    try {
      const first = await send(call, call.url, controller.signal);
      const response = isRedirect(first) ? await settle(call, first, controller.signal, details) : first;
      // Note: the body is read here so that the time-out covers it and a reset mid-body is retried too.
      return await readAnswer(response, { maxResponseBytes: options.maxResponseBytes, idempotencyKey: call.idempotencyKey, scrub, details });
    } catch (error) {
      if (call.signal.aborted) throw call.signal.reason;
      if (error instanceof RequestError) throw error;
      if (timedOut) throw new TimeoutError({ ...details, cause: controller.signal.reason, timeoutMs: options.timeoutMs });
      throw new NetworkError({ ...details, cause: scrub.cause(error) });
    } finally {
      clearTimeout(timer);
      call.signal.removeEventListener('abort', onCallerAbort);
    }
  }

  function report(call: Call, attempt: number, delayMs: number, failure: Failure): void {
    const reason: RetryInfo['reason'] = failure.response ? 'status' : failure.error instanceof TimeoutError ? 'timeout' : 'network';
    const info: RetryInfo = { method: call.method, url: call.url, attempt, attempts: policy.attempts, delayMs, reason };
    if (failure.response) info.status = failure.response.status;
    options.onRetry?.(info);
    const why = failure.response ? `status ${failure.response.status}` : reason;
    options.logger?.warn?.(
      scrub.text(`${call.method} ${call.url}: ${why}; retrying in ${delayMs} ms (attempt ${attempt + 1} of ${policy.attempts})`),
    );
  }

  return async function transport(request) {
    const call = callOf(request, request.body === null ? undefined : await request.arrayBuffer());
    for (let attempt = 1; ; attempt += 1) {
      const last = !call.retryable || attempt >= policy.attempts;
      let failure: Failure;
      try {
        const answer = await attemptOnce(call, attempt);
        if (last || !isTransient(answer)) return answer.response;
        failure = { response: answer.response };
      } catch (error) {
        if (last || !(error instanceof NetworkError || error instanceof TimeoutError)) throw error;
        failure = { error };
      }
      const delayMs = failure.response ? responseDelay(policy, attempt, failure.response) : backoffDelay(policy, attempt);
      report(call, attempt, delayMs, failure);
      await policy.sleep(delayMs, call.signal);
    }
  };
}

/** The call as every attempt sends it, from openapi-fetch's Request and the body read from it once. */
function callOf(request: Request, body: ArrayBuffer | undefined): Call {
  const idempotencyKey = request.headers.get(IDEMPOTENCY_KEY_HEADER) ?? undefined;
  const { method } = request;
  return {
    method,
    url: request.url,
    headers: request.headers,
    body,
    signal: request.signal,
    idempotencyKey,
    retryable: method === 'GET' || method === 'HEAD' || idempotencyKey !== undefined,
  };
}

const decoder = new TextDecoder();

// A transient status, or a 409 saying the first request with this key is still running: the same key may be sent again.
function isTransient(answer: Answer): boolean {
  const { status } = answer.response;
  if (isRetryableStatus(status)) return true;
  if (status !== 409) return false;
  try {
    return (JSON.parse(decoder.decode(answer.bytes)) as { code?: unknown } | null)?.code === IN_PROGRESS_CODE;
  } catch {
    return false;
  }
}
