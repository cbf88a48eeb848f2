// createSandbox and openSandbox: a tenant store (memory by default, or postgres) with the variants' HTTP layer, the
// webhook outbox and the clock runner around it, served in-process (`fetch`) or over HTTP (`listen`).
import type { Server } from 'node:http';
import type { Registry } from 'prom-client';
import { createAdaptorServer } from '@hono/node-server';
import {
  applyServerTimeouts,
  type ServerTimeouts,
} from '@merchant-payments/contract/internal/shared/server-timeouts.js';
import { addEndpoint, clockNow, createHead, DEFAULT_START, type TenantState } from './core/index.js';
import { createClockRunner } from './clock/runner.js';
import { createFaultInterceptor } from './control/fault-intercept.js';
import { ADMIN_PREFIX, adminRoutes } from './admin/routes.js';
import { controlRoutes } from './control/routes.js';
import { DASHBOARD_PREFIX, dashboardRoutes } from './dashboard/routes.js';
import { createEgressRule } from './delivery/egress.js';
import { createPinnedFetch } from './delivery/pinned-fetch.js';
import { createDeliveryRunner, LEASE_MARGIN_MS } from './delivery/runner.js';
import { createListenerHub } from './delivery/listener/hub.js';
import { prepareAttempt, sendAttempt } from './delivery/send-attempt.js';
import { abortable } from './http/abortable.js';
import { createApp } from './http/app.js';
import { createUpgrades } from './http/upgrade.js';
import { CONTROL_PREFIX } from './http/control.js';
import { resolveOptions, type ResolvedOptions, type SandboxOptions } from './options.js';
import type { SandboxRuntime } from './runtime.js';
import { createInFlightKeys } from './http/in-flight.js';
import { createMerchantBudget } from './http/merchant-budget.js';
import { createRateLimiter } from './http/rate-limit.js';
import { createSignals } from './http/signals.js';
import { createMemoryStore } from './stores/memory.js';
import type { TenantStore, TenantStoreSettings } from './stores/types.js';
import { startTenantSweep } from './stores/sweep.js';
import { tenantIdOf } from './variants/credentials.js';
import { variantA } from './variants/variant-a.js';
import { variantB } from './variants/variant-b.js';
import { variantRoutes } from './variants/routes.js';
import type { CredentialSource } from './variants/operation.js';

/**
 * Names a tenant: in open mode as the API does (Variant A by its bearer token, Variant B by its public key), or by the
 * id the sandbox keeps it under (`sandbox.tenantId`; in issued mode the `ten_…` id the admin API gave it, the only way).
 */
export type SandboxTenant = { accessToken: string } | { publicKey: string } | { tenantId: string };

/** Where and how `listen` serves. */
export interface ListenOptions {
  /** Default 4020; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /**
   * Lets @hono/node-server replace the process's global `Request` and `Response` with its lighter subclasses, which it
   * reads and writes without web streams: nearly twice the GETs per second. Off by default, because it changes
   * globals the rest of the process sees; the `merchant-payments-sandbox` command, which owns its process, turns it on.
   */
  overrideGlobalObjects?: boolean;
  /** How long a peer may take to send headers and a whole request, and an idle connection is kept (DEFAULT_SERVER_TIMEOUTS). */
  timeouts?: ServerTimeouts;
}

/** What close() let finish before it closed, and what it cut off at its deadline. */
export interface CloseReport {
  /** Requests in flight when it began that were answered. */
  answered: number;
  /** Requests still unanswered at the deadline, whose connections it closed. */
  cutOff: number;
  /** Whether every webhook delivery in flight was recorded; if not, each is taken again once its lease runs out. */
  deliveriesSettled: boolean;
}

/** A running sandbox. */
export interface Sandbox {
  /** The whole sandbox as one fetch handler: pass it as a client's `fetch` to run with no port; an aborted request rejects, as fetch does. */
  fetch(request: Request): Promise<Response>;
  /** Serves the sandbox over HTTP (default 127.0.0.1:4020; port 0 picks a free one). */
  listen(options?: ListenOptions): Promise<{ url: string }>;
  /**
   * Stops gracefully: stops accepting connections and the ticker, lets the requests in flight finish and the
   * deliveries in flight be recorded, for at most `graceMs` (default SHUTDOWN_GRACE_MS, 10 s) in all, then closes
   * whatever connections are left and the store (a postgres store's pool); `onClosed` is told what it let finish.
   */
  close(options?: { graceMs?: number; onClosed?: (report: CloseReport) => void }): Promise<void>;
  /** The HTTP requests being answered now, over `listen`'s server. */
  inFlight(): number;
  /** Moves a tenant's clock forward by `seconds` (0 to 365 days, else ClockAdvanceError), running and delivering what falls due; resolves when all is sent. */
  advance(tenant: SandboxTenant, seconds: number): Promise<void>;
  /** A tenant's clock, now (read in a transaction of the store). */
  now(tenant: SandboxTenant): Promise<Date>;
  /** Resolves once no webhook delivery is in flight. */
  settled(): Promise<void>;
  /** The id the sandbox keeps a tenant under (open mode: a hash of its credential; issued mode: its `ten_…` id, given as `{ tenantId }`). */
  tenantId(tenant: SandboxTenant): string;
  /** The secret deliveries are signed with, unless an endpoint has its own. */
  readonly webhookSecret: string;
  /** The store the tenants are kept in (a memory store, a postgres store, or the `store` factory's). */
  readonly store: TenantStore;
  /** The parts the control API is built on. */
  readonly runtime: SandboxRuntime;
  /** This sandbox's own prom-client registry, which `GET /metrics` serves. */
  readonly metrics: Registry;
}

