// Reading a body in full without ever holding more than a limit, and optionally within a deadline: the one reader of
// the clients, the webhook sender and receivers, the sandbox's requests and the conformance kit's transport.
// Note: no Node import, so that the clients that use it still run in browsers; a Node stream is read through its events.

/** Where to stop reading: the limit, the error to throw past it, and optionally a promise that ends the read early. */
export interface ReadLimit {
  maxBytes: number;
  tooLarge: () => Error;
  /** Rejects to stop waiting for the next chunk (a deadline, or a fetch that may not honour its abort signal); the read rejects with its reason. */
  stop?: Promise<never>;
}

/** A fetch Request or Response: its headers and its body stream. */
export interface WebBody {
  readonly headers: Headers;
  readonly body: ReadableStream<Uint8Array> | null;
}

/** A Node readable with its headers, such as node:http's IncomingMessage. */
export interface NodeBody {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  on(event: 'data', listener: (chunk: Uint8Array<ArrayBuffer>) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  off(event: 'data', listener: (chunk: Uint8Array<ArrayBuffer>) => void): unknown;
  off(event: 'end' | 'close', listener: () => void): unknown;
  off(event: 'error', listener: (error: Error) => void): unknown;
  resume(): unknown;
}

const EMPTY: Uint8Array<ArrayBuffer> = new Uint8Array(0);

/**
 * The body's bytes; throws `tooLarge()` when Content-Length or the bytes read pass `maxBytes`, and rejects with the
 * reason of `stop`; either way the download is cancelled.
 */
export async function readBounded(from: WebBody, limit: ReadLimit): Promise<Uint8Array<ArrayBuffer>> {
  if (from.body === null) return EMPTY;
  if (Number(from.headers.get('content-length')) > limit.maxBytes) {
    // Note: cancelling is not awaited, since a stalled sender may never let it finish.
    void from.body.cancel().catch(() => {});
    throw limit.tooLarge();
  }
  const reader = from.body.getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  // Note: the stop promise may reject between two reads; a handler keeps that from being an unhandled rejection.
  limit.stop?.catch(() => {});
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let size = 0;
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await (limit.stop ? Promise.race([reader.read(), limit.stop]) : reader.read());
    } catch (error) {
      cancel();
      throw error;
    }
    if (next.done) return concat(chunks, size);
    size += next.value.byteLength;
    if (size > limit.maxBytes) {
      // Note: cancelling the reader aborts the download, so an endless body costs at most the limit.
      cancel();
      throw limit.tooLarge();
    }
    chunks.push(next.value as Uint8Array<ArrayBuffer>);
  }
}

/**
 * The same for a Node readable: throws `tooLarge()` past `maxBytes`, rejects with the reason of `stop`, with the
 * stream's error, or when it closes before its end. Past the limit or the stop the stream is left flowing, so the rest
 * is drained and dropped and an answer can still be written on its connection.
 */
export function readBoundedNode(from: NodeBody, limit: ReadLimit): Promise<Uint8Array<ArrayBuffer>> {
  if (Number(from.headers['content-length'] ?? 0) > limit.maxBytes) return Promise.reject(limit.tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    let size = 0;
    let settled = false;
    const finish = (outcome: Uint8Array<ArrayBuffer> | Error): void => {
      if (settled) return;
      settled = true;
      from.off('data', onData);
      from.off('end', onEnd);
      from.off('error', finish);
      from.off('close', onClose);
      from.resume();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const onData = (chunk: Uint8Array<ArrayBuffer>): void => {
      size += chunk.byteLength;
      if (size <= limit.maxBytes) chunks.push(chunk);
      else finish(limit.tooLarge());
    };
    const onEnd = (): void => finish(concat(chunks, size));
    const onClose = (): void => finish(new Error('The sender closed the connection before the body ended.'));
    limit.stop?.catch((reason: unknown) => finish(reason instanceof Error ? reason : new Error(String(reason))));
    from.on('data', onData);
    from.on('end', onEnd);
    from.on('error', finish);
    from.on('close', onClose);
  });
}

/** A deadline for `ReadLimit.stop`: rejects with `error()` after `ms`; `clear()` once the read is over. */
export function readDeadline(ms: number, error: () => Error): { stop: Promise<never>; clear(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(error()), ms)));
  return { stop, clear: () => clearTimeout(timer) };
}

function concat(chunks: readonly Uint8Array<ArrayBuffer>[], size: number): Uint8Array<ArrayBuffer> {
  if (chunks.length === 0) return EMPTY;
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
