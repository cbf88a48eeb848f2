// Where a sandbox keeps its tenants. The core runs each command against one tenant's state inside a transaction of the
// store; `memory` (the default, for tests, CI and `npm start`) and `postgres` (durable, shared by several instances)
// both implement this interface, and nothing around the core knows which one it has.
import type { TenantHead, TenantReads, TenantState } from '../core/tenant.js';

/** A sandbox's tenants, each read and changed only inside a transaction. */
export interface TenantStore {
  /**
   * Runs `work` on the tenant's state as one transaction, making the tenant with `newTenant` on first use. It is
   * isolated from the tenant's other transactions, in this process or in another instance on the same database. What
   * `work` changed is stored (durably, in a durable store) before the promise resolves; when `work` throws, the promise
   * rejects with its error and a durable store keeps nothing of it. `work` is synchronous, so nothing slow (a webhook
   * send) ever runs inside a transaction.
   * A store may run `work` more than once (the postgres store runs it again once it has read what `work` asked for,
   * or after racing another instance), and a page read after `work` wrote commits what it wrote first and runs it
   * again: `work` must change nothing but the state, and reach the same end when run again, as the core's commands do
   * (the due work they run first finds nothing left the second time).
   */
  transaction<T>(
    tenant: string,
    work: (state: TenantState) => T,
    session?: StoreSession,
    intent?: TransactionIntent,
  ): Promise<T>;
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
  /** The tenants the admin API issued (`auth: 'issued'`); the memory and postgres stores have one, a store of your own may not. */
  registry?: TenantRegistry;
  /**
   * Forgets, as `reset` does, every tenant no transaction has used for `bound.idleMs` of the settings' wall clock,
   * skipping any a transaction holds, and tells `onEvicted`; resolves to how many. Does nothing without `bound`.
   */
  evictIdle?(): Promise<number>;
  /** How many tenants the store holds now (`/metrics`); a durable store may answer a count a few seconds old. */
  tenantCount?(): Promise<number>;
  /**
   * Tells every instance on the store about listeners (the control API's Connect Webhook Listener) whose due attempts
   * wait for the instance holding their connection: the postgres store with LISTEN/NOTIFY, the memory store
   * in-process. A store without it leaves the holder to find them by its periodic flush.
   */
  listenerBus?: ListenerBus;
  /** The store's own maintenance (a durable store deletes the Idempotency-Key records whose retention ran out); the sandbox calls it every minute. */
  maintain?(): Promise<void>;
}

/**
 * A tenant's listener endpoint, published by any instance and told to every instance's subscribers (itself included);
 * best effort. Naming the endpoint, not only the tenant, lets only its holder act, so that instances holding other
 * listeners of the tenant never wake each other in turn.
 */
export interface ListenerBus {
  publish(tenant: string, endpoint: string): void;
  /** Calls `onListener` with each listener published from now on; returns the unsubscribe. */
  subscribe(onListener: (tenant: string, endpoint: string) => void): () => void;
}

/**
 * The transactions one request makes on its tenant (its credentials, a fault, its command): what its command will read,
 * known before the first of them, and what the store keeps between them. A store may read what the command names with
 * the first one, and answer a later one from what the first one read: as of that read, as a request served at that
 * instant would be. A store may ignore it (the memory store has everything at hand).
 */
export interface StoreSession {
  reads?: TenantReads;
  /** The store's own, between the request's transactions. */
  kept?: unknown;
}

/**
 * What a transaction's caller knows of its work before it runs. `writes`: it changes the tenant (a create, a forced
 * status, a delivery's record), so a store that would otherwise read optimistically and retry on a race (postgres)
 * holds the tenant for it instead, and the tenant's writers queue rather than retry against each other.
 */
export interface TransactionIntent {
  writes?: boolean;
}

/** The intent of a transaction known to write. */
export const WRITES: TransactionIntent = Object.freeze({ writes: true });

/** How a store's connection pool is used: every connection, those idle, and the callers waiting for one. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/** What every store is made with. */
export interface TenantStoreSettings {
  /** A new tenant's head: its clock, seed and settings, and the operator's default webhook endpoints. */
  newTenant(id: string): TenantHead;
  /**
   * Open mode's bound on tenants: a transaction that would make one more than `max` forgets the idle ones first, then
   * rejects with TenantLimitError if none was; a tenant unused for `idleMs` is forgotten by `evictIdle`. None: unbounded.
   */
  bound?: TenantBound;
  /** The wall clock (ms since the epoch) a tenant's last use is kept on; default Date.now. */
  now?(): number;
  /** Told the ids of the tenants the store forgot as idle (by `evictIdle`, or to make room for a new one). */
  onEvicted?(ids: string[]): void;
}

/** Open mode's bound on tenants: how many the store holds at most, and how long an unused one is kept, in ms. */
export interface TenantBound {
  max: number;
  idleMs: number;
}

