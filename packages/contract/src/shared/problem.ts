// problem+json (RFC 9457 plus the contract's `code`, `request_id` and `errors`): every problem body the package answers
// with is built here (packages/contract/src/validation's, the sandbox's, the webhook receivers' and `webhook listen`'s), so that whatever
// text goes in, it fits the contract's Problem schema: bounded lengths, no control characters, a URI-reference `instance`.
import { problemCatalogue } from '../../generated/operations/problems.js';
import type { Problem, ProblemFieldError } from '../../generated/types/shared.js';
import { bounded, printable } from './text.js';

/** The media type of a problem. */
export const PROBLEM_JSON = 'application/problem+json';

/** A field error: where in the request, and what is wrong there. */
export interface FieldError {
  pointer: string;
  detail: string;
}

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
  errors?: readonly FieldError[];
}

// Note: the limits of packages/contract/openapi/components/schemas/Problem.yaml and ProblemFieldError.yaml.
const MAX = { title: 255, detail: 2048, uri: 2048, errors: 100, pointer: 512, fieldDetail: 1024 };
const CODE = /^[a-z][a-z0-9_]{0,63}$/;
const REQUEST_ID = /^[A-Za-z0-9_.-]{1,128}$/;

/** Whether `text` fits the contract's `request_id`. */
export const isRequestId = (text: string): boolean => REQUEST_ID.test(text);

/** Where the contract documents each problem `code`. */
export const problemType = (code: string): string => `https://docs.payments.example/problems/${code}`;

/** The media type of a JSON answer: `application/problem+json` for a 4xx/5xx, `application/json` otherwise. */
export const contentTypeOf = (status: number): string => (status >= 400 ? PROBLEM_JSON : 'application/json');

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

function fieldErrors(errors: readonly FieldError[]): ProblemFieldError[] {
  const shown = errors.length > MAX.errors ? errors.slice(0, MAX.errors - 1) : errors;
  const fields = shown.map((error) => ({
    // Note: a pointer is cut, not marked, so that what is left still points at the start of the same path.
    pointer: (error.pointer === '' || error.pointer.startsWith('/') ? error.pointer : `/${error.pointer}`).slice(
      0,
      MAX.pointer,
    ),
    detail: bounded(printable(error.detail), MAX.fieldDetail),
  }));
  if (shown.length < errors.length)
    fields.push({ pointer: '', detail: `And ${errors.length - shown.length} more violations, not listed.` });
  return fields;
}

/** A problem body that fits the contract's Problem schema; throws on a code, status or request id the schema refuses. */
export function problemDetails(init: ProblemInit): Problem {
  if (!CODE.test(init.code))
    throw new RangeError(`A problem code must be snake_case (${CODE.source}), not ${JSON.stringify(init.code)}`);
  const known = Object.hasOwn(problemCatalogue, init.code) ? problemCatalogue[init.code] : undefined;
  const status = init.status ?? known?.status;
  const title = init.title ?? known?.title;
  if (status === undefined || title === undefined)
    throw new RangeError(`The contract lists no problem ${init.code}; give its status and title`);
  if (!Number.isInteger(status) || status < 400 || status > 599)
    throw new RangeError(`A problem's status must be 400-599, not ${status}`);
  if (init.requestId !== undefined && !REQUEST_ID.test(init.requestId))
    throw new RangeError(`A request id must match ${REQUEST_ID.source}`);
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
