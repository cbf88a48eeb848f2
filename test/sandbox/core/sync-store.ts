// The core tests' synchronous store: tenants made on first use, commands run at once, whole-store snapshots
// (copyMemoryTenant). The sandbox itself runs on a TenantStore (packages/sandbox/src/stores/); this keeps the core's unit tests
// free of promises. The model-based test (model.ts) goes through a TenantStore, so that it runs on every store.
import { advance, runDue, type DeliverNow } from '../../../packages/sandbox/src/core/advance.js';
import { clockNow, DEFAULT_START, type ClockMode } from '../../../packages/sandbox/src/core/clock.js';
import {
  execute,
  type Command,
  type CommandResult,
  type ResultOf,
} from '../../../packages/sandbox/src/core/commands.js';
import { EVENT_LOG_LIMIT } from '../../../packages/sandbox/src/core/event-log.js';
import type { StatusChange } from '../../../packages/sandbox/src/core/types.js';
import { DEFAULT_RETRY_COMPRESSION } from '../../../packages/sandbox/src/core/retry-schedule.js';
import type { TenantState } from '../../../packages/sandbox/src/core/tenant.js';
import { copyMemoryTenant, createMemoryTenant } from '../../../packages/sandbox/src/stores/memory-tenant.js';

/** How a store's tenants start. */
export interface SandboxStoreOptions {
  /** `manual` (default): a tenant's clock stands still until advanced; `real`: it follows the wall clock. */
  clock?: ClockMode;
  /** Seed of the ids; the same seed and the same commands give the same ids. Default `sandbox`. */
  seed?: string;
  /** Where manual clocks start. Default 2026-01-01T00:00:00Z. */
  start?: Date | number;
  /** How many times faster than the contract's schedule webhook retries run. Default 60. */
  retryCompression?: number;
  /** How many status changes each tenant's event log keeps; older ones leave it. Default EVENT_LOG_LIMIT (10,000). */
  eventLogLimit?: number;
  /** The wall clock, in ms since the epoch (injected in tests). Default Date.now. */
  wallNow?: () => number;
}

/** A frozen copy of every tenant. */
export type StoreSnapshot = Map<string, TenantState>;

/** The sandbox's state, tenant by tenant. */
export interface SandboxStore {
  /** The tenant, created on first use. */
  tenant(id: string): TenantState;
  /** The ids of the tenants that exist. */
  tenantIds(): string[];
  /** The tenant's clock, now (ms since the epoch). */
  now(id: string): number;
  /** Runs a command on the tenant at its clock's time. */
  execute<C extends Command>(id: string, command: C): CommandResult<ResultOf[C['type']]>;
  /** Runs what is due on the tenant's clock (a `real` clock moves by itself). */
  tick(id: string, deliver?: DeliverNow): StatusChange[];
  /** Moves the tenant's clock forward and runs what falls due. */
  advance(id: string, seconds: number, deliver?: DeliverNow): StatusChange[];
  /** Forgets one tenant; it starts afresh on next use. */
  reset(id: string): void;
  /** A deep copy of every tenant. */
  snapshot(): StoreSnapshot;
  /** Replaces every tenant with a copy of a snapshot. */
  restore(snapshot: StoreSnapshot): void;
}

/** A new, empty store. */
export function createStore(options: SandboxStoreOptions = {}): SandboxStore {
  const mode = options.clock ?? 'manual';
  const wallNow = options.wallNow ?? Date.now;
  const start = options.start === undefined ? DEFAULT_START : Number(options.start);
  const settings = {
    clock: mode,
    seed: options.seed ?? 'sandbox',
    retryCompression: options.retryCompression ?? DEFAULT_RETRY_COMPRESSION,
    eventLogLimit: options.eventLogLimit ?? EVENT_LOG_LIMIT,
  };
  if (!(Number.isInteger(settings.eventLogLimit) && settings.eventLogLimit >= 1))
    throw new RangeError(`eventLogLimit must be a positive integer, got ${String(settings.eventLogLimit)}.`);
  let tenants = new Map<string, TenantState>();
  const tenant = (id: string) => {
    let t = tenants.get(id);
    if (!t)
      tenants.set(id, (t = createMemoryTenant(id, { ...settings, start: mode === 'manual' ? start : wallNow() })));
    return t;
  };
  const now = (id: string) => clockNow(tenant(id).clock, wallNow());
  return {
    tenant,
    tenantIds: () => [...tenants.keys()],
    now,
    execute: (id, command) => execute(tenant(id), command, now(id)),
    tick: (id, deliver) => runDue(tenant(id), now(id), deliver),
    advance: (id, seconds, deliver) => advance(tenant(id), seconds, wallNow(), deliver),
    reset: (id) => void tenants.delete(id),
    snapshot: () => copyAll(tenants),
    restore: (snapshot) => void (tenants = copyAll(snapshot)),
  };
}

const copyAll = (tenants: Map<string, TenantState>) =>
  new Map([...tenants].map(([id, tenant]) => [id, copyMemoryTenant(tenant)]));
