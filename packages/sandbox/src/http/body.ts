// Reading a request's JSON body within a size cap, so that no peer can make the sandbox hold more than the cap.
import secureJson from 'secure-json-parse';
import { readBounded } from '@merchant-payments/contract/internal/shared/read-bounded.js';

/** The largest request body the sandbox reads by default: far above any body the contract allows. */
export const DEFAULT_MAX_BODY_BYTES = 256 * 1024;

/** A parsed body (undefined when there was none), or why it could not be read. */
export type BodyRead = { ok: true; value: unknown } | { ok: false; detail: string };

class TooLarge extends Error {}
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Reads and parses the body; refuses one over `maxBytes`, one that is not UTF-8 JSON, and prototype-poisoning keys. */
export async function readJsonBody(request: Request, maxBytes: number): Promise<BodyRead> {
  // Note: fetch forbids a body on GET and HEAD, and @hono/node-server gives them none, so there is nothing to read.
  if (request.method === 'GET' || request.method === 'HEAD') return { ok: true, value: undefined };
  const tooLarge = { ok: false, detail: `The request body is larger than ${maxBytes} bytes.` } as const;
  let bytes: Uint8Array;
  try {
    const length = request.headers.get('content-length');
    if (length !== null && /^\d+$/.test(length)) {
      if (Number(length) > maxBytes) return tooLarge;
      // Note: over HTTP the parser reads exactly the declared length, so arrayBuffer() is bounded (in-process, the body
      // is the caller's own), and @hono/node-server reads it straight from the socket rather than through a web stream.
      bytes = new Uint8Array(await request.arrayBuffer());
      if (bytes.length > maxBytes) return tooLarge;
    } else {
      bytes = await readBounded(request, { maxBytes, tooLarge: () => new TooLarge() });
    }
  } catch (error) {
    if (error instanceof TooLarge) return tooLarge;
    return { ok: false, detail: 'The request body could not be read to its end.' };
  }
  if (bytes.length === 0) return { ok: true, value: undefined };
  try {
    return {
      ok: true,
      value: secureJson.parse(decoder.decode(bytes), null, { protoAction: 'error', constructorAction: 'error' }),
    };
  } catch {
    // Note: the parser's message may quote the body, so it is not passed on.
    return {
      ok: false,
      detail: 'The request body is not UTF-8 JSON, or has a "__proto__" or "constructor.prototype" key.',
    };
  }
}
