// The options of createSandbox, their defaults, and the checks that make a bad one fail when the sandbox is created.
import path from 'node:path';
import { secretKeyList } from '@merchant-payments/contract/internal/webhooks/crypto.js';
import {
  checkLimits,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
} from '@merchant-payments/contract/internal/webhooks/deliver.js';
import { generateWebhookSecret } from '@merchant-payments/contract/internal/webhooks/secret.js';
import { pino, type Logger } from 'pino';
import { EVENT_LOG_LIMIT, type ClockMode } from './core/index.js';
import { hasUserInfo } from './control/checks.js';
import { DEFAULT_FAULT_HOLD_MS } from './control/fault-intercept.js';
import { defaultDashboardAssets } from './dashboard/routes.js';
import { contractValidators } from './http/contract-validators.js';
import type { ControlRoutes } from './http/control.js';
import type { RequestInterceptor, SandboxValidators } from './http/hooks.js';
import { DEFAULT_MAX_BODY_BYTES } from './http/body.js';
import { parseAllowEntry } from './delivery/egress.js';
import type { TenantQuotas } from './runtime.js';
import {
  DEFAULT_LOCK_TIMEOUT_MS,
  DEFAULT_POOL_SIZE,
  DEFAULT_STATEMENT_TIMEOUT_MS,
} from './stores/connection-bounds.js';
import type { TenantStore, TenantStoreSettings } from './stores/types.js';

