// RFC 9457 problem details: the body of every error the contract describes, with helpers to narrow and print it.
import type { ProblemCode } from '../../generated/operations/problems.js';
import type { Problem } from '../../generated/types/shared.js';
import { isUndocumentedErrorBody, type UndocumentedErrorBody } from './undocumented.js';

// Problem is an error body (`status`, stable `code`, `title`, `detail`, `request_id`, and `errors` on validation
// failures); ProblemFieldError one violation inside `errors`; ProblemCode every `code` the contract's responses show.
export type { ProblemCode } from '../../generated/operations/problems.js';
export type { Problem, ProblemFieldError } from '../../generated/types/shared.js';

/** True when `value` is a Problem body; use it on `error` to tell a contract error from an UndocumentedErrorBody (e.g. a proxy's HTML). */
export function isProblem(value: unknown): value is Problem {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.type === 'string' &&
    typeof v.title === 'string' &&
    typeof v.status === 'number' &&
    typeof v.code === 'string' &&
    (v.errors === undefined || Array.isArray(v.errors))
  );
}

/**
 * True when `value` is a Problem with the given stable `code`, e.g. `hasProblemCode(error, 'idempotency_key_reused')`;
 * `code` must be one of the contract's codes, so a misspelt one does not compile.
 */
// Note: `& string` makes TypeScript list the codes in its error for a wrong one, instead of naming the alias.
// eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents -- redundant for the type, not for the error message (see above)
export function hasProblemCode<Code extends ProblemCode & string>(
  value: unknown,
  code: Code,
): value is Problem & { code: Code } {
  return isProblem(value) && value.code === code;
}

const EXCERPT_CHARS = 200;

/**
 * One line for logs and messages: `422 validation_failed: <detail> [/amount: <detail>] (request_id req_…)` for a
 * Problem, `404 answer the contract does not describe (text/html): "<excerpt>"` for anything else.
 */
export function describeProblem(problem: Problem | UndocumentedErrorBody): string {
  // Note: a result's `error` is undefined when the call succeeded (reached from JavaScript, or past a cast); calling that
  // an empty body would send the reader looking for an answer that never came.
  if (problem === undefined || problem === null)
    return 'no error: the call succeeded, so its result has no error to describe';
  if (!isProblem(problem)) return describeUndocumented(problem);
  const fields = (problem.errors ?? []).map((e) => `${e.pointer}: ${e.detail}`).join('; ');
  const requestId = problem.request_id ? ` (request_id ${problem.request_id})` : '';
  return `${problem.status} ${problem.code}: ${problem.detail ?? problem.title}${fields ? ` [${fields}]` : ''}${requestId}`;
}

// Note: also reached from JavaScript, or with a raw body, so every field is checked rather than trusted.
function describeUndocumented(value: unknown): string {
  if (!isUndocumentedErrorBody(value)) {
    const excerpt = excerptOfValue(value);
    return excerpt === ''
      ? 'an empty body the contract does not describe'
      : `a body the contract does not describe: "${excerpt}"`;
  }
  const type = typeof value.contentType === 'string' ? value.contentType : 'no content type';
  const excerpt = typeof value.excerpt === 'string' ? value.excerpt : excerptOfValue(value.body);
  return excerpt === ''
    ? `${value.status} answer the contract does not describe (${type}, empty body)`
    : `${value.status} answer the contract does not describe (${type}): "${excerpt}"`;
}

function excerptOfValue(value: unknown): string {
  if (value === undefined || value === null || value === '') return '';
  let text: string | undefined;
  try {
    text = typeof value === 'string' ? value : JSON.stringify(value);
  } catch {
    // Note: a BigInt or a cycle; String() below is the last resort.
  }
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the last resort for what JSON cannot write (a function, a symbol, a BigInt, a cycle): its String() is all there is to show
  text ??= String(value);
  const flat = text
    .slice(0, EXCERPT_CHARS * 4)
    .replace(/[\u0000-\u001F\u007F]+/g, ' ')
    .trim();
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS)}…` : flat;
}
