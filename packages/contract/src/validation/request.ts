// Checks a request against its operation in the contract, and says which problem the contract answers a bad one with.
import { mediaTypeOf, readBody, type BodyInput } from './body.js';
import { readParameters, type ParameterTexts } from './parameters.js';
import { describeErrors } from './describe.js';
import { resolveOperation } from './spec.js';
import type { Api, HeadersLike, OperationSpec, ParameterSpec, Violation } from './types.js';

/** A request as it arrived: path parameters (as matchOperation decoded them), query, headers and body. */
export interface RequestInput extends BodyInput {
  params?: Readonly<Record<string, string>>;
  query?: URLSearchParams;
  headers?: HeadersLike;
  /** The Content-Type, when not in `headers`; a parsed `body` without one is taken as the first declared media type. */
  contentType?: string | null;
}

/** A request that fits the contract: each location's declared parameters as typed values (defaults filled in), and the body. */
export interface ValidRequest {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  /** Declared headers by the name the contract writes (`Idempotency-Key`). */
  headers: Record<string, unknown>;
  body: unknown;
  mediaType: string | undefined;
}

/** The problem `code` of a rejected request, as the contract's BadRequest and UnprocessableEntity responses show it. */
export type RequestProblemCode = 'bad_request' | 'idempotency_key_missing' | 'validation_failed';

/** A request checked: valid, or rejected with the status and problem code the contract gives and every violation. */
export type RequestValidation =
  | { ok: true; request: ValidRequest }
  | { ok: false; status: 400 | 422; code: RequestProblemCode; violations: Violation[] };

/** The header whose absence the contract answers with 400 idempotency_key_missing (components/responses/BadRequest). */
const IDEMPOTENCY_KEY = 'idempotency-key';

const reject = (status: 400 | 422, code: RequestProblemCode, violations: Violation[]): RequestValidation => ({
  ok: false,
  status,
  code,
  violations,
});

const textsFrom =
  (input: RequestInput): ParameterTexts =>
  (parameter: ParameterSpec) => {
    if (parameter.in === 'query') return input.query?.getAll(parameter.name) ?? [];
    const text = parameter.in === 'path' ? input.params?.[parameter.name] : input.headers?.get(parameter.name);
    return text === undefined || text === null ? [] : [text];
  };

/** What the body check found: what makes the body unreadable (400), what breaks its schema (422), and what it holds. */
interface BodyCheck {
  unreadable: Violation[];
  invalid: Violation[];
  value?: unknown;
  mediaType?: string;
}

const unreadable = (violation: Violation): BodyCheck => ({ unreadable: [violation], invalid: [] });

/** Reads and checks the body against the operation's request body. */
function checkBody(operation: OperationSpec, input: RequestInput): BodyCheck {
  const read = readBody(input);
  const declared = operation.requestBody;
  if (read.kind === 'absent') {
    return {
      unreadable: [],
      invalid: declared?.required ? [{ in: 'body', pointer: '', detail: 'A request body is required.' }] : [],
    };
  }
  if (!declared) return unreadable({ in: 'body', pointer: '', detail: 'This operation takes no request body.' });
  const accepted = Object.keys(declared.content);
  const given = mediaTypeOf(input.contentType ?? input.headers?.get('content-type'));
  const mediaType = given ?? (input.rawBody === undefined || input.rawBody === null ? accepted[0] : undefined);
  const media = mediaType === undefined ? undefined : declared.content[mediaType];
  if (!media) {
    const detail = `Header "Content-Type" must be ${accepted.join(' or ')}${given ? `, not ${given}` : ' with a body'}.`;
    return unreadable({ in: 'header', pointer: '/Content-Type', detail });
  }
  if (read.kind === 'malformed') return unreadable({ in: 'body', pointer: '', detail: read.detail });
  const invalid = media.validator(read.value)
    ? []
    : describeErrors(media.validator.errors, { in: 'body', pointer: '' });
  return { unreadable: [], invalid, value: read.value, mediaType: mediaType! };
}

/**
 * Whether a request's path and query parameters fit an operation of `variant`, its headers and body unread: what a
 * caller may look at before the whole request is checked (the sandbox reads the objects a path names ahead of the
 * check only when this holds, so that an id or an offset the contract refuses never reaches its store).
 */
export function parametersFit(
  variant: Api,
  operation: OperationSpec | string,
  input: Pick<RequestInput, 'params' | 'query'>,
): boolean {
  const spec = resolveOperation(variant, operation);
  const texts = textsFrom(input);
  const fit = (location: ParameterSpec['in']) =>
    readParameters(
      spec.parameters.filter((parameter) => parameter.in === location),
      texts,
    ).violations.length === 0;
  return fit('path') && fit('query');
}

/**
 * Checks a request against an operation of `variant` (the spec, or its operationId). A body that cannot be read
 * (malformed JSON, a media type the operation does not take, a body where none is taken) is 400 `bad_request`; a
 * missing Idempotency-Key is 400 `idempotency_key_missing`; anything else that breaks the contract is 422
 * `validation_failed`, with every violation.
 */
export function validateRequest(
  variant: Api,
  operation: OperationSpec | string,
  input: RequestInput,
): RequestValidation {
  const spec = resolveOperation(variant, operation);
  const body = checkBody(spec, input);
  if (body.unreadable.length > 0) return reject(400, 'bad_request', body.unreadable);
  const texts = textsFrom(input);
  const key = spec.parameters.find(
    (parameter) => parameter.in === 'header' && parameter.name.toLowerCase() === IDEMPOTENCY_KEY,
  );
  if (key?.required && texts(key).length === 0) {
    return reject(400, 'idempotency_key_missing', readParameters([key], texts).violations);
  }
  const read = (location: ParameterSpec['in']) =>
    readParameters(
      spec.parameters.filter((parameter) => parameter.in === location),
      texts,
    );
  const [path, query, headers] = [read('path'), read('query'), read('header')];
  const violations = [...path.violations, ...query.violations, ...headers.violations, ...body.invalid];
  if (violations.length > 0) return reject(422, 'validation_failed', violations);
  return {
    ok: true,
    request: {
      path: path.values,
      query: query.values,
      headers: headers.values,
      body: body.value,
      mediaType: body.mediaType,
    },
  };
}
