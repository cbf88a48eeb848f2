// Thrown when no HTTP response arrived (connection refused, DNS failure, reset), after every allowed attempt.
import { RequestError, type RequestErrorDetails } from './request-error.js';

export type { RequestErrorDetails } from './request-error.js';

/** The service could not be reached; `cause` holds the underlying fetch error. */
export class NetworkError extends RequestError {
  override readonly name = 'NetworkError';

  constructor(details: RequestErrorDetails) {
    super(details, 'failed before a response arrived', `: ${describeCause(details.cause)}. Check baseUrl and that the service is reachable`);
  }
}

function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const inner = cause.cause instanceof Error ? ` (${cause.cause.message})` : '';
  return `${cause.message}${inner}`;
}
