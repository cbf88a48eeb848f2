// The postgres store's listener bus: NOTIFY on the pool to publish, and one dedicated connection per instance doing
// LISTEN, opened on the first subscription and opened again after an error (a database restart), so that instances on
// one database tell the one holding a tenant's listener that it has attempts waiting.
import type { ListenerBus } from '../types.js';
import type { ConnectionBounds } from '../connection-bounds.js';
import { connectionConfig } from './connect.js';
import { loadPeer } from './migrate.js';
import type { PostgresPool } from './pool.js';

/** The channel every instance listens on; the payload is `{"tenant", "endpoint"}` as JSON. */
export const LISTENER_CHANNEL = 'sandbox_listener';
const RETRY_MS = [250, 1_000, 5_000];

/** A ListenerBus on the store's pool, and what closes its connection. */
export function createPostgresBus(
  db: PostgresPool,
  connectionString: string | undefined,
  bounds: Partial<ConnectionBounds>,
  onError: (error: unknown) => void,
): ListenerBus & { close(): Promise<void> } {
  const subscribers = new Set<(tenant: string, endpoint: string) => void>();
  let client: { end(): Promise<void> } | undefined;
  let opening: Promise<void> | undefined;
  let closed = false;
  let failures = 0;
  let retry: ReturnType<typeof setTimeout> | undefined;

  const open = async () => {
    const pg = await loadPeer('pg', () => import('pg'));
    const made = new pg.default.Client(connectionConfig(connectionString, bounds));
    made.on('notification', (message) => {
      if (message.channel !== LISTENER_CHANNEL || !message.payload) return;
      const { tenant, endpoint } = payloadOf(message.payload);
      if (tenant === undefined || endpoint === undefined) return;
      for (const subscriber of subscribers) subscriber(tenant, endpoint);
    });
    made.on('error', () => reopen(made));
    made.on('end', () => reopen(made));
    await made.connect();
    await made.query(`LISTEN ${LISTENER_CHANNEL}`);
    if (closed) return void (await made.end());
    client = made;
    failures = 0;
  };
  const start = () => {
    opening ??= open()
      .catch((error: unknown) => {
        onError(error);
        reopen(undefined);
      })
      .finally(() => (opening = undefined));
  };
  const reopen = (made: { end(): Promise<void> } | undefined) => {
    if (made !== undefined && client !== made) return;
    client = undefined;
    made?.end().catch(() => {});
    if (closed || retry) return;
    // Note: a notification sent meanwhile is lost; the holder's periodic flush finds what it announced.
    retry = setTimeout(
      () => {
        retry = undefined;
        start();
      },
      RETRY_MS[Math.min(failures++, RETRY_MS.length - 1)],
    );
    retry.unref();
  };
  return {
    publish(tenant, endpoint) {
      db.query('SELECT pg_notify($1, $2)', [LISTENER_CHANNEL, JSON.stringify({ tenant, endpoint })]).catch(onError);
    },
    subscribe(onListener) {
      subscribers.add(onListener);
      if (!client) start();
      return () => void subscribers.delete(onListener);
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      await opening;
      await client?.end();
      client = undefined;
    },
  };
}

/** A notification's tenant and endpoint; undefined members for a payload of someone else's on the channel. */
function payloadOf(payload: string): { tenant?: string; endpoint?: string } {
  try {
    const { tenant, endpoint } = JSON.parse(payload) as { tenant?: unknown; endpoint?: unknown };
    return typeof tenant === 'string' && typeof endpoint === 'string' ? { tenant, endpoint } : {};
  } catch {
    return {};
  }
}
