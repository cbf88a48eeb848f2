// Thrown when no HTTP response arrived (connection refused, DNS failure, reset), after every allowed attempt.

/** Where a thrown request error happened; no headers, so no credentials. */
export interface RequestErrorDetails {
  method: string;
  url: string;
  /** Attempts made, the failed one included. */
  attempts: number;
  /** The underlying error, already free of credentials. */
  cause: unknown;
  /** The request's Idempotency-Key, if it had one: resend with it to make the call at most once. */
  idempotencyKey?: string | undefined;
}

/** The service could not be reached; `cause` holds the underlying fetch error. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  /** HTTP method of the failed request. */
  readonly method: string;
  /** URL of the failed request. */
  readonly url: string;
  /** How many attempts were made before giving up. */
  readonly attempts: number;
  /** The Idempotency-Key the request carried: resending with it cannot perform the operation twice. */
  readonly idempotencyKey: string | undefined;

  constructor(details: RequestErrorDetails) {
    super(
      `${details.method} ${details.url} failed before a response arrived${attemptsNote(details.attempts)}: ` +
        `${describeCause(details.cause)}. Check baseUrl and that the service is reachable${resendNote(details.idempotencyKey)}.`,
      { cause: details.cause },
    );
    this.method = details.method;
    this.url = details.url;
    this.attempts = details.attempts;
    this.idempotencyKey = details.idempotencyKey;
  }
}

/** ` (after N attempts)` when there was more than one; shared by the request errors' messages. */
export function attemptsNote(attempts: number): string {
  return attempts > 1 ? ` (after ${attempts} attempts)` : '';
}

/** How to resend safely, when the request carried an Idempotency-Key; shared by the request errors' messages. */
export function resendNote(idempotencyKey: string | undefined): string {
  return idempotencyKey === undefined ? '' : `; to try again without risk of doing it twice, resend with Idempotency-Key ${idempotencyKey}`;
}

function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const inner = cause.cause instanceof Error ? ` (${cause.cause.message})` : '';
  return `${cause.message}${inner}`;
}
