// The postgres store's listener bus: NOTIFY on the pool to publish, and one dedicated connection per instance doing
// LISTEN, opened on the first subscription and opened again after an error (a database restart), so that instances on
// one database tell the one holding a tenant's listener that it has attempts waiting.
import type { ListenerBus } from '../types.js';
import { loadPeer } from './migrate.js';
import type { PostgresPool } from './pool.js';

/** The channel every instance listens on; the payload is a tenant id. */
export const LISTENER_CHANNEL = 'sandbox_listener';
const RETRY_MS = [250, 1_000, 5_000];

/** A ListenerBus on the store's pool, and what closes its connection. */
export function createPostgresBus(
  db: PostgresPool,
  connectionString: string | undefined,
  onError: (error: unknown) => void,
): ListenerBus & { close(): Promise<void> } {
  const subscribers = new Set<(tenant: string) => void>();
  let client: { end(): Promise<void> } | undefined;
  let opening: Promise<void> | undefined;
  let closed = false;
  let failures = 0;
  let retry: ReturnType<typeof setTimeout> | undefined;

  const open = async () => {
    const pg = await loadPeer('pg', () => import('pg'));
    const made = new pg.default.Client(connectionString === undefined ? {} : { connectionString });
    made.on('notification', (message) => {
      if (message.channel !== LISTENER_CHANNEL || !message.payload) return;
      for (const subscriber of subscribers) subscriber(message.payload);
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
    publish(tenant) {
      db.query('SELECT pg_notify($1, $2)', [LISTENER_CHANNEL, tenant]).catch(onError);
    },
    subscribe(onTenant) {
      subscribers.add(onTenant);
      if (!client) start();
      return () => void subscribers.delete(onTenant);
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