/** An issued tenant as its record shows it, never a secret; times are wall-clock ms since the epoch. */
export interface IssuedTenant {
  /** `ten_…`: its id in the admin API and the id its sandbox state is kept under, whichever variant it calls. */
  id: string;
  publicKey: string;
  status: 'active' | 'revoked';
  createdAt: number;
  /** When its credentials were last rotated; null if never. */
  rotatedAt: number | null;
  /** Until when the access token and secret key of before the last rotation still work; null if never rotated. */
  previousExpiresAt: number | null;
  revokedAt: number | null;
  /** The tenant that made this test tenant; null for one the admin API issued. */
  parent: string | null;
}

/** A test tenant as its parent lists it; times are wall-clock ms since the epoch. */
export interface TestTenant {
  id: string;
  publicKey: string;
  createdAt: number;
  /** When it is deleted unless a request uses it before. */
  expiresAt: number;
}

/** A test tenant's credentials as made: shown once, as an issued tenant's are. */
export interface TestTenantCredentials extends IssuedCredentials {
  expiresAt: number;
}

/** A tenant's credentials as issued: shown once, since the registry keeps only the SHA-256 of the token and the secret key. */
export interface IssuedCredentials {
  id: string;
  /** Variant A: `Authorization: Bearer <accessToken>`. */
  accessToken: string;
  /** Variant B: `X-Public-Key`, with `X-Secret-Key: <secretKey>`. */
  publicKey: string;
  secretKey: string;
}

/** The credentials a rotation issued, and until when those it replaced still work (wall ms). */
export interface RotatedCredentials extends IssuedCredentials {
  previousExpiresAt: number;
}

/** A tenant a credential names, and its merchant: a test tenant's parent, else the tenant itself. */
export interface CredentialHolder {
  tenant: string;
  merchant: string;
}

/**
 * The tenants of issued mode and their credentials, shared by every instance on the store (no instance caches them),
 * and the test tenants tenants make of their own. Each `now` is the wall clock (the sandbox's `now` option), never a
 * tenant's clock. Nothing is made or kept when a credential is looked up, found or not; the one write a look-up may
 * make moves a test tenant's expiry forward, at most once a minute.
 */
export interface TenantRegistry {
  /** A new active tenant with a new access token and key pair. */
  create(now: number): Promise<IssuedCredentials>;
  /**
   * The admin API's tenants (never a test tenant), newest first, `limit` (1 to 100) at most, after the tenant
   * `startingAfter`; undefined when no such tenant has that id.
   */
  list(page: {
    limit: number;
    startingAfter?: string | undefined;
  }): Promise<{ tenants: IssuedTenant[]; hasMore: boolean } | undefined>;
  /** Any tenant of the registry by its id, a test tenant included (its `parent` says so). */
  get(id: string): Promise<IssuedTenant | undefined>;
  /**
   * A new access token and secret key; the public key stays (an admin API tenant's; a test tenant's id is unknown here). Those replaced keep working for `overlapSeconds` (0 to
   * 604,800), and those an earlier rotation replaced stop at once. `revoked` for a revoked tenant, undefined for none.
   */
  rotate(id: string, overlapSeconds: number, now: number): Promise<RotatedCredentials | 'revoked' | undefined>;
  /**
   * Stops every credential of the tenant and of its test tenants at once; false when no tenant has the id. Revoking a
   * revoked tenant changes nothing. A durable registry deletes the rows of the tenant and its test tenants in the same
   * transaction; the sandbox still calls `store.reset(id)` after this (the memory store's state is its own).
   */
  revoke(id: string, now: number): Promise<boolean>;
  /**
   * A new test tenant of `parent` (any tenant id, issued or open), expiring after `idleMs` unused; `limit_reached` when
   * the parent holds `max` active ones already, counted so that creates racing on other instances never pass it;
   * `revoked` when the parent is a revoked tenant of the registry (decided so that a revoke racing it revokes the new one).
   */
  createTest(
    parent: string,
    limits: { max: number; idleMs: number },
    now: number,
  ): Promise<TestTenantCredentials | 'limit_reached' | 'revoked'>;
  /** The parent's active test tenants, newest first: one page, and how many there are. */
  listTests(
    parent: string,
    page: { limit: number; offset: number },
    now: number,
  ): Promise<{ tenants: TestTenant[]; total: number }>;
  /**
   * Stops the credentials of the parent's test tenants at once (only `id`'s when given) and answers their ids, which
   * the caller deletes the state of and then `purge`s; a test tenant of another parent, or none, answers [].
   */
  revokeTests(parent: string, now: number, id?: string): Promise<string[]>;
  /**
   * Revokes the test tenants whose expiry passed, and answers at most `limit` revoked test tenants awaiting `purge`
   * (these, and any an instance revoked and stopped before purging), for the caller to delete the state of.
   */
  expireTests(now: number, limit: number): Promise<string[]>;
  /** Forgets revoked test tenants for good, once their state is deleted. */
  purge(ids: readonly string[]): Promise<void>;
  /** The active tenant whose access token (or previous one, within its overlap) this is; undefined otherwise. */
  tenantOfAccessToken(token: string, now: number): Promise<CredentialHolder | undefined>;
  /** The active tenant whose public key this is, when the secret key is its own (or its previous one, within its overlap). */
  tenantOfKeyPair(publicKey: string, secretKey: string, now: number): Promise<CredentialHolder | undefined>;
}
