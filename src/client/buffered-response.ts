// A Response over a body the transport has already read in full, handed on without a second stream.
import { parseJson } from './safe-json.js';

// Note: marked pure so that bundlers which do not know TextDecoder can still drop this module when it is unused.
const decoder = /* @__PURE__ */ new TextDecoder();

// Note: the transport reads every body under the time-out and the size limit, so what it returns holds bytes,
// not a connection. `new Response(bytes)` wraps them in a new ReadableStream, and in Node 20 building and reading
// that stream costs about 13 µs: about half of what the client added to a GET on 127.0.0.1 (`npm run bench`: 1.39x
// bare openapi-fetch over a plain Response, 1.15x to 1.22x over this one). text() and json(), the readers
// openapi-fetch uses, serve the bytes directly; any other reader, `body` or clone() after a read goes through a
// real Response over the same bytes, built on first need.
/** A Response over a body that was read in full: the status, headers, url and bytes of the one it replaces. */
export class BufferedResponse extends Response {
  readonly #bytes: Uint8Array<ArrayBuffer>;
  readonly #url: string;
  readonly #redirected: boolean;
  /** The body as the transport parsed it to check it, served once by json() so it is not parsed twice. */
  #parsed: unknown;
  #used = false;
  #real: Response | undefined;

  constructor(bytes: Uint8Array<ArrayBuffer>, from: Response, init: { headers: Headers; parsed?: unknown }) {
    super(null, { status: from.status, statusText: from.statusText, headers: init.headers });
    this.#bytes = bytes;
    this.#url = from.url;
    this.#redirected = from.redirected;
    this.#parsed = init.parsed;
  }

  override get url(): string {
    return this.#url;
  }

  override get redirected(): boolean {
    return this.#redirected;
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    return this.#stream().body;
  }

  override get bodyUsed(): boolean {
    return this.#used || Boolean(this.#real?.bodyUsed);
  }

  override text(): Promise<string> {
    // Note: once the body was read, the real Response's own reader rejects with the usual TypeError.
    if (!this.#claim()) return this.#stream().text();
    return Promise.resolve(decoder.decode(this.#bytes));
  }

  override json(): Promise<any> {
    if (this.#parsed === undefined || !this.#claim()) return this.text().then(parseJson);
    const parsed = this.#parsed;
    this.#parsed = undefined;
    return Promise.resolve(parsed);
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.#stream().arrayBuffer();
  }

  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#stream().bytes();
  }

  override blob(): Promise<Blob> {
    return this.#stream().blob();
  }

  override formData(): Promise<FormData> {
    return this.#stream().formData();
  }

  override clone(): Response {
    return this.bodyUsed ? this.#stream().clone() : new BufferedResponse(this.#bytes, this, { headers: this.headers });
  }

  // True when this read takes the body: it was neither read nor handed out as a stream before.
  #claim(): boolean {
    if (this.#used || this.#real) return false;
    this.#used = true;
    return true;
  }

  // The real Response over the same bytes, made on first need; every later read goes through it. After text() or
  // json() its stream is locked, so it is spent as a fetched body would be.
  #stream(): Response {
    if (!this.#real) {
      this.#real = new Response(this.#bytes, this);
      if (this.#used) void this.#real.body?.getReader();
    }
    return this.#real;
  }
}
