// What Connect Webhook Listener sees of a WebSocket upgrade in flight (http/upgrade.ts), apart from the upgrade itself
// so that the runtime can name it without importing the server's side.
import type { AcceptedListener } from '../delivery/listener/hub.js';

/** Upgrade requests by the Headers object the fetch handler sees (the pipeline passes it on as it is). */
export interface UpgradeTickets {
  /** Whether the request with these headers is a WebSocket upgrade of the node server, waiting to be accepted. */
  awaits(headers: Headers): boolean;
  /** Accepts it: once the handler has answered, the handshake is made and the hub holds the socket. */
  accept(headers: Headers, listener: AcceptedListener): void;
}
