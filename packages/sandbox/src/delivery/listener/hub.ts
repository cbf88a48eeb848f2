// The listeners this instance holds: one WebSocket each, the attempts sent on it waiting for their outcome frames, and
// a timer that renews each listener's lease and flushes its tenant (the safety net under the bus). An attempt is sent
// only by the instance holding its listener (the runner's `holds`), so that its outcome comes back on the connection
// that carried it, to the instance that records it.
import type { WebSocket } from 'ws';
import { TenantRevokedError } from '../../stores/tenant-revoked-error.js';
import { LISTENER_LEASE_MS, removeEndpoint, renewListener } from '../../core/index.js';
import type { AcceptedListener } from '../../http/upgrade-tickets.js';
import type { TenantStore } from '../../stores/types.js';
import type { ListenerTarget, SentOutcome, SignedRequest } from '../send-attempt.js';
import { NOT_CONNECTED } from '../send-attempt.js';
import { outcomeOf, parseOutcome, type AttemptFrame, type ReadyFrame } from './frames.js';

/** How often a held listener's lease is renewed and its tenant flushed. */
export const RENEW_EVERY_MS = 5_000;
/** How often the sandbox pings; a connection that missed the last pong is dropped. */
export const PING_EVERY_MS = 15_000;
/** How long past the delivery time-out an outcome may take to come back over the network. */
const OUTCOME_MARGIN_MS = 2_000;
/** The most attempts one connection has in flight; past it an attempt fails at once rather than queue in memory. */
const MAX_PENDING = 64;

/** What the hub needs. */
export interface ListenerHubSettings {
  store: TenantStore;
  /** Sends what is due on the tenant (the delivery runner's flush). */
  flush(tenant: string): Promise<unknown>;
  wallNow(): number;
  /** The delivery time-out, in ms: how long a client's receiver may take. */
  timeoutMs: number;
  onError(error: unknown): void;
}

/** The connections this instance holds. */
export interface ListenerHub {
  /** Whether this instance holds the connection of the tenant's listener `endpoint`. */
  holds(tenant: string, endpoint: string): boolean;
  /** Sends an attempt on its listener's connection; resolves with the client's outcome, or a failure. Never rejects. */
  forward(listener: ListenerTarget, request: SignedRequest): Promise<SentOutcome>;
  /** Takes a WebSocket just opened for an accepted listener: says `ready`, then flushes the tenant. */
  attach(ws: WebSocket, listener: AcceptedListener): void;
  /** Closes every connection with 1001 (the listeners stay for their lease, for the clients to resume elsewhere). */
  close(): void;
}

interface Held {
  ws: WebSocket;
  tenant: string;
  id: string;
  pending: Map<string, (outcome: SentOutcome) => void>;
  alive: boolean;
  timers: ReturnType<typeof setInterval>[];
}

const keyOf = (tenant: string, endpoint: string) => `${tenant}\u0000${endpoint}`;

