// A scripted node:http server on 127.0.0.1 for the client behaviour tests: it records every request and answers from a queue.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the server received it. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * How the server answers one request: a response (`body` sent as JSON, or `raw` text as is), a dropped connection,
 * no answer at all, or headers and then no body.
 */
export type Reply =
  { status: number; headers?: Record<string, string>; body?: unknown; raw?: string } | 'reset' | 'hang' | 'stall-body';

/** A reply, or a function of the request that returns one. */
export type Responder = Reply | ((request: ReceivedRequest) => Reply);

/** A running scripted server. */
export interface ScriptedServer {
  url: string;
  /** Every request received, in order. */
  requests: ReceivedRequest[];
  /** Queues replies; once the queue is empty every request gets `fallback`. */
  reply(...replies: Responder[]): void;
  /** Closes the server and every connection still open. */
  close(): Promise<void>;
}

/** A problem+json reply with the given status and code. */
export function problemReply(status: number, code: string, headers: Record<string, string> = {}): Reply {
  return {
    status,
    headers: { 'content-type': 'application/problem+json', ...headers },
    body: {
      type: `https://docs.payments.example/problems/${code}`,
      title: code,
      status,
      code,
      detail: `${code} (test)`,
    },
  };
}

/** Starts a scripted server on a free port of 127.0.0.1; `fallback` answers when nothing is queued. */
export async function startScriptedServer(
  fallback: Responder = problemReply(500, 'nothing_scripted'),
): Promise<ScriptedServer> {
  const requests: ReceivedRequest[] = [];
  const queue: Responder[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      const responder = queue.shift() ?? fallback;
      const reply = typeof responder === 'function' ? responder(request) : responder;
      if (reply === 'reset') return req.socket.destroy();
      if (reply === 'hang') return;
      if (reply === 'stall-body') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.write('{"data":');
      }
      const body = reply.raw ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply: (...replies) => queue.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
