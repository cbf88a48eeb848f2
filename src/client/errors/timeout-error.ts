// Thrown when an attempt did not complete within `timeoutMs`, after every allowed attempt.
import { attemptsNote, resendNote, type RequestErrorDetails } from './network-error.js';

/** The service did not answer in time; `cause` holds the abort reason of the last attempt. */
export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
  /** HTTP method of the request. */
  readonly method: string;
  /** URL of the request. */
  readonly url: string;
  /** How many attempts were made before giving up. */
  readonly attempts: number;
  /** The per-attempt limit that was exceeded, in milliseconds. */
  readonly timeoutMs: number;
  /** The Idempotency-Key the request carried: resending with it cannot perform the operation twice. */
  readonly idempotencyKey: string | undefined;

  constructor(details: RequestErrorDetails & { timeoutMs: number }) {
    super(
      `${details.method} ${details.url} got no complete response within ${details.timeoutMs} ms${attemptsNote(details.attempts)}. ` +
        `Raise timeoutMs if the service is slow, or try again later${resendNote(details.idempotencyKey)}.`,
      { cause: details.cause },
    );
    this.method = details.method;
    this.url = details.url;
    this.attempts = details.attempts;
    this.timeoutMs = details.timeoutMs;
    this.idempotencyKey = details.idempotencyKey;
  }
}
