// What every error thrown for a call shares: where the request went, how many attempts it had, and how to resend it safely.

/** Where a thrown request error happened; no headers, so no credentials. */
export interface RequestErrorDetails {
  method: string;
  url: string;
  /** Attempts made, the failed one included. */
  attempts: number;
  /** The underlying error, already free of credentials. */
  cause?: unknown;
  /** The request's Idempotency-Key, if it had one: resend with it to make the call at most once. */
  idempotencyKey?: string | undefined;
}

/** The base of every error a call throws; catch a subclass (NetworkError, TimeoutError, RedirectError, …) to tell them apart. */
export abstract class RequestError extends Error {
  /** HTTP method of the failed request. */
  readonly method: string;
  /** URL of the failed request. */
  readonly url: string;
  /** How many attempts were made before giving up. */
  readonly attempts: number;
  /** The Idempotency-Key the request carried: resending with it cannot perform the operation twice. */
  readonly idempotencyKey: string | undefined;

  /** The message reads `<method> <url> <what>[ (after N attempts)]<advice>[; how to resend safely].` */
  constructor(details: RequestErrorDetails, what: string, advice: string) {
    const attempts = details.attempts > 1 ? ` (after ${details.attempts} attempts)` : '';
    const resend =
      details.idempotencyKey === undefined
        ? ''
        : `; to try again without risk of doing it twice, resend with Idempotency-Key ${details.idempotencyKey}`;
    super(
      `${details.method} ${details.url} ${what}${attempts}${advice}${resend}.`,
      details.cause === undefined ? undefined : { cause: details.cause },
    );
    this.method = details.method;
    this.url = details.url;
    this.attempts = details.attempts;
    this.idempotencyKey = details.idempotencyKey;
  }
}
