// What Connect Webhook Listener sees of a WebSocket upgrade in flight (http/upgrade.ts), apart from the upgrade itself,
// so that the runtime (and the package's types) name it without reaching `ws`, whose types are not a dependency.

/** A listener as the control operation accepted it: whose, its id and its secret. */
export interface AcceptedListener {
  tenant: string;
  id: string;
  secret: string;
}

/** Upgrade requests by the Headers object the fetch handler sees (the pipeline passes it on as it is). */
export interface UpgradeTickets {
  /** Whether the request with these headers is a WebSocket upgrade of the node server, waiting to be accepted. */
  awaits(headers: Headers): boolean;
  /** Accepts it: once the handler has answered, the handshake is made and the hub holds the socket. */
  accept(headers: Headers, listener: AcceptedListener): void;
}
