// Thrown when no HTTP response arrived (connection refused, DNS failure, reset), after every allowed attempt.
import { RequestError, type RequestErrorDetails } from './request-error.js';

export type { RequestErrorDetails } from './request-error.js';

/** The service could not be reached; `cause` holds a credential-free copy of the underlying fetch error. */
export class NetworkError extends RequestError {
  override readonly name = 'NetworkError';

  constructor(details: RequestErrorDetails) {
    const cause = details.cause instanceof Error ? `: ${details.cause.message}` : '';
    super(details, 'failed before a response arrived', `${cause}. Check baseUrl and that the service is reachable`);
  }
}
