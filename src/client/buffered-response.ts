// A Response whose body has already arrived in full, handed on without building a second stream for it.

// Note: marked pure so that bundlers which do not know TextDecoder can still drop this module when it is unused.
const decoder = /* @__PURE__ */ new TextDecoder();

// Note: the transport reads every body under the time-out, so the Response it returns holds bytes, not a
// connection. `new Response(bytes)` would wrap them in a new ReadableStream, which in Node costs more than
// the rest of the response handling together; text() and json() (what openapi-fetch calls) read the bytes
// directly, and a real Response over them is built only when `body`, clone() after a read, or another reader is used.
/** A Response over a body that was read in full: same status, headers, url and bytes as the one it replaces. */
export class BufferedResponse extends Response {
  readonly #bytes: Uint8Array<ArrayBuffer>;
  readonly #from: Response;
  #used = false;
  #real: Response | undefined;

  constructor(bytes: Uint8Array<ArrayBuffer>, from: Response) {
    // Note: a Response is a valid ResponseInit: its status, statusText and headers are copied.
    super(null, from);
    this.#bytes = bytes;
    this.#from = from;
  }

  override get url(): string {
    return this.#from.url;
  }

  override get redirected(): boolean {
    return this.#from.redirected;
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    return this.#stream().body;
  }

  override get bodyUsed(): boolean {
    return this.#used || Boolean(this.#real?.bodyUsed);
  }

  override text(): Promise<string> {
    // Note: once the body was read, the real Response's own reader rejects with the usual TypeError.
    if (this.#used || this.#real) return this.#stream().text();
    this.#used = true;
    return Promise.resolve(decoder.decode(this.#bytes));
  }

  override json(): Promise<any> {
    return this.text().then(JSON.parse);
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
    return this.bodyUsed ? this.#stream().clone() : new BufferedResponse(this.#bytes, this);
  }

  // The real Response over the same bytes, made on first need; every later read goes through it. After
  // text() or json() its stream is locked, so it is spent as a fetched body would be.
  #stream(): Response {
    if (!this.#real) {
      this.#real = new Response(this.#bytes, this);
      if (this.#used) void this.#real.body?.getReader();
    }
    return this.#real;
  }
}
