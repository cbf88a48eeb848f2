// What a call resolves to, finished before the caller sees it. openapi-fetch builds `{ data, error, response }` from
// the response after the last middleware has run, so no middleware hook can shape `data` or `error`: this runs on the
// result of each call (see buildClient).
import secureJson from 'secure-json-parse';
import { isProblem } from './problem.js';
import { excerptOf, type Scrubber } from './redact.js';
import type { UndocumentedErrorBody } from './undocumented.js';

/** What openapi-fetch resolves a call to. */
export interface FetchResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

// Note: removed rather than refused, so that the rest of an answer (a payment that was created) still reaches the caller.
const PROTOTYPE_KEYS = { protoAction: 'remove', constructorAction: 'remove' } as const;

/**
 * The result with every `__proto__` key, and every `constructor` holding a `prototype`, removed from `data` and `error`,
 * and a non-2xx answer's `error` set to its Problem or, for any other body, to an UndocumentedErrorBody.
 */
export function finishResult<Result extends FetchResult>(result: Result, scrub: Scrubber): Result {
  // Note: openapi-fetch parses with JSON.parse, which keeps such keys as own properties; an `Object.assign` or a spread
  // of a nested object would then set the prototype of the copy.
  for (const value of [result.data, result.error]) {
    if (value !== null && typeof value === 'object') secureJson.scan(value, PROTOTYPE_KEYS);
  }
  if (result.response.ok || isProblem(result.error)) return result;
  // Note: openapi-fetch leaves `error` undefined for an empty body, so `if (error)` would miss that answer.
  return { ...result, error: undocumentedBody(result.response, result.error, scrub) };
}

function undocumentedBody(response: Response, body: unknown, scrub: Scrubber): UndocumentedErrorBody {
  const text = body === undefined || body === '' ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  return {
    undocumented: true,
    status: response.status,
    contentType: response.headers.get('content-type') ?? undefined,
    body: body === '' ? undefined : body,
    excerpt: excerptOf(text, scrub),
  };
}
