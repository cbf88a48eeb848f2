// Reads a response body in full without ever holding more than a limit: what the client and the webhook sender share.

/** Where to stop reading: the limit, the error to throw past it, and optionally a promise that ends the read early. */
export interface ReadLimit {
  maxBytes: number;
  tooLarge: () => Error;
  /** Rejects to stop waiting for the next chunk, for a fetch that may not honour its abort signal. */
  stop?: Promise<never>;
}

const EMPTY: Uint8Array<ArrayBuffer> = new Uint8Array(0);

/** The body's bytes; throws `tooLarge()` when Content-Length or the bytes read pass `maxBytes`, cancelling the download. */
export async function readBounded(response: Response, limit: ReadLimit): Promise<Uint8Array<ArrayBuffer>> {
  if (response.body === null) return EMPTY;
  if (Number(response.headers.get('content-length')) > limit.maxBytes) {
    await response.body.cancel().catch(() => {});
    throw limit.tooLarge();
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await (limit.stop ? Promise.race([reader.read(), limit.stop]) : reader.read());
    if (done) break;
    size += value.byteLength;
    if (size > limit.maxBytes) {
      // Note: cancelling the reader aborts the download, so an endless body costs at most the limit.
      void reader.cancel().catch(() => {});
      throw limit.tooLarge();
    }
    chunks.push(value as Uint8Array<ArrayBuffer>);
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
