// Thrown when the service answers with a redirect the client will not follow.
import { RequestError, type RequestErrorDetails } from './request-error.js';

/** The service answered 3xx; the request was not resent there, so neither credentials nor body left the API's origin. */
export class RedirectError extends RequestError {
  override readonly name = 'RedirectError';
  /** The redirect's status (301, 302, 303, 307 or 308; 0 where the runtime hides it). */
  readonly status: number;
  /** Where the redirect pointed, resolved against the request URL; undefined when the runtime hides it. */
  readonly location: string | undefined;

  constructor(details: RequestErrorDetails & { status: number; location: string | undefined; why: string }) {
    const where = details.location === undefined ? 'elsewhere' : `to ${details.location}`;
    super(details, `was redirected (${details.status}) ${where}`, `, which the client does not follow: ${details.why}`);
    this.status = details.status;
    this.location = details.location;
  }
}
