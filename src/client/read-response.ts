// Reads one response in full, never past maxResponseBytes, and checks that a successful body is JSON.
import { BufferedResponse } from './buffered-response.js';
import { ResponseParseError } from './errors/response-parse-error.js';
import { ResponseTooLargeError } from './errors/response-too-large-error.js';
import type { RequestErrorDetails } from './errors/request-error.js';
import type { Scrubber } from './redact.js';
import { parseJson as parseSafely } from './safe-json.js';
import { readBounded } from '../shared/read-bounded.js';

/** A response whose body has arrived in full: a Response over the bytes, and the bytes themselves. */
export interface Answer {
  response: Response;
  bytes: Uint8Array<ArrayBuffer>;
}

/** What readAnswer needs besides the response. */
export interface ReadOptions {
  maxResponseBytes: number;
  /** Set on the returned response's headers so every result tells which key the call used. */
  idempotencyKey: string | undefined;
  scrub: Scrubber;
  /** The request, for the errors. */
  details: RequestErrorDetails;
}

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
const EXCERPT_CHARS = 200;
const EMPTY: Uint8Array<ArrayBuffer> = new Uint8Array(0);
const decoder = new TextDecoder();

/** Reads the body under the limit; throws ResponseTooLargeError past it, and ResponseParseError for a 2xx body that is not JSON. */
export async function readAnswer(response: Response, options: ReadOptions): Promise<Answer> {
  const tooLarge = () =>
    new ResponseTooLargeError({ ...options.details, status: response.status, maxResponseBytes: options.maxResponseBytes });
  const nullBody = NULL_BODY_STATUSES.has(response.status);
  const bytes = nullBody ? EMPTY : await readBounded(response, { maxBytes: options.maxResponseBytes, tooLarge });
  const parsed = response.ok && bytes.length > 0 ? parseJson(response, bytes, options) : undefined;
  // Note: a fetched Response's headers are immutable, and the body has been read: the answer is a new
  // Response over the same bytes, so the caller and any onResponse middleware get an unread one.
  let headers: Headers = response.headers;
  if (options.idempotencyKey !== undefined) {
    headers = new Headers(headers);
    headers.set('Idempotency-Key', options.idempotencyKey);
  }
  const answer = nullBody
    ? new Response(null, { status: response.status, statusText: response.statusText, headers })
    : new BufferedResponse(bytes, response, { headers, parsed });
  return { response: answer, bytes };
}

function parseJson(response: Response, bytes: Uint8Array, options: ReadOptions): unknown {
  const text = decoder.decode(bytes);
  try {
    return parseSafely(text);
  } catch {
    throw new ResponseParseError({
      ...options.details,
      status: response.status,
      contentType: response.headers.get('content-type') ?? undefined,
      excerpt: excerptOf(text, options.scrub),
    });
  }
}

/** The start of a body for messages: credentials scrubbed, control characters flattened, at most 200 characters. */
export function excerptOf(text: string, scrub: Scrubber): string {
  // Note: scrubbed before it is cut, so a credential cannot survive half-cut at the end.
  const flat = scrub.text(text).replace(/[\u0000-\u001F\u007F]+/g, ' ').trim();
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS)}…` : flat;
}
