// Receivers that misbehave, on 127.0.0.1: one that never answers, one that answers without end, one that redirects.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A started receiver: its URL, how many requests reached it, and how to stop it (open connections included). */
export interface HostileReceiver {
  url: string;
  requests: number;
  close(): Promise<void>;
}

async function start(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<HostileReceiver> {
  const server = createServer((req, res) => {
    receiver.requests += 1;
    handle(req, res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const receiver: HostileReceiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    requests: 0,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  return receiver;
}

/** Reads the request and never answers. */
export const silentReceiver = () => start((req) => void req.resume());

/** Answers `status` with a Location header pointing at `location`. */
export const redirectingReceiver = (status: number, location: string) =>
  start((req, res) => {
    req.resume();
    res.writeHead(status, { location }).end('moved');
  });

/** Answers 200 with `body`, Content-Length included. */
export const fixedReceiver = (body: string) => start((req, res) => void req.resume().on('end', () => res.end(body)));

/**
 * Answers 200 with a chunked body that never ends, writing only as fast as the client reads (back-pressure), and
 * never more than `limit` bytes. `written` counts what was handed to the socket; `hungUp` settles when the client
 * closed the connection.
 */
export async function endlessReceiver(limit: number) {
  const state = { written: 0, hungUp: undefined as Promise<void> | undefined };
  let hungUp!: () => void;
  state.hungUp = new Promise<void>((resolve) => (hungUp = resolve));
  const chunk = Buffer.alloc(16 * 1024, 'a');
  const receiver = await start((req, res) => {
    req.resume();
    res.once('close', hungUp);
    res.writeHead(200, { 'content-type': 'text/plain' });
    const pump = () => {
      while (!res.destroyed && state.written < limit) {
        state.written += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.destroy();
    };
    pump();
  });
  return Object.assign(receiver, { state: state as { written: number; hungUp: Promise<void> } });
}
