// A Response whose body has already arrived in full, handed on without building a second stream for it.

const decoder = new TextDecoder();

// Note: the transport reads every body under the time-out, so the Response it returns holds bytes, not a
// connection. `new Response(bytes)` would wrap them in a new ReadableStream, which in Node costs more than
// the rest of the response handling together; text() and json() (what openapi-fetch calls) read the bytes
// directly, and a stream is built only when `body`, clone() or another reader is used.
/** A Response over a body that was read in full: same status, headers, url and bytes as the one it replaces. */
export class BufferedResponse extends Response {
  readonly #bytes: Uint8Array<ArrayBuffer>;
  readonly #url: string;
  readonly #redirected: boolean;
  #used = false;
  #streamed: Response | undefined;

  constructor(bytes: Uint8Array<ArrayBuffer>, from: Response) {
    super(null, { status: from.status, statusText: from.statusText, headers: from.headers });
    this.#bytes = bytes;
    this.#url = from.url;
    this.#redirected = from.redirected;
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
    return this.#used || (this.#streamed?.bodyUsed ?? false);
  }

  override text(): Promise<string> {
    if (this.#streamed) return this.#streamed.text();
    if (this.#used) return Promise.reject(new TypeError('Body is unusable: Body has already been read'));
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
    if (this.bodyUsed) throw new TypeError('Response.clone: Body has already been consumed.');
    return new BufferedResponse(this.#bytes, this);
  }

  // A real Response over the same bytes, made on first need; every later read goes through it.
  #stream(): Response {
    if (!this.#streamed) {
      this.#streamed = new Response(this.#bytes, { status: this.status, statusText: this.statusText, headers: this.headers });
      // Note: once text() or json() has read the body, its stream is spent, as a fetched body's would be.
      if (this.#used) void this.#streamed.body?.getReader();
    }
    return this.#streamed;
  }
}