/** Options of createSandbox. */
export interface SandboxOptions {
  /** `manual` (default): a tenant's clock stands still until advanced; `real`: it follows the wall clock. */
  clock?: ClockMode;
  /** Seed of the ids: the same seed and the same requests give the same ids. Default `sandbox`. */
  seed?: string;
  /** Where manual clocks start. Default 2026-01-01T00:00:00Z. */
  start?: Date | number;
  /** The `whsec_…` secret deliveries are signed with (endpoints may have their own); default: a new random one. */
  webhookSecret?: string;
  /** Endpoints every tenant starts with (later layout, signed with webhookSecret). */
  webhookUrls?: readonly string[];
  /**
   * Where the tenants are kept. `memory` (default): in this process, forgotten when it ends (tests, CI). `postgres`: in
   * PostgreSQL, durable and shared by every sandbox on the same database; it needs `pg` and `node-pg-migrate` installed
   * and is opened with `await openSandbox(...)`, since it connects and migrates first. Or a factory of a store of your own.
   */
  store?: SandboxStoreChoice;
  /** The database of `store: 'postgres'`; default DATABASE_URL, else the PG* variables (read by `pg`). */
  databaseUrl?: string;
  /**
   * The fetch deliveries go through; a fetch handler delivers in-process. A tenant's endpoint is checked against the
   * egress rule before the request is handed to it. Default: undici's fetch, whose connections go only to addresses the
   * egress rule allowed (and the global fetch for the operator's `webhookUrls`).
   */
  fetch?: (request: Request) => Promise<Response>;
  /**
   * Checks of requests, responses and webhook bodies. Default: the contract's own (`contractValidators`), so a response
   * that breaks the contract is a 500 naming the violation rather than a test passing on a sandbox bug. `false` turns
   * every check off (a benchmark of the core alone, say); validators given here replace the default.
   */
  validate?: SandboxValidators | false;
  /** The control API's routes, mounted under /_sandbox; default: every operation of packages/contract/openapi/sandbox/ (`controlRoutes`). */
  control?: ControlRoutes;
  /** Runs before each operation; a Response answers in its place. Default: the control API's faults; one given here replaces them. */
  intercept?: RequestInterceptor;
  /** The longest a `timeout` fault holds a request whose client never gives up, in ms (default 60,000); then it answers 500. */
  faultHoldMs?: number;
  /** The wall clock in ms (default Date.now): real clocks follow it, and X-Timestamp is read from it. */
  now?: () => number;
  /** How long a receiver may take to answer a delivery (default 10,000 ms). */
  deliveryTimeoutMs?: number;
  /** How much of a receiver's answer is read (default 65,536 bytes). */
  maxDeliveryResponseBytes?: number;
  /**
   * Requests per second per merchant (a tenant and its test tenants share one token bucket, with a burst of a second's worth) in this instance; default: none.
   * A request of either variant or of the control API over it gets 429 `rate_limited` with Retry-After.
   */
  rateLimit?: number;
  /** How much a tenant may keep; past it a create answers 422 (see SandboxQuotas for the defaults). */
  quotas?: SandboxQuotas;
  /**
   * Requests of one merchant (a tenant and its test tenants) doing store work at once on this instance; the rest wait
   * in the merchant's own queue. Default: a quarter of `poolSize`, at least 1.
   */
  merchantConcurrency?: number;
  /** The longest a merchant's request waits in its queue, in ms (default 2,000); then 429 `rate_limited` with Retry-After. */
  merchantQueueMs?: number;
  /** The most requests of one merchant waiting at once on this instance (default 100); past it, 429 at once. */
  merchantQueueLength?: number;
  /** The most connections the postgres store's pool opens on this instance (default 10). */
  poolSize?: number;
  /** PostgreSQL's statement_timeout on the postgres store's connections, in ms (default 5,000); a stopped request answers 500, safe to retry. */
  statementTimeoutMs?: number;
  /** PostgreSQL's lock_timeout on the postgres store's connections, in ms (default 2,000); a stopped request answers 429, safe to retry. */
  lockTimeoutMs?: number;
  /**
   * Who gets in. `open` (default): any credential is a tenant of its own, made on first use (local use, tests, CI).
   * `issued`: only tenants provisioned through the admin API get in; any other credential gets the contract's 401.
   */
  auth?: SandboxAuth;
  /**
   * The bearer token of the admin API under /_admin, which provisions tenants (at least 32 characters); without it,
   * /_admin does not exist. The command reads it from SANDBOX_ADMIN_TOKEN only.
   */
  adminToken?: string;
  /** Open mode's tenants: how many the store may hold, and how long one may sit unused before it is forgotten. */
  tenants?: OpenTenants;
  /** The test tenants each tenant may make through the control API (POST /_sandbox/tenants): how many, and how long kept unused. */
  testTenants?: TestTenantLimits;
  /**
   * Webhook hosts tenants may register although the egress rule refuses them: host names, IP addresses, or CIDR
   * ranges (`10.0.0.0/8`). In `issued` mode the rule refuses all but public unicast addresses; in `open` mode,
   * link-local, metadata, unspecified, broadcast and multicast ones (delivery/egress.ts, docs/operations.md).
   */
  allowWebhookHosts?: readonly string[];
  /** Resolves a host name to its addresses, for the egress rule at registration and at delivery (default: node:dns). */
  lookup?: (hostname: string) => Promise<string[]>;
  /**
   * The dashboard at /_dashboard/, a page that signs in with a tenant's credentials and shows its payments, events and
   * deliveries through the APIs above (default on, serving the page built into the package). `false` turns it off, so
   * /_dashboard/ is the ordinary 404; `{ assets }` serves the page built into another folder.
   */
  dashboard?: boolean | { assets: string };
  /** The largest request body accepted (default 262,144 bytes); a larger one gets 400. */
  maxBodyBytes?: number;
  /** How often real clocks are ticked, in ms (default 250). */
  tickMs?: number;
  /** How many times faster than the contract's schedule webhook retries run (default 60). */
  retryCompression?: number;
  /** Told about failures of the sandbox itself (default: one line on stderr, without the stack). */
  onError?: (error: unknown) => void;
  /**
   * A pino logger for one JSON line per request (request id, method, path, operation, status, duration, tenant id);
   * default: a silent one. `createSandboxLogger` makes one with the credentials' headers redacted.
   */
  logger?: Logger;
}

/** The `auth` option: any credential is a tenant (`open`), or only provisioned ones (`issued`). */
export type SandboxAuth = 'open' | 'issued';

/** Open mode's bound on tenants. */
export interface OpenTenants {
  /** The most tenants the store holds (default 10,000); a new credential past it gets 429 `tenant_limit_reached`. */
  max?: number;
  /** How long, in seconds, a tenant no request used is kept (default 86,400: a day); then it is forgotten. */
  idleSeconds?: number;
}

