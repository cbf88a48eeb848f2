// Where a sandbox keeps its tenants. The core runs each command against one tenant's state inside a transaction of the
// store; `memory` (the default, for tests, CI and `npm start`) and `postgres` (durable, shared by several instances)
// both implement this interface, and nothing around the core knows which one it has.
import type { TenantState } from '../core/tenant.js';

/** A sandbox's tenants, each read and changed only inside a transaction. */
export interface TenantStore {
  /**
   * Runs `work` on the tenant's state as one transaction, making the tenant with `newTenant` on first use. The tenant's
   * other transactions, in this process or in another instance on the same database, wait for it. What `work` changed
   * is stored (durably, in a durable store) before the promise resolves; when `work` throws, the promise rejects with
   * its error and a durable store keeps nothing of it. `work` is synchronous, so nothing slow (a webhook send) ever
   * runs inside a transaction.
   */
  transaction<T>(tenant: string, work: (state: TenantState) => T): Promise<T>;
  /**
   * Runs `work` as `transaction` does, but only when no other transaction holds the tenant, here or in another
   * instance; otherwise resolves to undefined at once, without waiting and without making the tenant. For due work
   * (the real-clock ticker): the instance holding the tenant is already running it, so waiting would only queue
   * every instance behind it, and run the work again, with nothing left, once each got the tenant.
   */
  tryTransaction<T>(tenant: string, work: (state: TenantState) => T): Promise<{ result: T } | undefined>;
  /** The real-clock tenants with something due at `wallNow` (ms): a timer, or an attempt waiting to be sent. */
  dueTenants(wallNow: number): Promise<string[]>;
  /** Forgets a tenant; it starts afresh on next use. */
  reset(tenant: string): Promise<void>;
  /** Releases what the store holds open (a pool it made); the sandbox calls it from close(). */
  close(): Promise<void>;
  /**
   * Resolves when the store answers and its schema is the one this code expects; rejects with an Error whose message
   * says why, and never names the database's address. `GET /readyz` calls it; a store without it counts as ready.
   */
  ready?(): Promise<void>;
  /** The connections of the store's pool, for `/metrics`; absent for a store without one. */
  poolStats?(): PoolStats;
}

/** How a store's connection pool is used: every connection, those idle, and the callers waiting for one. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/** What every store is made with. */
export interface TenantStoreSettings {
  /** A new tenant's state: its clock, seed and settings, and the operator's default webhook endpoints. */
  newTenant(id: string): TenantState;
}
