// Thrown when an attempt did not complete within `timeoutMs`, after every allowed attempt.
import { RequestError, type RequestErrorDetails } from './request-error.js';

/** The service did not answer in time; `cause` holds the abort reason of the last attempt. */
export class TimeoutError extends RequestError {
  override readonly name = 'TimeoutError';
  /** The per-attempt limit that was exceeded, in milliseconds. */
  readonly timeoutMs: number;

  constructor(details: RequestErrorDetails & { timeoutMs: number }) {
    super(
      details,
      `got no complete response within ${details.timeoutMs} ms`,
      '. Raise timeoutMs if the service is slow, or try again later',
    );
    this.timeoutMs = details.timeoutMs;
  }
}
