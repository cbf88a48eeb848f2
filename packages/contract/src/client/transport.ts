// The fetch the clients hand to openapi-fetch. openapi-fetch runs middleware once per call, around one fetch; what
// has to happen on every attempt lives here instead: the time-out over headers and body, the redirect rule, the size
// cap, the check that a 2xx body is JSON, and retries that resend the same bytes and Idempotency-Key.
import { readBounded } from '../shared/read-bounded.js';
import { backoffDelay, IN_PROGRESS_CODE, isRetryableStatus, responseDelay } from './backoff.js';
import { NetworkError } from './errors/network-error.js';
import { RedirectError } from './errors/redirect-error.js';
import { RequestError, type RequestErrorDetails } from './errors/request-error.js';
import { ResponseParseError } from './errors/response-parse-error.js';
import { ResponseTooLargeError } from './errors/response-too-large-error.js';
import { TimeoutError } from './errors/timeout-error.js';
import { IDEMPOTENCY_KEY_HEADER } from './idempotency.js';
import type { FetchLike, ResolvedOptions, RetryInfo } from './options.js';
import { excerptOf, redactHeaders, type Scrubber } from './redact.js';
import { isRedirect, locationOf, refusal } from './redirect.js';

/** What createTransport needs: the options that shape an attempt, and the client's scrubber. */
export type TransportOptions = Pick<
  ResolvedOptions,
  'fetch' | 'timeoutMs' | 'maxResponseBytes' | 'redirect' | 'retry' | 'onRetry' | 'logger'
> & {
  scrub: Scrubber;
};

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

/** Why an attempt is worth repeating: a transient answer, or a network failure or time-out. */
type Failure = { response: Response; error?: undefined } | { error: NetworkError | TimeoutError; response?: undefined };

const decoder = new TextDecoder();

