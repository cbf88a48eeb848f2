// The webhooks stage's receiver: a plain HTTP server on 127.0.0.1 that takes every POST as a delivery, reads its raw
// body within a bound and answers with the status the stage chooses. Judging is the stage's job.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST as it arrived: what the signature covers is the raw body, so it is kept as bytes. */
export interface ReceivedDelivery {
  method: string;
  /** The path and query the sender posted to. */
  path: string;
  /** The headers, names in lower case as Node gives them; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The raw body; undefined when it was larger than the bound (and so not read). */
  body: Uint8Array | undefined;
  /** performance.now() when the body was read. */
  at: number;
  /** Date.now() when the body was read, to compare X-Timestamp with. */
  receivedAt: number;
}

export interface WebhookListener {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  close(): Promise<void>;
}

export interface ListenOptions {
  port: number;
  /** Largest body read, in bytes; a larger one is answered 413. */
  maxBodyBytes: number;
  /** Called once per delivery, a too large one included; returns the status to answer with (a too large one gets 413). */
  receive(delivery: ReceivedDelivery): number;
}

const TOO_LARGE = Symbol('too large');

function readBody(req: IncomingMessage, maxBytes: number): Promise<Uint8Array | typeof TOO_LARGE> {
  if (Number(req.headers['content-length'] ?? 0) > maxBytes) return Promise.resolve(TOO_LARGE);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Note: past the bound the rest is drained and dropped, so an endless body costs at most the bound.
      if (size > maxBytes) over = true;
      else chunks.push(chunk);
    });
    req.once('end', () => resolve(over ? TOO_LARGE : Buffer.concat(chunks, size)));
    req.once('error', reject);
  });
}

const headersOf = (req: IncomingMessage): Record<string, string> =>
  Object.fromEntries(
    Object.entries(req.headers).flatMap(([name, value]) =>
      value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : value]],
    ),
  );

function answer(res: ServerResponse, status: number): void {
  if (res.headersSent || res.destroyed) return;
  const body = status >= 200 && status < 300 ? '{}' : JSON.stringify({ status });
  res
    .writeHead(status, { 'content-type': 'application/json', ...(status === 413 ? { connection: 'close' } : {}) })
    .end(body);
}

/** Starts listening on 127.0.0.1 at `port` (0: a free one); rejects with the server's error (EADDRINUSE, say). */
export async function listenForWebhooks(options: ListenOptions): Promise<WebhookListener> {
  const server = createServer((req, res) => {
    if (req.method !== 'POST') {
      req.resume();
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    readBody(req, options.maxBodyBytes).then(
      (body) => {
        const delivery: ReceivedDelivery = {
          method: req.method ?? 'POST',
          path: req.url ?? '/',
          headers: headersOf(req),
          body: body === TOO_LARGE ? undefined : body,
          at: performance.now(),
          receivedAt: Date.now(),
        };
        const status = options.receive(delivery);
        answer(res, body === TOO_LARGE ? 413 : status);
      },
      () => res.destroy(),
    );
  });
  // Note: bounds what a slow or silent sender can hold: the headers in 10 s, the whole request in 30 s.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
