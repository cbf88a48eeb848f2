// Local receivers for end-to-end tests: node:http on 127.0.0.1, a free port, closed by the caller; and a client for them.
import {
  createServer,
  request,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import {
  createFetchWebhookHandler,
  createNodeWebhookHandler,
  type WebhookHandlerOptions,
} from '../../packages/contract/src/webhooks/index.js';

/** A started server, its URL and the headers of every request it received. */
export interface Receiver {
  url: string;
  received: IncomingHttpHeaders[];
  close(): Promise<void>;
}

/** Starts a server around a Node request handler, ignoring its promise as node:http does. */
export async function serveNode(
  handle: (req: IncomingMessage, res: ServerResponse) => unknown,
  options: ServerOptions = {},
): Promise<Receiver> {
  const received: IncomingHttpHeaders[] = [];
  const server = createServer(options, (req, res) => {
    received.push(req.headers);
    void handle(req, res);
  });
  return listen(server, received);
}

/** Starts a server around a fetch-style handler, converting Node's request and response. */
export function serveFetch(handle: (request: Request) => Promise<Response>): Promise<Receiver> {
  return serveNode(async (req, res) => {
    const headers = Object.entries(req.headers).flatMap(([name, value]) =>
      value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((one): [string, string] => [name, one]),
    );
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers,
      body: hasBody ? (Readable.toWeb(req) as ReadableStream) : null,
      duplex: 'half',
    } as RequestInit);
    const response = await handle(request);
    response.headers.forEach((value, name) => res.setHeader(name, value));
    res.writeHead(response.status).end(Buffer.from(await response.arrayBuffer()));
  });
}

/** Starts a receiver of one adapter, by name, around the given options. */
export const serveAdapter = {
  node: <AllowEarlier extends boolean>(options: WebhookHandlerOptions<AllowEarlier>) =>
    serveNode(createNodeWebhookHandler(options)),
  fetch: <AllowEarlier extends boolean>(options: WebhookHandlerOptions<AllowEarlier>) =>
    serveFetch(createFetchWebhookHandler(options)),
};

async function listen(server: Server, received: IncomingHttpHeaders[]): Promise<Receiver> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    received,
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** An answer as the sender sees it. */
export interface Answer {
  status: number;
  body: string;
}

/** How post() sends its chunks. */
export interface PostOptions {
  /** Milliseconds between chunks (default 0: all at once). */
  gapMs?: number;
  /** Give up, failing the test, when no answer came within this many milliseconds (default 5,000). */
  timeoutMs?: number;
}

/**
 * POSTs the chunks (chunked transfer unless the headers give a Content-Length) and resolves with the answer. Writing
 * stops as soon as an answer arrives, so a receiver may answer before the body ended.
 */
export function post(
  url: string,
  chunks: (string | Buffer)[],
  headers: Record<string, string>,
  options: PostOptions = {},
): Promise<Answer> {
  const { gapMs = 0, timeoutMs = 5000 } = options;
  return new Promise((resolve, reject) => {
    let answered = false;
    let gap: NodeJS.Timeout | undefined;
    const req = request(url, { method: 'POST', headers, agent: false }, (res) => {
      answered = true;
      clearTimeout(gap);
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        clearTimeout(giveUp);
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    const giveUp = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    // Note: once answered, a write into the closed connection may fail; that is the receiver hanging up, not an error.
    req.on('error', (error) => answered || (clearTimeout(giveUp), reject(error)));
    const queue = [...chunks];
    const writeNext = (): void => {
      if (answered) return;
      const chunk = queue.shift();
      if (chunk === undefined) return void req.end();
      req.write(chunk);
      if (gapMs === 0) writeNext();
      else gap = setTimeout(writeNext, gapMs);
    };
    writeNext();
  });
}