/** Wraps a fetch so that each call gets bounded, checked attempts, retried as the policy allows; failures throw named errors. */
export function createTransport(options: TransportOptions): FetchLike {
  const { retry: policy, scrub } = options;

  return async function transport(request) {
    const call = await callOf(request);
    for (let attempt = 1; ; attempt += 1) {
      const last = !call.retryable || attempt >= policy.attempts;
      let failure: Failure;
      try {
        const response = await attemptOnce(call, attempt);
        if (last || !(await isTransient(response))) return response;
        failure = { response };
      } catch (error) {
        if (last || !(error instanceof NetworkError || error instanceof TimeoutError)) throw error;
        failure = { error };
      }
      const delayMs = failure.response
        ? responseDelay(policy, attempt, failure.response)
        : backoffDelay(policy, attempt);
      report(call, attempt, delayMs, failure);
      await policy.sleep(delayMs, call.signal);
    }
  };

  // One attempt, from sending to the last byte of the body, under its own time-out; the caller's signal ends it too.
  async function attemptOnce(call: Call, attempt: number): Promise<Response> {
    if (call.signal.aborted) throw call.signal.reason;
    const details: RequestErrorDetails = {
      method: call.method,
      url: call.url,
      attempts: attempt,
      idempotencyKey: call.idempotencyKey,
    };
    const controller = new AbortController();
    const onCallerAbort = () => controller.abort(call.signal.reason);
    call.signal.addEventListener('abort', onCallerAbort);
    let timedOut = false;
    const timer = Number.isFinite(options.timeoutMs)
      ? setTimeout(() => {
          timedOut = true;
          controller.abort(new DOMException(`No response within ${options.timeoutMs} ms`, 'TimeoutError'));
        }, options.timeoutMs)
      : undefined;
    options.logger?.debug?.(
      scrub.text(`${call.method} ${call.url} headers ${JSON.stringify(redactHeaders(call.headers))}`),
    );
    try {
      const response = await follow(call, controller.signal, details);
      // Note: the body is read inside the attempt, so that the time-out covers it and a reset mid-body is retried too.
      return await readAnswer(response, call, details);
    } catch (error) {
      if (call.signal.aborted) throw call.signal.reason;
      if (error instanceof RequestError) throw error;
      if (timedOut)
        throw new TimeoutError({ ...details, cause: controller.signal.reason, timeoutMs: options.timeoutMs });
      throw new NetworkError({ ...details, cause: scrub.cause(error) });
    } finally {
      clearTimeout(timer);
      call.signal.removeEventListener('abort', onCallerAbort);
    }
  }

  // Sends the call, then follows what the redirect mode allows; throws RedirectError at the first redirect it does not.
  async function follow(call: Call, signal: AbortSignal, details: RequestErrorDetails): Promise<Response> {
    let url = call.url;
    let response = await send(call, url, signal);
    for (let hops = 0; isRedirect(response); hops += 1) {
      const location = locationOf(response, url);
      await response.body?.cancel().catch(() => {});
      const why = refusal({
        mode: options.redirect,
        method: call.method,
        status: response.status,
        from: call.url,
        location,
        hops,
      });
      if (why !== undefined || location === undefined) {
        throw new RedirectError({ ...details, status: response.status, location, why: why ?? 'it has no Location' });
      }
      url = location;
      response = await send(call, url, signal);
    }
    return response;
  }

  // Note: `manual`, so that every redirect comes back here to be judged before anything is sent on. The global fetch
  // gets the URL and init as they are: handed a Request, it would build a second one and follow its signal too.
  function send(call: Call, url: string, signal: AbortSignal): Promise<Response> {
    const init: RequestInit = {
      method: call.method,
      headers: call.headers,
      body: call.body ?? null,
      signal,
      redirect: 'manual',
    };
    return options.fetch ? options.fetch(new Request(url, init)) : globalThis.fetch(url, init);
  }

  // The answer with its body read within the cap, as a plain Response over those bytes that carries the call's key.
  async function readAnswer(response: Response, call: Call, details: RequestErrorDetails): Promise<Response> {
    const { status, statusText } = response;
    const tooLarge = () =>
      new ResponseTooLargeError({ ...details, status, maxResponseBytes: options.maxResponseBytes });
    const bytes = await readBounded(response, { maxBytes: options.maxResponseBytes, tooLarge });
    if (response.ok && bytes.length > 0) {
      const text = decoder.decode(bytes);
      if (!isJson(text)) {
        const contentType = response.headers.get('content-type') ?? undefined;
        throw new ResponseParseError({ ...details, status, contentType, excerpt: excerptOf(text, scrub) });
      }
    }
    // Note: an empty body is passed as null, which a 204 or 304 requires.
    const answer = new Response(bytes.length > 0 ? bytes : null, { status, statusText, headers: response.headers });
    if (call.idempotencyKey !== undefined) answer.headers.set(IDEMPOTENCY_KEY_HEADER, call.idempotencyKey);
    // Note: a Response built from bytes has an empty url; it keeps the url of the answer, as a fetched one does.
    return Object.defineProperties(answer, {
      url: { value: response.url },
      redirected: { value: response.redirected },
    });
  }

  function report(call: Call, attempt: number, delayMs: number, failure: Failure): void {
    const reason: RetryInfo['reason'] = failure.response
      ? 'status'
      : failure.error instanceof TimeoutError
        ? 'timeout'
        : 'network';
    const info: RetryInfo = { method: call.method, url: call.url, attempt, attempts: policy.attempts, delayMs, reason };
    if (failure.response) info.status = failure.response.status;
    options.onRetry?.(info);
    const why = failure.response ? `status ${failure.response.status}` : reason;
    options.logger?.warn?.(
      scrub.text(
        `${call.method} ${call.url}: ${why}; retrying in ${delayMs} ms (attempt ${attempt + 1} of ${policy.attempts})`,
      ),
    );
  }
}

/** The call as every attempt sends it, from openapi-fetch's Request, its body read once. */
async function callOf(request: Request): Promise<Call> {
  const idempotencyKey = request.headers.get(IDEMPOTENCY_KEY_HEADER) ?? undefined;
  const { method } = request;
  return {
    method,
    url: request.url,
    headers: request.headers,
    body: request.body === null ? undefined : await request.arrayBuffer(),
    signal: request.signal,
    idempotencyKey,
    retryable: method === 'GET' || method === 'HEAD' || idempotencyKey !== undefined,
  };
}

// A transient status, or a 409 saying the first request with this key is still running: the same key may be sent again.
async function isTransient(response: Response): Promise<boolean> {
  if (isRetryableStatus(response.status)) return true;
  if (response.status !== 409) return false;
  try {
    return (JSON.parse(await response.clone().text()) as { code?: unknown } | null)?.code === IN_PROGRESS_CODE;
  } catch {
    return false;
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