/** How long close() lets requests and deliveries in flight finish before it cuts them off. */
export const SHUTDOWN_GRACE_MS = 10_000;

/** How many expired test tenants one sweep deletes at most, so that a sweep stays short; the next takes the rest. */
const TEST_TENANT_SWEEP_BATCH = 100;

/**
 * Creates a sandbox on the memory store (the default) or on the store a `store` factory makes, at once. A
 * `store: 'postgres'` sandbox connects and migrates first, so it is opened with `await openSandbox(...)` instead, and
 * this throws a TypeError saying so.
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const settings = resolveOptions(options);
  const { store } = settings;
  if (store === 'postgres')
    throw new TypeError(
      "store: 'postgres' connects and migrates before it serves: create it with `await openSandbox({ store: 'postgres' })`.",
    );
  const evicted: EvictionHook = {};
  const storeSettings = tenantStoreSettings(settings, evicted);
  return assemble(settings, store === 'memory' ? createMemoryStore(storeSettings) : store(storeSettings), evicted);
}

/**
 * Opens a sandbox on any store, resolving once the store is ready: with `store: 'postgres'`, once it has connected to
 * `databaseUrl` (default DATABASE_URL, else the PG* variables) and migrated the database. Rejects with the store's
 * error (a missing `pg` or `node-pg-migrate` names the npm install that adds them).
 */
export async function openSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const settings = resolveOptions(options);
  const { store: choice } = settings;
  const evicted: EvictionHook = {};
  const storeSettings = tenantStoreSettings(settings, evicted);
  let store: TenantStore;
  if (choice === 'postgres') {
    // Note: loaded only here, so that the memory path never imports the postgres store.
    const { createPostgresStore } = await import('./stores/postgres/index.js');
    store = await createPostgresStore({
      ...storeSettings,
      connectionString: settings.databaseUrl,
      poolSize: settings.poolSize,
      statementTimeoutMs: settings.statementTimeoutMs,
      lockTimeoutMs: settings.lockTimeoutMs,
    });
  } else {
    store = choice === 'memory' ? createMemoryStore(storeSettings) : choice(storeSettings);
  }
  try {
    return assemble(settings, store, evicted);
  } catch (error) {
    await store.close();
    throw error;
  }
}

/** Told of the tenants a store forgot as idle; assemble() points it at the sandbox's parts once they exist. */
interface EvictionHook {
  to?(ids: string[]): void;
}

/**
 * How the sandbox's stores make a tenant (its clock, seed and settings, its event log's retention, the operator's
 * endpoints) and, in open mode, how many they keep and for how long unused.
 */
function tenantStoreSettings(settings: ResolvedOptions, evicted: EvictionHook): TenantStoreSettings {
  const { now: wallNow } = settings;
  const start = settings.start === undefined ? DEFAULT_START : Number(settings.start);
  const tenantSettings = {
    clock: settings.clock,
    seed: settings.seed,
    retryCompression: settings.retryCompression,
    eventLogLimit: settings.quotas.events,
  };
  return {
    // Note: in issued mode the admin API provisions tenants, and neither a cap nor idleness forgets one.
    bound:
      settings.auth === 'open' ? { max: settings.tenants.max, idleMs: settings.tenants.idleSeconds * 1000 } : undefined,
    now: wallNow,
    onEvicted: (ids) => evicted.to?.(ids),
    newTenant(id) {
      const tenant = createHead(id, { ...tenantSettings, start: settings.clock === 'manual' ? start : wallNow() });
      for (const url of settings.webhookUrls) addEndpoint(tenant, { url }, clockNow(tenant.clock, wallNow()));
      return tenant;
    },
  };
}

