// Retries as openapi-fetch middleware: network errors, time-outs, 429 and 5xx, with backoff, for requests safe to repeat.
import type { Middleware } from 'openapi-fetch';
import { backoffDelay, isRetryableStatus, responseDelay } from './backoff.js';
import { NetworkError } from './errors/network-error.js';
import { RequestError } from './errors/request-error.js';
import { TimeoutError } from './errors/timeout-error.js';
import { IDEMPOTENCY_KEY_HEADER } from './idempotency.js';
import type { ClientLogger, FetchLike, RetryInfo, RetryPolicy } from './options.js';
import type { Scrubber } from './redact.js';
import type { BodyStore } from './request-body.js';

/** Who hears about retries. */
export interface RetryHooks {
  onRetry?: ((info: RetryInfo) => void) | undefined;
  logger?: ClientLogger | undefined;
  scrub: Scrubber;
  bodies: BodyStore;
}

/** True for requests that are safe to send again: GET, HEAD, and anything carrying an Idempotency-Key. */
export function isRetryableRequest(request: Request): boolean {
  return request.method === 'GET' || request.method === 'HEAD' || request.headers.has(IDEMPOTENCY_KEY_HEADER);
}

type Failure = { response: Response; error?: undefined } | { error: NetworkError | TimeoutError; response?: undefined };

// Note: register it after the idempotency and auth middleware, so that the copy it keeps for resending
// already carries the Idempotency-Key and the credentials, and every attempt sends the same key.
/** Middleware that sends a request again, up to `policy.attempts` in all, after a network error, a time-out, 429 or 5xx. */
export function retryMiddleware(policy: RetryPolicy, hooks: RetryHooks): Middleware {
  // Each retryable request, or an untouched clone of it when its body is a stream fetch will read.
  const copies = new WeakMap<Request, Request>();
  const takeCopy = (request: Request) => {
    const copy = copies.get(request);
    // Note: dropped at once, so the response a retry ends with is not retried again by onResponse.
    copies.delete(request);
    return copy;
  };

  async function retry(copy: Request, first: Failure, fetch: FetchLike): Promise<Response> {
    let failure = first;
    for (let attempt = 1; ; attempt += 1) {
      if (attempt >= policy.attempts) {
        if (failure.response) return failure.response;
        throw withAttempts(failure.error, attempt);
      }
      const delayMs = failure.response ? responseDelay(policy, attempt, failure.response) : backoffDelay(policy, attempt);
      report(copy, attempt, delayMs, failure);
      await policy.sleep(delayMs, copy.signal);
      try {
        const response = await fetch(hooks.bodies.again(copy));
        if (!isRetryableStatus(response.status)) return response;
        failure = { response };
      } catch (error) {
        if (!isTransportError(error)) throw error;
        failure = { error };
      }
    }
  }

  function report(request: Request, attempt: number, delayMs: number, failure: Failure): void {
    const reason: RetryInfo['reason'] = failure.response ? 'status' : failure.error instanceof TimeoutError ? 'timeout' : 'network';
    const info: RetryInfo = { method: request.method, url: request.url, attempt, attempts: policy.attempts, delayMs, reason };
    if (failure.response) info.status = failure.response.status;
    hooks.onRetry?.(info);
    const why = failure.response ? `status ${failure.response.status}` : reason;
    hooks.logger?.warn?.(
      hooks.scrub.text(`${request.method} ${request.url}: ${why}; retrying in ${delayMs} ms (attempt ${attempt + 1} of ${policy.attempts})`),
    );
  }

  return {
    onRequest({ request }) {
      if (policy.attempts > 1 && isRetryableRequest(request)) copies.set(request, hooks.bodies.replayable(request) ? request : request.clone());
      return undefined;
    },
    onResponse({ request, response, options }) {
      const copy = takeCopy(request);
      if (!copy || !isRetryableStatus(response.status)) return undefined;
      return retry(copy, { response }, options.fetch);
    },
    onError({ request, error, options }) {
      const copy = takeCopy(request);
      if (!copy || !isTransportError(error)) return undefined;
      return retry(copy, { error }, options.fetch);
    },
  };
}

function isTransportError(error: unknown): error is NetworkError | TimeoutError {
  return error instanceof RequestError;
}

function withAttempts(error: NetworkError | TimeoutError, attempts: number): NetworkError | TimeoutError {
  const details = { method: error.method, url: error.url, attempts, cause: error.cause, idempotencyKey: error.idempotencyKey };
  return error instanceof TimeoutError ? new TimeoutError({ ...details, timeoutMs: error.timeoutMs }) : new NetworkError(details);
}
