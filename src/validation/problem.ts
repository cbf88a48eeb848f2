// Builds problem+json bodies (RFC 9457 plus the contract's `code`, `request_id` and `errors`) that fit the contract's
// Problem schema whatever text goes in: bounded lengths, no control characters, a URI-reference `instance`.
import { problemCatalogue } from '../../generated/operations/operations.js';
import type { Problem, ProblemFieldError } from '../../generated/types/shared.js';
import type { RequestValidation } from './request.js';
import { bounded, printable } from './text.js';
import type { Violation } from './types.js';

/** What a problem says; status, title and type come from the contract's catalogue for a code it lists. */
export interface ProblemInit {
  code: string;
  detail: string;
  /** Needed, with `title`, for a code the contract does not list. */
  status?: number;
  title?: string;
  /** Default: the contract's type URI for the code, else `about:blank`. */
  type?: string;
  /** Usually the request path. */
  instance?: string;
  requestId?: string;
  errors?: readonly { pointer: string; detail: string }[];
}

/** Where a problem occurred, for the helpers below. */
export interface ProblemContext {
  instance?: string;
  requestId?: string;
}

// Note: the limits of openapi/components/schemas/Problem.yaml and ProblemFieldError.yaml.
const MAX = { title: 255, detail: 2048, uri: 2048, errors: 100, pointer: 512, fieldDetail: 1024 };
const CODE = /^[a-z][a-z0-9_]{0,63}$/;
const REQUEST_ID = /^[A-Za-z0-9_.-]{1,128}$/;

/** A URI reference: characters outside RFC 3986's sets percent-encoded, a `%` that starts no escape included. */
function uriReference(text: string): string {
  const encoded = text.replace(/%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/gu, (c) => {
    try {
      return encodeURIComponent(c);
    } catch {
      return '%EF%BF%BD'; // Note: a lone surrogate has no UTF-8 form; U+FFFD stands for it.
    }
  });
  return encoded.length > MAX.uri ? encoded.slice(0, MAX.uri).replace(/%[0-9A-Fa-f]?$/, '') : encoded;
}

function fieldErrors(errors: readonly { pointer: string; detail: string }[]): ProblemFieldError[] {
  const shown = errors.length > MAX.errors ? errors.slice(0, MAX.errors - 1) : errors;
  const fields = shown.map((error) => ({
    // Note: a pointer is cut, not marked, so that what is left still points at the start of the same path.
    pointer: (error.pointer === '' || error.pointer.startsWith('/') ? error.pointer : `/${error.pointer}`).slice(0, MAX.pointer),
    detail: bounded(printable(error.detail), MAX.fieldDetail),
  }));
  if (shown.length < errors.length) fields.push({ pointer: '', detail: `And ${errors.length - shown.length} more violations, not listed.` });
  return fields;
}

/** A problem body that fits the contract's Problem schema; throws on a code, status or request id the schema refuses. */
export function problemDetails(init: ProblemInit): Problem {
  if (!CODE.test(init.code)) throw new RangeError(`A problem code must be snake_case (${CODE.source}), not ${JSON.stringify(init.code)}`);
  const known = Object.hasOwn(problemCatalogue, init.code) ? problemCatalogue[init.code] : undefined;
  const status = init.status ?? known?.status;
  const title = init.title ?? known?.title;
  if (status === undefined || title === undefined) throw new RangeError(`The contract lists no problem ${init.code}; give its status and title`);
  if (!Number.isInteger(status) || status < 400 || status > 599) throw new RangeError(`A problem's status must be 400-599, not ${status}`);
  if (init.requestId !== undefined && !REQUEST_ID.test(init.requestId)) throw new RangeError(`A request id must match ${REQUEST_ID.source}`);
  return {
    type: uriReference(init.type ?? known?.type ?? 'about:blank'),
    title: bounded(printable(title), MAX.title),
    status,
    detail: bounded(printable(init.detail), MAX.detail),
    ...(init.instance !== undefined ? { instance: uriReference(init.instance) } : {}),
    code: init.code,
    ...(init.requestId !== undefined ? { request_id: init.requestId } : {}),
    ...(init.errors !== undefined ? { errors: fieldErrors(init.errors) } : {}),
  };
}

/** Where a violation is, when its detail does not say: the pointer into the body. */
const located = (violation: Violation) => (violation.in === 'body' && violation.pointer ? `${violation.pointer}: ${violation.detail}` : violation.detail);

/** The problem for a rejected request: the status and code validateRequest chose, every violation in `errors`. */
export function requestProblem(rejection: Extract<RequestValidation, { ok: false }>, context: ProblemContext = {}): Problem {
  const { status, code, violations } = rejection;
  const [first] = violations;
  const detail = violations.length === 1 && first ? located(first) : `The request breaks the contract in ${violations.length} places; see errors.`;
  return problemDetails({ ...context, code, status, detail, errors: violations });
}

/**
 * The 500 `internal_error` for an answer that breaks the contract, naming every violation; `subject` says what broke
 * it (a webhook body, say).
 */
export function responseProblem(violations: readonly Violation[], context: ProblemContext = {}, subject = 'The response'): Problem {
  const [first] = violations;
  const detail = violations.length === 1 && first
    ? `${subject} breaks the contract: ${located(first)}`
    : `${subject} breaks the contract in ${violations.length} places; see errors.`;
  return problemDetails({ ...context, code: 'internal_error', detail, errors: violations });
}
