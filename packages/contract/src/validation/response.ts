// Checks a response against what its operation declares: the status, the headers, the media type and the body.
import { mediaTypeOf, readBody, type BodyInput } from './body.js';
import { describeErrors } from './describe.js';
import { readParameters } from './parameters.js';
import { declaredResponse, resolveOperation } from './spec.js';
import type { Api, HeadersLike, OperationSpec, ResponseSpec, Violation } from './types.js';

/** A response as sent or received; `body` is a parsed value, `rawBody` the text or bytes (parsed here). */
export interface ResponseInput extends BodyInput {
  status: number;
  headers?: HeadersLike;
}

const NO_HEADERS: HeadersLike = { get: () => null };

/** What is wrong with the body and its Content-Type, given the response the contract declares. */
function checkContent(response: ResponseSpec, status: number, input: ResponseInput): Violation[] {
  const read = readBody(input);
  const accepted = Object.keys(response.content);
  if (accepted.length === 0) {
    return read.kind === 'absent'
      ? []
      : [{ in: 'body', pointer: '', detail: `Status ${status} declares no body, but one was sent.` }];
  }
  if (read.kind === 'absent')
    return [
      {
        in: 'body',
        pointer: '',
        detail: `Status ${status} declares a body (${accepted.join(' or ')}), but none was sent.`,
      },
    ];
  const given = mediaTypeOf(input.headers?.get('content-type'));
  const media = given === undefined ? undefined : response.content[given];
  if (!media) {
    const detail = `Header "Content-Type" must be ${accepted.join(' or ')} for status ${status}${given ? `, not ${given}` : ', but it is missing'}.`;
    return [{ in: 'header', pointer: '/Content-Type', detail }];
  }
  if (read.kind === 'malformed') return [{ in: 'body', pointer: '', detail: read.detail }];
  return media.validator(read.value) ? [] : describeErrors(media.validator.errors, { in: 'body', pointer: '' });
}

/**
 * Every way a response breaks an operation of `variant` (the spec, or its operationId): a status it does not declare,
 * a declared header missing or malformed, a media type it does not declare, a body that breaks the schema. Empty when
 * the response fits.
 */
export function validateResponse(variant: Api, operation: OperationSpec | string, input: ResponseInput): Violation[] {
  const spec = resolveOperation(variant, operation);
  const declared = declaredResponse(variant, spec, input.status);
  if (!declared) {
    const detail = `Status ${input.status} is not declared for ${spec.operationId}; the contract declares ${Object.keys(spec.responses).join(', ')}.`;
    return [{ in: 'status', pointer: '', detail }];
  }
  const headers = input.headers ?? NO_HEADERS;
  const { violations } = readParameters(declared.response.headers, (header) => {
    const text = headers.get(header.name);
    return text === null ? [] : [text];
  });
  return [...violations, ...checkContent(declared.response, input.status, input)];
}
