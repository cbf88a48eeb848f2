// Reading a request's JSON body within a size cap, so that no peer can make the sandbox hold more than the cap.
import secureJson from 'secure-json-parse';
import { readBounded } from '../../shared/read-bounded.js';

/** The largest request body the sandbox reads by default: far above any body the contract allows. */
export const DEFAULT_MAX_BODY_BYTES = 256 * 1024;

/** A parsed body (undefined when there was none), or why it could not be read. */
export type BodyRead = { ok: true; value: unknown } | { ok: false; detail: string };

class TooLarge extends Error {}
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Reads and parses the body; refuses one over `maxBytes`, one that is not UTF-8 JSON, and prototype-poisoning keys. */
export async function readJsonBody(request: Request, maxBytes: number): Promise<BodyRead> {
  let bytes: Uint8Array;
  try {
    // Note: readBounded reads a Response; wrapping the request's stream in one copies nothing.
    const length = request.headers.get('content-length');
    bytes = await readBounded(new Response(request.body, length === null ? {} : { headers: { 'content-length': length } }), {
      maxBytes,
      tooLarge: () => new TooLarge(),
    });
  } catch (error) {
    if (error instanceof TooLarge) return { ok: false, detail: `The request body is larger than ${maxBytes} bytes.` };
    return { ok: false, detail: 'The request body could not be read to its end.' };
  }
  if (bytes.length === 0) return { ok: true, value: undefined };
  try {
    return { ok: true, value: secureJson.parse(decoder.decode(bytes), null, { protoAction: 'error', constructorAction: 'error' }) };
  } catch {
    // Note: the parser's message may quote the body, so it is not passed on.
    return { ok: false, detail: 'The request body is not UTF-8 JSON, or has a "__proto__" or "constructor.prototype" key.' };
  }
}
