// Local receivers for end-to-end tests: node:http on 127.0.0.1, a free port, closed by the caller.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

/** A started server, its URL and the headers of every request it received. */
export interface Receiver {
  url: string;
  received: IncomingHttpHeaders[];
  close(): Promise<void>;
}

/** Starts a server around a Node request handler. */
export async function serveNode(handle: (req: IncomingMessage, res: ServerResponse) => unknown): Promise<Receiver> {
  const received: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
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

async function listen(server: Server, received: IncomingHttpHeaders[]): Promise<Receiver> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    received,
    close: () => new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
