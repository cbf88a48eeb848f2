// Reads a message body as JSON: whether there is one, its media type, and its value or why it is not JSON.
import secureJson from 'secure-json-parse';
import { bounded, printable } from '../shared/text.js';
import type { RawBody } from './types.js';

/** A body as given: raw text or bytes (read first when both are given), or a value already parsed; neither means none. */
export interface BodyInput {
  rawBody?: RawBody | null;
  body?: unknown;
}

/** A body read: absent, a JSON value, or text that is not JSON (with why). */
export type ReadBody = { kind: 'absent' } | { kind: 'json'; value: unknown } | { kind: 'malformed'; detail: string };

const decoder = new TextDecoder('utf-8', { fatal: true });

/** The media type of a Content-Type value, lower-cased and without parameters; undefined when there is none. */
export function mediaTypeOf(contentType: string | null | undefined): string | undefined {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type ? type : undefined;
}

/** Reads a body: raw text that is empty or only white space is no body; a parsed `body` is taken as it is. */
export function readBody(input: BodyInput): ReadBody {
  if (input.rawBody === undefined || input.rawBody === null)
    return input.body === undefined ? { kind: 'absent' } : { kind: 'json', value: input.body };
  let text: string;
  try {
    text = typeof input.rawBody === 'string' ? input.rawBody : decoder.decode(input.rawBody);
  } catch {
    return { kind: 'malformed', detail: 'The body is not valid UTF-8.' };
  }
  if (text.trim() === '') return { kind: 'absent' };
  try {
    return { kind: 'json', value: secureJson.parse(text, null, { protoAction: 'error', constructorAction: 'error' }) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (reason.includes('forbidden prototype property')) {
      return {
        kind: 'malformed',
        detail:
          'The body has a "__proto__" or "constructor.prototype" key, which is refused because it could change the prototype of objects it is copied into.',
      };
    }
    // Note: the parser's message may quote the body; control characters are escaped and the length is bounded.
    return { kind: 'malformed', detail: `The body is not valid JSON (${printable(bounded(reason, 200))}).` };
  }
}
