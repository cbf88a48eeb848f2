// createSandbox: a tenant store (memory by default) with the variants' HTTP layer, the webhook outbox, the clock runner
// and the state file around it, served in-process (`fetch`) or over HTTP (`listen`).
import type { Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import { applyServerTimeouts, type ServerTimeouts } from '../shared/server-timeouts.js';
import { addEndpoint, clockNow, createTenant, DEFAULT_START, EVENT_LOG_LIMIT, forgetUnanswered, requeueTaken, type TenantState } from './core/index.js';
import { createClockRunner } from './clock-runner.js';
import { createFaultBook } from './control/fault-book.js';
import { createFaultInterceptor } from './control/fault-intercept.js';
import { controlRoutes } from './control/routes.js';
import { createDeliveryRunner, LEASE_MARGIN_MS } from './delivery/runner.js';
import { prepareAttempt, sendAttempt } from './delivery/send-attempt.js';
import { abortable } from './http/abortable.js';
import { createApp } from './http/app.js';
import { resolveOptions, type SandboxOptions } from './options.js';
import { createSaver } from './persistence/saver.js';
import { encodeState, loadState, writeAtomically, type SandboxState } from './persistence/state-file.js';
import type { SandboxRuntime } from './runtime.js';
import { createMemoryStore, isMemoryStore, type MemoryStore } from './stores/memory.js';
import type { TenantStore, TenantStoreSettings } from './stores/types.js';
import { tenantIdOf } from './tenants.js';
import { variantA } from './variants/variant-a.js';
import { variantB } from './variants/variant-b.js';

/** Names a tenant as the API does: Variant A by its bearer token, Variant B by its public key. */
export type SandboxTenant = { accessToken: string } | { publicKey: string };

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

/** A running sandbox. */
export interface Sandbox {
  /** The whole sandbox as one fetch handler: pass it as a client's `fetch` to run with no port; an aborted request rejects, as fetch does. */
  fetch(request: Request): Promise<Response>;
  /** Serves the sandbox over HTTP (default 127.0.0.1:4020; port 0 picks a free one). */
  listen(options?: ListenOptions): Promise<{ url: string }>;
  /** Stops the server and the ticker, and waits for deliveries in flight and the last save. */
  close(): Promise<void>;
  /** Moves a tenant's clock forward by `seconds` (0 to 365 days, else ClockAdvanceError), running and delivering what falls due; resolves when all is sent. */
  advance(tenant: SandboxTenant, seconds: number): Promise<void>;
  /** A tenant's clock, now (read in a transaction of the store). */
  now(tenant: SandboxTenant): Promise<Date>;
  /** Resolves once no webhook delivery is in flight. */
  settled(): Promise<void>;
  /** The id the sandbox keeps a tenant under (a hash of its credential). */
  tenantId(tenant: SandboxTenant): string;
  /** The secret deliveries are signed with, unless an endpoint has its own. */
  readonly webhookSecret: string;
  /** The store the tenants are kept in (the `store` option's, or a memory store). */
  readonly store: TenantStore;
  /** The parts the control API is built on. */
  readonly runtime: SandboxRuntime;
}

/** Creates a sandbox; with `stateFile`, loads it first and throws StateFileError if it cannot be used. */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const settings = resolveOptions(options);
  const { now: wallNow, onError } = settings;
  const start = settings.start === undefined ? DEFAULT_START : Number(settings.start);
  const tenantSettings = { clock: settings.clock, seed: settings.seed, retryCompression: settings.retryCompression, eventLogLimit: EVENT_LOG_LIMIT };
  const storeSettings: TenantStoreSettings = {
    newTenant(id) {
      const tenant = createTenant(id, { ...tenantSettings, start: settings.clock === 'manual' ? start : wallNow() });
      for (const url of settings.webhookUrls) addEndpoint(tenant, { url }, clockNow(tenant.clock, wallNow()));
      return tenant;
    },
  };
  const store = (settings.store ?? createMemoryStore)(storeSettings);
  const { stateFile } = settings;
  const memory = stateFile === undefined ? undefined : stateStore(store);
  const loaded = stateFile === undefined ? undefined : loadState(stateFile);
  if (memory && loaded) memory.restore(resumed(loaded, storeSettings));
  const saver = createSaver(async () => {
    if (memory === undefined || stateFile === undefined) return;
    // Note: tenants are serialized as they are (v8 copies them); a snapshot would clone them once more first.
    const tenants = new Map(memory.entries());
    // Note: the digests are also written where a build before they moved into the tenant looks for them.
    const keys = new Map([...tenants].flatMap(([id, t]) => (t.secretKeyDigest === undefined ? [] : [[id, Buffer.from(t.secretKeyDigest, 'base64url')] as const])));
    await writeAtomically(stateFile, encodeState({ tenants, keys }));
  });
  const save = () => (stateFile === undefined ? Promise.resolve() : saver.save());
  const changed = () => save().catch(onError);
  const now = (tenant: TenantState) => clockNow(tenant.clock, wallNow());

  const deliveries = createDeliveryRunner({
    store,
    prepare: prepareAttempt,
    send: (attempt) =>
      sendAttempt(attempt, {
        secret: settings.webhookSecret,
        fetch: settings.fetch,
        timeoutMs: settings.deliveryTimeoutMs,
        maxResponseBytes: settings.maxDeliveryResponseBytes,
        wallNow,
        validate: settings.validate.webhook?.bind(settings.validate),
      }),
    wallNow,
    leaseMs: settings.deliveryTimeoutMs + LEASE_MARGIN_MS,
    changed,
    onError,
  });
  const clocks = createClockRunner({
    store,
    deliveries,
    wallNow,
    changed,
    onError,
  });
  if (settings.clock === 'real') clocks.startTicker(settings.tickMs);

  const faults = createFaultBook();
  const faulting = createFaultInterceptor({ book: faults, validators: settings.validate, holdMs: settings.faultHoldMs });
  const runtime: SandboxRuntime = {
    store,
    validators: settings.validate,
    intercept: settings.intercept ?? faulting.intercept,
    maxBodyBytes: settings.maxBodyBytes,
    now,
    authenticate: async (headers) => (headers.has('authorization') ? variantA : variantB).authenticate(headers, store),
    async settle(id, wasChanged) {
      // Note: what the command made due (a cancel's webhook) is sent now; the answer does not wait for receivers.
      void deliveries.flush(id);
      if (wasChanged) await save();
    },
    advance: (id, seconds) => clocks.advance(id, seconds),
    async deliver(id) {
      await deliveries.flush(id);
    },
    faults,
    async reset(id) {
      await store.reset(id);
      faults.clear(id);
      await save();
    },
    save,
    onError,
  };
  const app = createApp(runtime, [variantA, variantB], settings.control ?? controlRoutes);
  const handle = (request: Request) => Promise.resolve(app.fetch(request));
  const idOf = (tenant: SandboxTenant) => ('accessToken' in tenant ? tenantIdOf('a', tenant.accessToken) : tenantIdOf('b', tenant.publicKey));

  let server: Server | undefined;
  return {
    fetch: (request) => abortable(handle(request), request.signal),
    async listen({ port = 4020, host = '127.0.0.1', overrideGlobalObjects = false, timeouts } = {}) {
      if (server) throw new Error('This sandbox is already listening; close() it first.');
      // Note: bounds what a slow or silent peer can hold: by default the headers in 10 s, the whole request in 30 s.
      const http = applyServerTimeouts(createAdaptorServer({ fetch: handle, overrideGlobalObjects }) as Server, timeouts);
      await new Promise<void>((resolve, reject) => {
        http.once('error', reject);
        http.listen(port, host, () => resolve());
      });
      server = http;
      const { port: bound } = http.address() as { port: number };
      return { url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}` };
    },
    async close() {
      clocks.stopTicker();
      faulting.release();
      const closing = server;
      server = undefined;
      if (closing) {
        await new Promise<void>((resolve) => {
          closing.close(() => resolve());
          closing.closeAllConnections();
        });
      }
      await deliveries.idle();
      await saver.idle();
      await store.close();
    },
    async advance(tenant, seconds) {
      await clocks.advance(idOf(tenant), seconds);
    },
    now: async (tenant) => new Date(await store.transaction(idOf(tenant), now)),
    settled: () => deliveries.idle(),
    tenantId: idOf,
    webhookSecret: settings.webhookSecret,
    store,
    runtime,
  };
}

/** The memory store a state file is kept from; another store keeps its tenants itself. */
function stateStore(store: TenantStore): MemoryStore {
  if (!isMemoryStore(store)) throw new TypeError('stateFile works with the memory store only; a store of its own keeps the tenants itself.');
  return store;
}

/** A loaded state's tenants, ready to serve: what was under way when the file was saved ended with that process. */
function resumed(loaded: SandboxState, settings: TenantStoreSettings): Map<string, TenantState> {
  const { tenants } = loaded;
  // Note: a file saved before the digests moved into the tenant has them beside it, for tenants that may not exist yet.
  for (const [id, digest] of loaded.keys) {
    const tenant = tenants.get(id) ?? settings.newTenant(id);
    tenants.set(id, tenant);
    tenant.secretKeyDigest ??= Buffer.from(digest).toString('base64url');
  }
  for (const tenant of tenants.values()) {
    // Note: a keyed call in progress must not answer 409 for ever, and an attempt being sent is sent again.
    forgetUnanswered(tenant);
    requeueTaken(tenant);
  }
  return tenants;
}
