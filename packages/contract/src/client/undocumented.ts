// An error answer the contract does not describe (a proxy's HTML page, a gateway's own JSON, an empty body), as the
// typed clients return it in `error`, so that it is never mistaken for a Problem.

/**
 * An error answer whose body is not one of the contract's problems, e.g. a proxy's `404` page. Tell it from a Problem
 * with isProblem or isUndocumentedErrorBody; describeProblem prints it.
 */
export interface UndocumentedErrorBody {
  /** Always true: the contract does not describe this body. */
  readonly undocumented: true;
  /** Never set: only a Problem has a `code`, so `error.code === 'not_found'` narrows `error` to the Problem. */
  readonly code?: undefined;
  /** The HTTP status of the answer. */
  readonly status: number;
  /** Its Content-Type header, or undefined when it had none. */
  readonly contentType: string | undefined;
  /** The body as read: the parsed JSON, else the text; undefined when the answer had no body. */
  readonly body: unknown;
  /** The first characters of the body, credentials and control characters removed; empty when there was none. */
  readonly excerpt: string;
}

/** True when `value` is an error body the contract does not describe (what a client returns in place of a Problem). */
export function isUndocumentedErrorBody(value: unknown): value is UndocumentedErrorBody {
  return typeof value === 'object' && value !== null && (value as { undocumented?: unknown }).undocumented === true;
}
