// The operator's signals of a running sandbox, in libraries' formats: GET /healthz, /readyz and /metrics beside the
// contract's operations (like a load balancer's probes, they are part of neither variant's contract), Prometheus
// metrics from prom-client in a registry of this sandbox's own, and one pino JSON line per request.
import { pino, type DestinationStream, type Logger } from 'pino';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { MiddlewareHandler } from 'hono';
import { SWITCHING_PROTOCOLS } from './checked-response.js';
import type { RequestNote, SandboxEnv } from './context.js';
import { occurrence } from './problem.js';
import type { TenantStore } from '../stores/types.js';

/** The paths the operator's signals are served at, outside the contract's operations. */
export const SIGNAL_PATHS = ['/healthz', '/readyz', '/metrics'] as const;

/** How old the store check `/readyz` answers from may be: probes within it share one check. */
export const READY_CACHE_MS = 1_000;

/** How long `/readyz` waits for the store before it answers 503. */
export const READY_TIMEOUT_MS = 5_000;

/** What pino's `redact` censors, should a header ever be logged: the credentials of either variant and the keys. */
export const REDACTED_PATHS = ['authorization', 'x-secret-key', 'x-public-key', 'idempotency-key', 'cookie'].flatMap(
  (name) => [`headers["${name}"]`, `req.headers["${name}"]`, `request.headers["${name}"]`],
);

/**
 * A pino logger writing JSON lines to `destination` (default stderr), with the credentials' headers redacted. The
 * command makes its `--log json` logger with it; pass one to `createSandbox({ logger })` to log the JS API's requests.
 */
