// Gives every failed call an `error` the caller can narrow: the Problem when the body is one, else an
// UndocumentedErrorBody saying what came back.
import { isProblem } from './problem.js';
import { excerptOf } from './read-response.js';
import type { Scrubber } from './redact.js';
import type { UndocumentedErrorBody } from './undocumented.js';

/** What openapi-fetch resolves a call to. */
interface FetchResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** The result with a non-2xx answer's `error` set to its Problem, or to an UndocumentedErrorBody for any other body. */
export function withErrorBody<Result extends FetchResult>(result: Result, scrub: Scrubber): Result {
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