/** What each tenant's test tenants are held to. */
export interface TestTenantLimits {
  /** The most test tenants a tenant holds at once (default 50); past it, 422 `limit_reached`. */
  max?: number;
  /** How long, in seconds, a test tenant no request used is kept (default 86,400: a day); then it is deleted. */
  idleSeconds?: number;
}

/** The most test tenants a tenant holds, by default. */
export const DEFAULT_MAX_TEST_TENANTS = 50;
/** How long an unused test tenant is kept, by default: a day. */
export const DEFAULT_TEST_TENANT_IDLE_SECONDS = 86_400;

/** Open mode's most tenants, by default. */
export const DEFAULT_MAX_TENANTS = 10_000;
/** How long an unused open-mode tenant is kept, by default: a day. */
export const DEFAULT_TENANT_IDLE_SECONDS = 86_400;
/** The shortest admin token accepted. */
export const MIN_ADMIN_TOKEN_LENGTH = 32;

/** The most objects of each kind per tenant, by default: more than any test or normal use makes. */
export const DEFAULT_MAX_OBJECTS = 100_000;
/** The most webhook endpoints per tenant, by default and at most (the contract's list holds at most 20). */
export const MAX_WEBHOOK_ENDPOINTS = 20;

/**
 * The longest a merchant's request waits for its turn, by default: long enough to absorb a merchant's own burst (its
 * parallel suite starting at once) without a refusal, short enough that the 429 and its Retry-After reach a client well
 * within its own time-out (the contract's clients wait 30 s), rather than a request queued behind a flood timing out.
 */
export const DEFAULT_MERCHANT_QUEUE_MS = 2_000;
/** The most requests of one merchant waiting at once, by default: twice the test tenants a merchant holds by default. */
export const DEFAULT_MERCHANT_QUEUE_LENGTH = 100;
/** The longest time a millisecond option may name: PostgreSQL's settings and Node's timers are 32-bit. */
const MAX_PG_MS = 2_147_483_647;

/** A merchant's share of the pool by default: a quarter, so that four merchants at work leave room for a fifth. */
export const defaultConcurrency = (poolSize: number) => Math.max(1, Math.floor(poolSize / 4));

/** The `quotas` option: each quota left out takes its default. */
export type SandboxQuotas = Partial<TenantQuotas>;

/** The `store` option: a store by name, or a factory of one. */
export type SandboxStoreChoice = 'memory' | 'postgres' | ((settings: TenantStoreSettings) => TenantStore);

/** The options with every default filled in. */
export type ResolvedOptions = Required<
  Omit<
    SandboxOptions,
    | 'databaseUrl'
    | 'control'
    | 'intercept'
    | 'start'
    | 'validate'
    | 'logger'
    | 'rateLimit'
    | 'quotas'
    | 'adminToken'
    | 'tenants'
    | 'testTenants'
    | 'lookup'
    | 'fetch'
    | 'dashboard'
  >
> &
  Pick<
    SandboxOptions,
    'databaseUrl' | 'control' | 'intercept' | 'start' | 'rateLimit' | 'adminToken' | 'lookup' | 'fetch'
  > & {
    validate: SandboxValidators;
    logger: Logger;
    quotas: TenantQuotas;
    tenants: Required<OpenTenants>;
    testTenants: Required<TestTenantLimits>;
    /** The folder of the dashboard's built files, or false when it is off. */
    dashboard: string | false;
  };

export { generateWebhookSecret };

const reportError = (error: unknown) => {
  console.error(`merchant-payments-sandbox: ${error instanceof Error ? error.message : String(error)}`);
};

const logTo = (logger: Logger) => (error: unknown) => {
  logger.error({ error: error instanceof Error ? error.message : String(error) }, 'sandbox failure');
};

/** True when `value` is an array of host names that are not blank (options may come from JavaScript). */
const isHostList = (value: unknown): value is readonly string[] =>
  Array.isArray(value) && value.every((host) => typeof host === 'string' && host.trim() !== '');

