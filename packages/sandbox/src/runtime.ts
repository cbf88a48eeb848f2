// What the HTTP layer and the control API work with: the store, the credentials, the validators and the modules
// around the core (clock runner, deliveries), behind one object.
import type { Advanced } from './clock/runner.js';
import type { TenantState } from './core/index.js';
import type { EgressRule } from './delivery/egress.js';
import type { RequestInterceptor, SandboxValidators } from './http/hooks.js';
import type { InFlightKeys } from './http/in-flight.js';
import type { UpgradeTickets } from './http/upgrade-tickets.js';
import type { MerchantBudget } from './http/merchant-budget.js';
import type { RateLimiter } from './http/rate-limit.js';
import type { TenantRegistry, TenantStore } from './stores/types.js';

/**
 * Who is calling: the tenant its credentials name and its merchant (the unit of fairness: an issued or open tenant, which
 * a test tenant's requests count against too), or why they were refused.
 */
export type Authentication = { ok: true; tenant: string; merchant: string } | { ok: false; detail: string };

/**
 * Where credentials lead. `open`: the registry's test tenants (when the store has a registry), and any other credential
 * is a tenant of the store, made on first use (Variant B's secret key is learnt in its state). `issued`: only the
 * registry's tenants, on the wall clock; nothing is read from or made in the store, so a refused credential leaves
 * nothing behind.
 */
export type CredentialSource =
  | { auth: 'open'; store: TenantStore; registry: TenantRegistry | undefined; wallNow(): number }
  | { auth: 'issued'; registry: TenantRegistry; wallNow(): number };

/** Per-tenant quotas of stored things (the `quotas` option, filled in); a create past one answers 422 with a problem naming it. */
export interface TenantQuotas {
  /** Payments, payouts and appeals each (default 100,000): past it, 422 `quota_exceeded`. */
  objects: number;
  /** Webhook endpoints, the operator's included (default and at most 20): past it, 422 `limit_reached`. */
  webhookEndpoints: number;
  /** The events a tenant's event log keeps (default 10,000); past it the oldest are dropped. */
  events: number;
}

/** The sandbox's parts, as the HTTP layer and the control routes use them. */
export interface SandboxRuntime {
  /** The tenants: each is read and changed only in a `store.transaction`, made on first use with the `webhookUrls` endpoints. */
  store: TenantStore;
  validators: SandboxValidators;
  intercept: RequestInterceptor | undefined;
  /** The per-merchant rate limit of this instance (the `rateLimit` option); undefined: unlimited. */
  rateLimit: RateLimiter | undefined;
  /** The per-merchant budget of requests doing store work at once on this instance (the `merchant*` options). */
  budget: MerchantBudget;
  /** The most objects of a kind (payments, payouts, appeals) and webhook endpoints a tenant keeps (the `quotas` option, filled in). */
  quotas: TenantQuotas;
  /**
   * What the admin API's Retrieve Settings shows beside the quotas and the budget: the rate limit, the hosts the egress
   * rule lets through, and the database's bounds on a statement (undefined for a store without a database).
   */
  limits: {
    ratePerSecond: number | undefined;
    allowWebhookHosts: readonly string[];
    statementTimeoutMs: number | undefined;
    lockTimeoutMs: number | undefined;
  };
  /** Which webhook hosts a tenant may register and be delivered to (the `auth` mode, `allowWebhookHosts`, `lookup`). */
  egress: EgressRule;
  /** The WebSocket upgrades waiting for Connect Webhook Listener to accept them. */
  upgrades: UpgradeTickets;
  /** The largest request body read, in bytes. */
  maxBodyBytes: number;
  /** The tenant's clock, now (ms since the epoch); read inside a transaction. */
  now(tenant: TenantState): number;
  /** The wall clock (ms since the epoch; the `now` option), which leases count on whatever the tenants' clocks do. */
  wallNow(): number;
  /** The tenant named by either variant's credentials (bearer token, or key pair); the control API's way in. */
  authenticate(headers: Headers): Promise<Authentication>;
  /** Where the variants look credentials up: the store (`auth: 'open'`) or the registry (`auth: 'issued'`). */
  credentials: CredentialSource;
  /** The store's registry of issued tenants, which the admin API provisions; undefined for a store without one. */
  registry: TenantRegistry | undefined;
  /** After a transaction that made delivery attempts due: sends them, without waiting for receivers. */
  settle(tenant: string): void;
  /** Moves a tenant's clock forward, running and delivering what falls due, in order. */
  advance(tenant: string, seconds: number): Promise<Advanced>;
  /** Sends the attempts due on a tenant now (after a redelivery, say). */
  deliver(tenant: string): Promise<void>;
  /** The Idempotency-Keys of the requests this instance is checking and running now. */
  inFlight: InFlightKeys;
  /** Forgets a tenant: its state (its remembered secret key and its faults with it), and deletes its test tenants. */
  reset(tenant: string): Promise<void>;
  /** Deletes the state of revoked test tenants, then their records (after `registry.revokeTests`). */
  deleteTestTenants(ids: readonly string[]): Promise<void>;
  /** How many test tenants a tenant may hold, and how long one is kept unused (the `testTenants` option, filled in). */
  testTenants: { max: number; idleMs: number };
  /** Told about failures of the sandbox itself (a request that threw, a delivery runner that failed). */
  onError(error: unknown): void;
}