/** A hub with no connection yet. */
export function createListenerHub(settings: ListenerHubSettings): ListenerHub {
  const held = new Map<string, Held>();

  const renew = async (conn: Held) => {
    const until = settings.wallNow() + LISTENER_LEASE_MS;
    // Note: a revoked tenant's state is never made again (TenantRevokedError); its listener ends as a removed one does.
    const kept = await settings.store
      .transaction(conn.tenant, (state) => renewListener(state, conn.id, until))
      .catch((error: unknown) => {
        if (error instanceof TenantRevokedError) return false;
        throw error;
      });
    if (!kept) {
      conn.ws.close(4004, 'The listener endpoint was removed.');
      return;
    }
    await settings.flush(conn.tenant);
  };

  const drop = (conn: Held, code: number) => {
    for (const timer of conn.timers) clearInterval(timer);
    for (const resolve of conn.pending.values()) resolve({ ok: false, error: NOT_CONNECTED, unsent: true });
    conn.pending.clear();
    const key = keyOf(conn.tenant, conn.id);
    if (held.get(key) !== conn) return;
    held.delete(key);
    // Note: only a clean close by the client ends the listener; after a drop it waits for its lease, so that the
    // client can come back to it (this instance or another) and resume.
    if (code === 1000)
      settings.store.transaction(conn.tenant, (state) => void removeEndpoint(state, conn.id)).catch(settings.onError);
  };

  return {
    // Note: a connection closing is no longer held, so that an attempt it gave back is not taken for it again.
    holds: (tenant, endpoint) => held.get(keyOf(tenant, endpoint))?.ws.readyState === 1,
    forward(listener, request) {
      const conn = held.get(keyOf(listener.tenant, listener.endpoint));
      if (!conn || conn.ws.readyState !== conn.ws.OPEN)
        return Promise.resolve({ ok: false, error: NOT_CONNECTED, unsent: true });
      if (conn.pending.size >= MAX_PENDING)
        return Promise.resolve({ ok: false, error: 'network: the listener has too many attempts in flight.' });
      const frame: AttemptFrame = {
        type: 'attempt',
        delivery_id: listener.delivery,
        attempt: listener.attempt,
        event_id: request.eventId,
        timeout_ms: settings.timeoutMs,
        headers: request.headers,
        body: request.body,
      };
      const key = `${listener.delivery}:${listener.attempt}`;
      return new Promise<SentOutcome>((resolve) => {
        const timer = setTimeout(() => {
          conn.pending.delete(key);
          resolve({ ok: false, error: `timeout: the listener gave no outcome within ${settings.timeoutMs} ms.` });
        }, settings.timeoutMs + OUTCOME_MARGIN_MS);
        conn.pending.set(key, (outcome) => {
          clearTimeout(timer);
          conn.pending.delete(key);
          resolve(outcome);
        });
        conn.ws.send(
          JSON.stringify(frame),
          (error) => error && conn.pending.get(key)?.({ ok: false, error: NOT_CONNECTED, unsent: true }),
        );
      });
    },
    attach(ws, listener) {
      const key = keyOf(listener.tenant, listener.id);
      // Note: a client that resumes before its old connection was found dead replaces it.
      const replaced = held.get(key);
      replaced?.ws.close(4009, 'Replaced by a newer connection of this listener.');
      const conn: Held = { ws, tenant: listener.tenant, id: listener.id, pending: new Map(), alive: true, timers: [] };
      held.set(key, conn);
      ws.on('pong', () => (conn.alive = true));
      ws.on('message', (data, binary) => {
        const parsed = binary
          ? { refused: 'A frame is binary; send JSON text.' }
          : parseOutcome((data as Buffer).toString('utf8'));
        if ('refused' in parsed) {
          ws.close(1008, parsed.refused);
          return;
        }
        // Note: an outcome of an attempt no longer awaited (timed out, or sent before a resume) is ignored.
        conn.pending.get(`${parsed.delivery_id}:${parsed.attempt}`)?.(outcomeOf(parsed));
      });
      ws.on('close', (code) => drop(conn, code));
      ws.on('error', () => ws.terminate());
      conn.timers.push(
        setInterval(() => void renew(conn).catch(settings.onError), RENEW_EVERY_MS),
        setInterval(() => {
          if (!conn.alive) return void ws.terminate();
          conn.alive = false;
          ws.ping();
        }, PING_EVERY_MS),
      );
      for (const timer of conn.timers) timer.unref();
      const ready: ReadyFrame = { type: 'ready', listener: { id: listener.id, secret: listener.secret } };
      ws.send(JSON.stringify(ready));
      // Note: what fell due while the client was away is sent now, in order, after `ready`.
      void settings.flush(listener.tenant).catch(settings.onError);
    },
    close() {
      for (const conn of [...held.values()]) {
        conn.ws.close(1001, 'The sandbox is stopping.');
        drop(conn, 1001);
      }
    },
  };
}