export function createSandboxLogger(destination: DestinationStream = pino.destination(2)): Logger {
  return pino(
    {
      base: { name: 'merchant-payments-sandbox' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    },
    destination,
  );
}

/** The signals of one sandbox: its probes and metrics, and the wrapper that logs and counts each request. */
export interface Signals {
  readonly registry: Registry;
  /**
   * The app's first middleware: answers the operator's paths, and gives every other request its note (its request id)
   * before the routes see it, then logs and counts it once it is answered.
   */
  middleware: MiddlewareHandler<SandboxEnv>;
  /**
   * Counts a delivery attempt's outcome; `sent` false when there was nothing to send (its endpoint was removed),
   * `forbidden` when the egress rule refused the endpoint's address.
   */
  delivered(outcome: { ok: boolean; status?: number; forbidden?: boolean }, sent: boolean): void;
  /** Records how late, in ms, the ticker ran a tenant's due work. */
  dueLag(ms: number): void;
  /** Counts the tenants the store forgot as idle. */
  evicted(count: number): void;
}

/** The signals of a sandbox on `store`, logging to `logger`. */
export function createSignals(store: TenantStore, logger: Logger): Signals {
  // Note: a registry per sandbox, never prom-client's global one, so that several sandboxes in one process do not clash.
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'sandbox_requests_total',
    help: 'Requests answered, by operationId ("none": no operation matched) and status.',
    labelNames: ['operation', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'sandbox_request_duration_seconds',
    help: 'Time from a request to its answer (headers), by operationId.',
    labelNames: ['operation'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const deliveries = new Counter({
    name: 'sandbox_deliveries_total',
    help: 'Webhook delivery attempts, by outcome: ok (2xx), rejected (another status), unanswered (no answer), forbidden (the egress rule refused the address), not_sent (nothing to send).',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const lag = new Histogram({
    name: 'sandbox_due_work_lag_seconds',
    help: "How late the real-clock ticker ran a tenant's due work, from the earliest due timer to the run.",
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
  const stats = store.poolStats?.bind(store);
  if (stats) {
    for (const [name, key, help] of [
      ['sandbox_store_pool_connections', 'total', "The store's pool connections, open."],
      ['sandbox_store_pool_idle_connections', 'idle', "The store's pool connections, idle."],
      ['sandbox_store_pool_waiting_clients', 'waiting', "Callers waiting for a connection of the store's pool."],
    ] as const) {
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(stats()[key]);
        },
      });
    }
  }
  const evictions = new Counter({
    name: 'sandbox_tenants_evicted_total',
    help: 'Tenants this instance forgot after their idle time (open mode), by its sweep or to make room for a new one.',
    registers: [registry],
  });
  // Note: after the pool's gauges, which a scrape reads first, so that the count's own connection is not counted in them.
  const count = store.tenantCount?.bind(store);
  if (count) {
    new Gauge({
      name: 'sandbox_tenants',
      help: "Tenants in the store (on postgres, every instance's; a count at most 5 s old).",
      registers: [registry],
      async collect() {
        // Note: a store that does not answer within a second keeps the last count, so that the scrape still reports the rest.
        await withTimeout(count(), 1_000, 'no count').then(
          (n) => this.set(n),
          () => {},
        );
      },
    });
  }

  // Note: a load balancer probes every instance every few seconds, often from several checkers; each probe shares the
  // store check of the last second rather than taking a pool connection of its own.
  let lastCheck: { at: number; done: Promise<void> } | undefined;
  const readiness = (): Promise<void> => {
    const now = performance.now();
    if (lastCheck === undefined || now - lastCheck.at >= READY_CACHE_MS) {
      const done = withTimeout(
        store.ready?.() ?? Promise.resolve(),
        READY_TIMEOUT_MS,
        `the store did not answer within ${READY_TIMEOUT_MS / 1000} s`,
      );
      // Note: a failed check is answered to each probe that shares it; none of them leaves it unhandled.
      done.catch(() => {});
      lastCheck = { at: now, done };
    }
    return lastCheck.done;
  };

  const probe = async (path: string): Promise<Response> => {
    if (path === '/healthz') return Response.json({ status: 'ok' });
    if (path === '/metrics')
      return new Response(await registry.metrics(), { headers: { 'content-type': registry.contentType } });
    try {
      await readiness();
      return Response.json({ status: 'ready' });
    } catch (error) {
      const detail = `Not ready: ${(error as Error).message}.`;
      return new Response(JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status: 503, detail }), {
        status: 503,
        headers: { 'content-type': 'application/problem+json' },
      });
    }
  };

  return {
    registry,
    async middleware(c, next) {
      const started = performance.now();
      const request = c.req.raw;
      // Note: the path only; a query string may carry what a peer should not have put there, and it is never logged.
      const { pathname } = new URL(request.url);
      if (
        (request.method === 'GET' || request.method === 'HEAD') &&
        (SIGNAL_PATHS as readonly string[]).includes(pathname)
      ) {
        c.res = await probe(pathname);
        return;
      }
      const note = { where: occurrence(pathname, request.headers.get('x-request-id')) } as RequestNote;
      c.set('note', note);
      try {
        await next();
      } finally {
        const seconds = (performance.now() - started) / 1000;
        const operation = note.operation ?? 'none';
        // Note: a route that threw has been answered by the app's onError by now.
        const status = !c.finalized ? 500 : c.res.headers.has(SWITCHING_PROTOCOLS) ? 101 : c.res.status;
        requests.inc({ operation, status: String(status) });
        duration.observe({ operation }, seconds);
        const line = {
          requestId: note.where.requestId,
          method: request.method,
          path: pathname,
          operation,
          status,
          durationMs: Math.round(seconds * 1e4) / 10,
          tenant: note.tenant,
          merchant: note.merchant,
        };
        // Note: a request PostgreSQL stopped at a bound is this one line too, at warn, naming the bound.
        if (note.stopped !== undefined) logger.warn({ ...line, stopped: note.stopped }, 'statement stopped');
        else if (logger.isLevelEnabled('info')) logger.info(line, 'request');
      }
    },
    delivered({ ok, status, forbidden }, sent) {
      deliveries.inc({
        outcome: !sent
          ? 'not_sent'
          : forbidden
            ? 'forbidden'
            : ok
              ? 'ok'
              : status === undefined
                ? 'unanswered'
                : 'rejected',
      });
    },
    dueLag(ms) {
      lag.observe(Math.max(0, ms) / 1000);
    },
    evicted(n) {
      evictions.inc(n);
    },
  };
}

/** `promise`, or a rejection saying `why` after `ms`. */
function withTimeout<T>(promise: Promise<T>, ms: number, why: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(why)), ms);
    timer.unref();
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
