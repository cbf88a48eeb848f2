// WebSocket upgrades of the node server (the control API's Connect Webhook Listener): the upgrade request goes through
// the sandbox's own fetch handler, so that its credentials, rate limit, checks and logs are those of any control
// request, and the operation accepts it by marking its ticket. Only then does `ws` write the handshake on the socket;
// otherwise the handler's answer (a 401 problem, say) is written there as a plain HTTP response.
import type { IncomingMessage } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { ListenerHub } from '../delivery/listener/hub.js';
import { MAX_CLIENT_FRAME_BYTES } from '../delivery/listener/frames.js';
import { CONTROL_PREFIX } from './control.js';
import type { AcceptedListener, UpgradeTickets } from './upgrade-tickets.js';

/** The path of the one operation that upgrades. */
export const LISTENER_PATH = `${CONTROL_PREFIX}/webhook-listener`;

/** An upgrade request in flight: the operation marks it accepted with its listener. */
interface Ticket {
  accepted?: AcceptedListener;
}

/** The node server's `upgrade` handling, and the tickets the control operation accepts. */
export function createUpgrades(hub: ListenerHub) {
  const tickets = new WeakMap<Headers, Ticket>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_FRAME_BYTES });
  const answer = async (
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    handle: (request: Request) => Promise<Response>,
  ) => {
    const headers = new Headers();
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'sandbox'}`);
    const request = new Request(url, { method: req.method ?? 'GET', headers });
    const ticket: Ticket = {};
    // Note: only a well-formed WebSocket handshake to the listener's path gets a ticket, so that the operation makes
    // its endpoint only for a connection ws will take; anything else is answered as the plain request would be.
    if (url.pathname === LISTENER_PATH && isHandshake(req)) tickets.set(request.headers, ticket);
    let response: Response;
    try {
      response = await handle(request);
    } catch {
      response = new Response(null, { status: 500 });
    }
    const accepted = ticket.accepted;
    if (accepted) {
      wss.handleUpgrade(req, socket, head, (ws) => hub.attach(ws, accepted));
      return;
    }
    const body = Buffer.from(await response.arrayBuffer());
    const lines = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}`];
    response.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'connection') lines.push(`${name}: ${value}`);
    });
    lines.push(`content-length: ${body.length}`, 'connection: close', '', '');
    socket.end(Buffer.concat([Buffer.from(lines.join('\r\n')), body]));
  };
  return {
    tickets: {
      awaits: (headers) => tickets.has(headers),
      accept(headers, listener) {
        const ticket = tickets.get(headers);
        if (ticket) ticket.accepted = listener;
      },
    } satisfies UpgradeTickets,
    /** Answers one `upgrade` event of the server through `handle`; never rejects (a bad request loses its socket). */
    async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, handle: (request: Request) => Promise<Response>) {
      socket.on('error', () => socket.destroy());
      try {
        await answer(req, socket, head, handle);
      } catch {
        // Note: a Host or header value the URL and Headers parsers refuse; Node's server drops such a request too.
        socket.destroy();
      }
    },
    close: () => wss.close(),
  };
}

/** Whether the request is a WebSocket handshake ws completes (RFC 6455's key and version 13 or 8). */
function isHandshake(req: IncomingMessage): boolean {
  const { upgrade, 'sec-websocket-key': key, 'sec-websocket-version': version } = req.headers;
  return (
    req.method === 'GET' &&
    upgrade?.toLowerCase() === 'websocket' &&
    typeof key === 'string' &&
    /^[+/0-9A-Za-z]{22}==$/.test(key) &&
    (version === '13' || version === '8')
  );
}
