// The fetch the clients hand to openapi-fetch: one attempt under a time-out, its body read in full, failures as named errors.
import { BufferedResponse } from './buffered-response.js';
import { NetworkError } from './errors/network-error.js';
import { TimeoutError } from './errors/timeout-error.js';
import { IDEMPOTENCY_KEY_HEADER } from './idempotency.js';
import type { ClientLogger, FetchLike } from './options.js';
import { redactHeaders, type Scrubber } from './redact.js';
import type { BodyStore } from './request-body.js';

/** What createTransport needs. */
export interface TransportOptions {
  /** The caller's fetch; undefined for globalThis.fetch, looked up per call. */
  fetch?: FetchLike | undefined;
  timeoutMs: number;
  logger?: ClientLogger | undefined;
  scrub: Scrubber;
  bodies: BodyStore;
}

/** Wraps a fetch so each call is one attempt bounded by `timeoutMs`; throws NetworkError or TimeoutError when no response arrives. */
export function createTransport(options: TransportOptions): FetchLike {
  const custom = options.fetch;
  // Note: the global fetch gets the Request and what to change in it: it builds one copy with this signal and
  // the kept body. A caller's fetch takes one Request, so it gets that copy built here.
  const send = (request: Request, init: RequestInit) => (custom ? custom(new Request(request, init)) : globalThis.fetch(request, init));
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
      const init: RequestInit = { signal: controller.signal };
      const body = options.bodies.get(request);
      if (body !== undefined) init.body = body;
      const response = await send(request, init);
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
  return new BufferedResponse(new Uint8Array(await response.arrayBuffer()), response);
}
