// The fetch the clients hand to openapi-fetch: one attempt under a time-out, its body read in full, failures as named errors.
import { NetworkError } from './errors/network-error.js';
import { TimeoutError } from './errors/timeout-error.js';
import { IDEMPOTENCY_KEY_HEADER } from './idempotency.js';
import type { ClientLogger, FetchLike } from './options.js';
import { redactHeaders, type Scrubber } from './redact.js';

/** What createTransport needs. */
export interface TransportOptions {
  fetch: FetchLike;
  timeoutMs: number;
  logger?: ClientLogger | undefined;
  scrub: Scrubber;
}

/** Wraps a fetch so each call is one attempt bounded by `timeoutMs`; throws NetworkError or TimeoutError when no response arrives. */
export function createTransport(options: TransportOptions): FetchLike {
  return async function transport(request) {
    const callerSignal = request.signal;
    if (callerSignal.aborted) throw callerSignal.reason;
    const controller = new AbortController();
    const onCallerAbort = () => controller.abort(callerSignal.reason);
    callerSignal.addEventListener('abort', onCallerAbort, { once: true });
    let timedOut = false;
    const timer = Number.isFinite(options.timeoutMs)
      ? setTimeout(() => {
          timedOut = true;
          controller.abort(new DOMException(`No response within ${options.timeoutMs} ms`, 'TimeoutError'));
        }, options.timeoutMs)
      : undefined;
    const { method, url } = request;
    options.logger?.debug?.(options.scrub.text(`${method} ${url} headers ${JSON.stringify(redactHeaders(request.headers))}`));
    try {
      const response = await options.fetch(new Request(request, { signal: controller.signal }));
      // Note: the body is read here so that the time-out covers it and a reset mid-body is retried too.
      return await buffered(response);
    } catch (error) {
      if (callerSignal.aborted) throw callerSignal.reason;
      const idempotencyKey = request.headers.get(IDEMPOTENCY_KEY_HEADER) ?? undefined;
      const details = { method, url, attempts: 1, cause: options.scrub.cause(error), idempotencyKey };
      if (timedOut) throw new TimeoutError({ ...details, timeoutMs: options.timeoutMs });
      throw new NetworkError(details);
    } finally {
      clearTimeout(timer);
      callerSignal.removeEventListener('abort', onCallerAbort);
    }
  };
}

const NULL_BODY_STATUSES = new Set([204, 205, 304]);

async function buffered(response: Response): Promise<Response> {
  if (response.body === null || response.status < 200 || NULL_BODY_STATUSES.has(response.status)) return response;
  const body = await response.arrayBuffer();
  const copy = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  Object.defineProperties(copy, { url: { value: response.url }, redirected: { value: response.redirected } });
  return copy;
}