/** The sandbox around a store that is ready. */
function assemble(settings: ResolvedOptions, store: TenantStore, evicted: EvictionHook): Sandbox {
  const { now: wallNow, onError } = settings;
  const credentials = credentialSource(settings, store);
  const now = (tenant: TenantState) => clockNow(tenant.clock, wallNow());
  const signals = createSignals(store, settings.logger);
  const egress = createEgressRule({ mode: settings.auth, allow: settings.allowWebhookHosts, resolve: settings.lookup });
  // Note: only without a `fetch` of the user's; its connections go only to addresses the egress rule allowed.
  const pinned = settings.fetch ? undefined : createPinnedFetch(egress);

  const listeners = createListenerHub({
    store,
    flush: (id) => deliveries.flush(id),
    wallNow,
    timeoutMs: settings.deliveryTimeoutMs,
    onError,
  });
  const upgrades = createUpgrades(listeners);
  const bus = store.listenerBus;
  // Note: an instance left a listener's attempts for the one holding its connection; if that is this one, send them.
  const unsubscribe = bus?.subscribe((id, endpoint) => {
    if (listeners.holds(id, endpoint)) void deliveries.flush(id);
  });
  const deliveries = createDeliveryRunner({
    store,
    prepare: prepareAttempt,
    holds: listeners.holds,
    onSkipped: (id, endpoint) => bus?.publish(id, endpoint),
    send: (attempt) =>
      sendAttempt(attempt, {
        secret: settings.webhookSecret,
        fetch: settings.fetch,
        egress,
        pinnedFetch: pinned?.fetch,
        timeoutMs: settings.deliveryTimeoutMs,
        maxResponseBytes: settings.maxDeliveryResponseBytes,
        wallNow,
        validate: settings.validate.webhook?.bind(settings.validate),
        forward: listeners.forward,
      }),
    wallNow,
    leaseMs: settings.deliveryTimeoutMs + LEASE_MARGIN_MS,
    onError,
    onOutcome: signals.delivered,
  });
  const clocks = createClockRunner({
    store,
    deliveries,
    wallNow,
    onError,
    onDueLag: signals.dueLag,
  });
  if (settings.clock === 'real') clocks.startTicker(settings.tickMs);

  evicted.to = (ids) => signals.evicted(ids.length);
  const testTenants = { max: settings.testTenants.max, idleMs: settings.testTenants.idleSeconds * 1000 };
  const { registry } = store;
  /** Deletes the state of revoked test tenants, then their records, so that an instance stopped between leaves them listed for the next sweep. */
  const deleteTests = async (ids: readonly string[]) => {
    for (const id of ids) await store.reset(id);
    await registry?.purge(ids);
  };
  const sweep = startTenantSweep(
    store,
    settings.auth === 'open' ? settings.tenants.idleSeconds * 1000 : undefined,
    onError,
    registry && {
      idleMs: testTenants.idleMs,
      run: async () => deleteTests(await registry.expireTests(wallNow(), TEST_TENANT_SWEEP_BATCH)),
    },
  );
  const faulting = createFaultInterceptor({
    store,
    validators: settings.validate,
    holdMs: settings.faultHoldMs,
  });
  const runtime: SandboxRuntime = {
    store,
    validators: settings.validate,
    intercept: settings.intercept ?? faulting.intercept,
    rateLimit: settings.rateLimit === undefined ? undefined : createRateLimiter(settings.rateLimit, wallNow),
    budget: createMerchantBudget({
      concurrency: settings.merchantConcurrency,
      queueMs: settings.merchantQueueMs,
      queueLength: settings.merchantQueueLength,
    }),
    quotas: settings.quotas,
    limits: {
      ratePerSecond: settings.rateLimit,
      allowWebhookHosts: settings.allowWebhookHosts,
      ...(settings.store === 'postgres'
        ? { statementTimeoutMs: settings.statementTimeoutMs, lockTimeoutMs: settings.lockTimeoutMs }
        : { statementTimeoutMs: undefined, lockTimeoutMs: undefined }),
    },
    egress,
    upgrades: upgrades.tickets,
    maxBodyBytes: settings.maxBodyBytes,
    now,
    wallNow,
    authenticate: async (headers) =>
      (headers.has('authorization') ? variantA : variantB).authenticate(headers, credentials),
    credentials,
    registry,
    settle(id) {
      void deliveries.flush(id);
    },
    advance: (id, seconds) => clocks.advance(id, seconds),
    async deliver(id) {
      await deliveries.flush(id);
    },
    inFlight: createInFlightKeys(),
    async reset(id) {
      await store.reset(id);
      if (registry) await deleteTests(await registry.revokeTests(id, wallNow()));
    },
    testTenants,
    deleteTestTenants: deleteTests,
    onError,
  };
  const app = createApp(
    runtime,
    [
      { prefix: '', routes: variantRoutes(runtime, [variantA, variantB]) },
      { prefix: CONTROL_PREFIX, routes: (settings.control ?? controlRoutes)(runtime) },
      // Note: only with an admin token; without one, /_admin is the ordinary 404 of a path no API has.
      ...(settings.adminToken === undefined
        ? []
        : [{ prefix: ADMIN_PREFIX, routes: adminRoutes(runtime, settings.adminToken) }]),
      ...(settings.dashboard === false
        ? []
        : [{ prefix: DASHBOARD_PREFIX, routes: dashboardRoutes(settings.dashboard) }]),
    ],
    [signals.middleware],
  );
  const handle = (request: Request) => Promise.resolve(app.fetch(request));
  const idOf = (tenant: SandboxTenant) => {
    if ('tenantId' in tenant) return tenant.tenantId;
    // Note: a credential is looked up only by a request, so that these calls never tell whether one was issued.
    if (credentials.auth === 'issued')
      throw new TypeError(
        "In issued mode a tenant is named by its id: { tenantId: 'ten_…' }, as the admin API gave it.",
      );
    return 'accessToken' in tenant ? tenantIdOf('a', tenant.accessToken) : tenantIdOf('b', tenant.publicKey);
  };

  let server: Server | undefined;
  // Note: counted per response until its last byte is written, so that close() never cuts an answer being sent.
  let answering = 0;
  let drainedNow: (() => void) | undefined;
  const drained = (deadline: number) =>
    answering === 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
          drainedNow = () => {
            clearTimeout(timer);
            resolve();
          };
        });
  return {
    fetch: (request) => abortable(handle(request), request.signal),
    async listen({ port = 4020, host = '127.0.0.1', overrideGlobalObjects = false, timeouts } = {}) {
      if (server) throw new Error('This sandbox is already listening; close() it first.');
      // Note: bounds what a slow or silent peer can hold: by default the headers in 10 s, the whole request in 30 s.
      const http = applyServerTimeouts(
        createAdaptorServer({ fetch: handle, overrideGlobalObjects }) as Server,
        timeouts,
      );
      http.on('upgrade', (request, socket, head) => void upgrades.upgrade(request, socket, head, handle));
      http.on('request', (_request, response) => {
        answering += 1;
        response.once('close', () => {
          answering -= 1;
          if (answering === 0) drainedNow?.();
        });
      });
      await new Promise<void>((resolve, reject) => {
        http.once('error', reject);
        http.listen(port, host, () => resolve());
      });
      server = http;
      const { port: bound } = http.address() as { port: number };
      return { url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}` };
    },
    async close({ graceMs = SHUTDOWN_GRACE_MS, onClosed } = {}) {
      const deadline = Date.now() + graceMs;
      const waiting = answering;
      clocks.stopTicker();
      sweep.stop();
      // Note: a request a fault holds is answered now rather than after its hold.
      faulting.release();
      // Note: with 1001, so that each listener waits for its lease and its client resumes on another instance.
      listeners.close();
      upgrades.close();
      unsubscribe?.();
      const closing = server;
      server = undefined;
      let cutOff = 0;
      if (closing) {
        // Note: close() stops accepting and ends the idle connections; those with a request in flight end once it is answered.
        const closed = new Promise<void>((resolve) => closing.close(() => resolve()));
        await drained(deadline);
        cutOff = answering;
        closing.closeAllConnections();
        await closed;
      }
      // Note: an attempt not recorded by the deadline keeps its lease, and is taken again once the lease runs out.
      const deliveriesSettled = await Promise.race([
        deliveries.idle().then(() => true),
        new Promise<boolean>((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now()), false).unref()),
      ]);
      await pinned?.close();
      await store.close();
      onClosed?.({ answered: Math.max(0, waiting - cutOff), cutOff, deliveriesSettled });
    },
    inFlight: () => answering,
    async advance(tenant, seconds) {
      await clocks.advance(idOf(tenant), seconds);
    },
    now: async (tenant) => new Date(await store.transaction(idOf(tenant), now)),
    settled: () => deliveries.idle(),
    tenantId: idOf,
    webhookSecret: settings.webhookSecret,
    store,
    runtime,
    metrics: signals.registry,
  };
}

/**
 * Where credentials lead (`auth`). Issued mode and the admin API need the store's registry of issued tenants: a store
 * without one (a `store` factory's) is refused here, before anything starts.
 */
function credentialSource(settings: ResolvedOptions, store: TenantStore): CredentialSource {
  const { registry } = store;
  if (registry === undefined && (settings.auth === 'issued' || settings.adminToken !== undefined)) {
    const needs = settings.auth === 'issued' ? "auth: 'issued'" : 'adminToken (the admin API)';
    throw new TypeError(
      `${needs} needs a store with a registry of issued tenants (store.registry), as the memory and postgres stores have; the store the \`store\` factory made has none.`,
    );
  }
  return settings.auth === 'issued' && registry
    ? { auth: 'issued', registry, wallNow: settings.now }
    : { auth: 'open', store, registry, wallNow: settings.now };
}