/** The `dashboard` option as the folder to serve, or false; throws a TypeError on anything else. */
function dashboardAssets(option: SandboxOptions['dashboard']): string | false {
  if (option === undefined || option === true) return defaultDashboardAssets();
  if (option === false) return false;
  if (typeof option === 'object' && option !== null && typeof option.assets === 'string' && option.assets !== '')
    return path.resolve(option.assets);
  throw new TypeError('dashboard must be true, false or { assets: <the folder of its built files> }.');
}

/** Fills in the defaults and throws a TypeError or RangeError naming the first bad option. */
export function resolveOptions(options: SandboxOptions = {}): ResolvedOptions {
  const resolved: ResolvedOptions = {
    clock: options.clock ?? 'manual',
    seed: options.seed ?? 'sandbox',
    webhookSecret: options.webhookSecret ?? generateWebhookSecret(),
    webhookUrls: options.webhookUrls ?? [],
    fetch: options.fetch,
    validate: options.validate === false ? {} : (options.validate ?? contractValidators),
    now: options.now ?? Date.now,
    deliveryTimeoutMs: options.deliveryTimeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxDeliveryResponseBytes: options.maxDeliveryResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    tickMs: options.tickMs ?? 250,
    faultHoldMs: options.faultHoldMs ?? DEFAULT_FAULT_HOLD_MS,
    retryCompression: options.retryCompression ?? 60,
    // Note: with a logger, a failure of the sandbox itself is a JSON line of that log too, so a log shipper sees it.
    onError: options.onError ?? (options.logger ? logTo(options.logger) : reportError),
    databaseUrl: options.databaseUrl,
    control: options.control,
    intercept: options.intercept,
    // Note: silent and writing nowhere, so that tests and library users see no output and no stream is opened on stdout.
    logger: options.logger ?? pino({ level: 'silent' }, { write() {} }),
    start: options.start,
    rateLimit: options.rateLimit,
    merchantConcurrency: options.merchantConcurrency ?? defaultConcurrency(options.poolSize ?? DEFAULT_POOL_SIZE),
    merchantQueueMs: options.merchantQueueMs ?? DEFAULT_MERCHANT_QUEUE_MS,
    merchantQueueLength: options.merchantQueueLength ?? DEFAULT_MERCHANT_QUEUE_LENGTH,
    poolSize: options.poolSize ?? DEFAULT_POOL_SIZE,
    statementTimeoutMs: options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
    lockTimeoutMs: options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS,
    quotas: {
      objects: options.quotas?.objects ?? DEFAULT_MAX_OBJECTS,
      webhookEndpoints: options.quotas?.webhookEndpoints ?? MAX_WEBHOOK_ENDPOINTS,
      events: options.quotas?.events ?? EVENT_LOG_LIMIT,
    },
    auth: options.auth ?? 'open',
    adminToken: options.adminToken,
    tenants: {
      max: options.tenants?.max ?? DEFAULT_MAX_TENANTS,
      idleSeconds: options.tenants?.idleSeconds ?? DEFAULT_TENANT_IDLE_SECONDS,
    },
    testTenants: {
      max: options.testTenants?.max ?? DEFAULT_MAX_TEST_TENANTS,
      idleSeconds: options.testTenants?.idleSeconds ?? DEFAULT_TEST_TENANT_IDLE_SECONDS,
    },
    allowWebhookHosts: options.allowWebhookHosts ?? [],
    lookup: options.lookup,
    store: options.store ?? 'memory',
    dashboard: dashboardAssets(options.dashboard),
  };
  if (!(resolved.store === 'memory' || resolved.store === 'postgres' || typeof resolved.store === 'function')) {
    throw new TypeError(
      `store must be "memory", "postgres" or a function that makes a TenantStore, got ${String(resolved.store)}.`,
    );
  }
  // Note: the message never quotes the URL, which may hold a password.
  if (resolved.databaseUrl !== undefined && resolved.store !== 'postgres')
    throw new TypeError('databaseUrl is the database of store: "postgres"; it means nothing with another store.');
  if ('stateFile' in options)
    throw new TypeError(
      'stateFile was removed: a sandbox that keeps its state across restarts uses store: "postgres" (see the sandbox guide).',
    );
  if (resolved.clock !== 'manual' && resolved.clock !== 'real')
    throw new TypeError(`clock must be "manual" or "real", got ${String(resolved.clock)}.`);
  try {
    secretKeyList(resolved.webhookSecret);
  } catch {
    throw new TypeError(
      'webhookSecret must be a whsec_ secret: "whsec_" followed by base64 of at least 24 random bytes.',
    );
  }
  for (const url of resolved.webhookUrls) {
    if (!/^https?:$/.test(URL.canParse(url) ? new URL(url).protocol : ''))
      throw new TypeError('Each of webhookUrls must be an absolute http:// or https:// URL.');
    // Note: the message does not quote the URL, whose user name or password is the problem.
    if (hasUserInfo(url))
      throw new TypeError(
        "Each of webhookUrls must be without a user name or password; pass a credential through the receiver's own configuration instead.",
      );
  }
  checkLimits(resolved.deliveryTimeoutMs, resolved.maxDeliveryResponseBytes);
  for (const [name, value] of [
    ['maxBodyBytes', resolved.maxBodyBytes],
    ['tickMs', resolved.tickMs],
    ['faultHoldMs', resolved.faultHoldMs],
    ['retryCompression', resolved.retryCompression],
  ] as const) {
    if (!(typeof value === 'number' && value > 0 && Number.isFinite(value)))
      throw new RangeError(`${name} must be a positive number, got ${String(value)}.`);
  }
  if (
    resolved.rateLimit !== undefined &&
    !(typeof resolved.rateLimit === 'number' && resolved.rateLimit > 0 && Number.isFinite(resolved.rateLimit))
  ) {
    throw new RangeError(
      `rateLimit must be a positive number of requests per second, got ${String(resolved.rateLimit)}.`,
    );
  }
  if (resolved.auth !== 'open' && resolved.auth !== 'issued')
    throw new TypeError(`auth must be "open" or "issued", got ${String(resolved.auth)}.`);
  // Note: the message never quotes the token.
  if (
    resolved.adminToken !== undefined &&
    !(typeof resolved.adminToken === 'string' && resolved.adminToken.length >= MIN_ADMIN_TOKEN_LENGTH)
  ) {
    throw new TypeError(
      `adminToken must be a string of at least ${MIN_ADMIN_TOKEN_LENGTH} characters (openssl rand -base64 32 makes one).`,
    );
  }
  if (!isHostList(resolved.allowWebhookHosts)) {
    throw new TypeError('allowWebhookHosts must be an array of host names, IP addresses or CIDR ranges.');
  }
  for (const entry of resolved.allowWebhookHosts) parseAllowEntry(entry);
  if (resolved.lookup !== undefined && typeof resolved.lookup !== 'function')
    throw new TypeError('lookup must be a function from a host name to a promise of its addresses.');
  for (const [name, value, most] of [
    ['quotas.objects', resolved.quotas.objects, Infinity],
    ['quotas.webhookEndpoints', resolved.quotas.webhookEndpoints, MAX_WEBHOOK_ENDPOINTS],
    ['quotas.events', resolved.quotas.events, Infinity],
    ['tenants.max', resolved.tenants.max, Infinity],
    ['tenants.idleSeconds', resolved.tenants.idleSeconds, Infinity],
    ['testTenants.max', resolved.testTenants.max, Infinity],
    ['testTenants.idleSeconds', resolved.testTenants.idleSeconds, Infinity],
    ['merchantConcurrency', resolved.merchantConcurrency, Infinity],
    ['merchantQueueMs', resolved.merchantQueueMs, MAX_PG_MS],
    ['merchantQueueLength', resolved.merchantQueueLength, Infinity],
    ['poolSize', resolved.poolSize, Infinity],
    ['statementTimeoutMs', resolved.statementTimeoutMs, MAX_PG_MS],
    ['lockTimeoutMs', resolved.lockTimeoutMs, MAX_PG_MS],
  ] as const) {
    if (!(Number.isInteger(value) && value > 0 && value <= most))
      throw new RangeError(
        `${name} must be a whole number from 1${most === Infinity ? '' : ` to ${most}`}, got ${String(value)}.`,
      );
  }
  return resolved;
}
