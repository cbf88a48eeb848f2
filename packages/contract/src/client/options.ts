// The options both clients share, their defaults, and the checks that make a bad option fail at construction.
import { MAX_TIMER_MS } from '../shared/timers.js';
import { ClientConfigError } from './errors/client-config-error.js';
import { defaultSleep, type Sleep } from './sleep.js';
import { DEFAULT_USER_AGENT } from './user-agent.js';

/** The fetch a client calls: openapi-fetch hands it one Request (not `typeof fetch`). */
export type FetchLike = (input: Request) => Promise<Response>;

/** Where a client writes what it does; every line is free of credentials. `console` fits. */
export interface ClientLogger {
  /** One line per attempt, with the request's headers redacted. */
  debug?(line: string): void;
  /** One line per retry: why, and how long the client waits. */
  warn?(line: string): void;
}

/** What `onRetry` is told before the client waits and tries again. */
export interface RetryInfo {
  method: string;
  url: string;
  /** The attempt that just failed, from 1. */
  attempt: number;
  /** The most attempts this request gets. */
  attempts: number;
  /** How long the client waits before the next attempt. */
  delayMs: number;
  reason: 'network' | 'timeout' | 'status';
  /** The HTTP status, when `reason` is `status` (429, a transient 5xx, or 409 while the same key is still in progress). */
  status?: number;
}

/**
 * How failed requests are retried: only GET, HEAD and requests with an Idempotency-Key; only after a network error,
 * a time-out, 429, 409 `idempotency_request_in_progress`, or a 5xx other than 501, 505 and 511.
 */
export interface RetryOptions {
  /** Total attempts including the first (default 3, i.e. up to 2 retries; 1 to 10). */
  attempts?: number;
  /** First backoff ceiling in ms; doubles per retry (default 500). */
  baseDelayMs?: number;
  /** Upper bound of any wait, including one asked for by Retry-After (default 10000, at most 2147483647). */
  maxDelayMs?: number;
  /** Full jitter: wait a random time up to the backoff ceiling (default true). Retry-After waits are not jittered. */
  jitter?: boolean;
  /** Waits between attempts (default: a timer); inject it to test or to use your own scheduler. */
  sleep?: Sleep;
}

/** How a client treats redirects; see ClientOptions.redirect. */
export type RedirectMode = 'error' | 'follow-same-origin';

/** Options both variants accept. */
export interface ClientOptions {
  /** Absolute http(s) URL of the service, e.g. `https://api.payments.example` (Variant B adds `/merchant/v1` in its paths). */
  baseUrl: string;
  /** The fetch to use (default: globalThis.fetch, looked up per call). */
  fetch?: FetchLike;
  /** Limit for one attempt, headers and body included, in ms (default 30000, at most 2147483647; Infinity for none). */
  timeoutMs?: number;
  /** Largest response body read, in bytes (default 8 MiB); a larger one aborts the read with ResponseTooLargeError. */
  maxResponseBytes?: number;
  /**
   * What to do with a 3xx answer (default `error`: throw RedirectError, which says where it pointed).
   * `follow-same-origin` follows up to 5 redirects within the baseUrl's origin: 307/308 keep the method and body,
   * 301/302/303 are followed for GET and HEAD only. Credentials never leave the origin either way.
   */
  redirect?: RedirectMode;
  /** Retry policy, or `false` for a single attempt. */
  retry?: RetryOptions | false;
  /** User-Agent in server runtimes (default `merchant-payments-contract/<version>`); browsers keep their own. */
  userAgent?: string;
  /** Extra headers sent on every request; credentials and Idempotency-Key are refused here. */
  headers?: Record<string, string>;
  /** Makes the Idempotency-Key of a state-changing call that has none (default crypto.randomUUID); `false` sends none. */
  generateIdempotencyKey?: (() => string) | false;
  /** Called before each retry. */
  onRetry?: (info: RetryInfo) => void;
  /** Receives one line per attempt and per retry. */
  logger?: ClientLogger;
}

/** The retry policy with every default applied. */
export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  jitter: boolean;
  sleep: Sleep;
  random: () => number;
}

/** ClientOptions after validation, with defaults applied. */
export interface ResolvedOptions {
  baseUrl: string;
  /** The caller's fetch; undefined for globalThis.fetch. */
  fetch: FetchLike | undefined;
  timeoutMs: number;
  maxResponseBytes: number;
  redirect: RedirectMode;
  retry: RetryPolicy;
  userAgent: string;
  headers: Record<string, string>;
  generateIdempotencyKey: (() => string) | undefined;
  onRetry: ((info: RetryInfo) => void) | undefined;
  logger: ClientLogger | undefined;
}

/** Default per-attempt time-out in ms. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** Default largest response body in bytes: far above a full page of 100 objects. */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/** Default retry policy values. */
export const DEFAULT_RETRY = { attempts: 3, baseDelayMs: 500, maxDelayMs: 10_000, jitter: true } as const;

// Headers that must not be fixed client-wide: credentials have their own options, and one
// Idempotency-Key on every call would make the service replay the first answer to all of them.
const REFUSED_HEADERS: Record<string, string> = {
  authorization: 'pass the token as the accessToken option instead',
  'x-public-key': 'pass it as the publicKey option instead',
  'x-secret-key': 'pass it as the secretKey option instead',
  'idempotency-key': 'pass it per call in params.header, or let the client generate one',
  'user-agent': 'use the userAgent option instead',
};

/** Checks an options object and applies the defaults. */
export function resolveOptions(options: ClientOptions): ResolvedOptions {
  const retry = resolveRetry(options.retry);
  return {
    baseUrl: parseBaseUrl(options.baseUrl),
    fetch: options.fetch,
    timeoutMs: resolveTimeout(options.timeoutMs),
    maxResponseBytes: resolveMaxResponseBytes(options.maxResponseBytes),
    redirect: resolveRedirect(options.redirect),
    retry,
    userAgent: resolveUserAgent(options.userAgent),
    headers: resolveHeaders(options.headers),
    generateIdempotencyKey: resolveKeyGenerator(options.generateIdempotencyKey),
    onRetry: options.onRetry,
    logger: options.logger,
  };
}

/** The base URL without a trailing slash; refuses anything but an absolute http(s) URL without credentials, query or fragment. */
export function parseBaseUrl(value: unknown): string {
  const example = 'e.g. "https://api.payments.example" or "http://127.0.0.1:4010" for the mock';
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ClientConfigError('baseUrl', `baseUrl is missing: pass the absolute URL of the service, ${example}.`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch (cause) {
    throw new ClientConfigError('baseUrl', `baseUrl could not be parsed as an absolute URL: pass one, ${example}.`, {
      cause,
    });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ClientConfigError(
      'baseUrl',
      `baseUrl must use http or https, not ${url.protocol.replace(':', '')}: ${example}.`,
    );
  }
  if (url.username || url.password) {
    throw new ClientConfigError(
      'baseUrl',
      'baseUrl must not contain a user name or password: pass credentials as client options.',
    );
  }
  if (url.search || url.hash) {
    throw new ClientConfigError('baseUrl', `baseUrl must not have a query or fragment: ${example}.`);
  }
  return url.origin + url.pathname.replace(/\/+$/, '');
}

/** Returns the credential, or throws a ClientConfigError that names it without ever quoting its value. */
export function requireCredential(option: string, value: unknown, header: string): string {
  if (typeof value !== 'string' || value === '') {
    throw new ClientConfigError(
      option,
      `${option} is missing: pass it as an option (it is sent in the ${header} header).`,
    );
  }
  // Note: fetch's own error for a bad header value quotes the value, so check here and say nothing of it.
  if (!/^[\x21-\x7E]+$/.test(value)) {
    throw new ClientConfigError(
      option,
      `${option} must be printable ASCII without spaces or line breaks (it is sent in the ${header} header); ` +
        'check for a stray newline or space where it is read from the environment.',
    );
  }
  return value;
}

function resolveTimeout(value: number | undefined): number {
  if (value === undefined) return DEFAULT_TIMEOUT_MS;
  if (value === Infinity) return value;
  if (!isNonNegative(value) || value === 0 || value > MAX_TIMER_MS) {
    throw new ClientConfigError(
      'timeoutMs',
      `timeoutMs must be a positive number of milliseconds up to ${MAX_TIMER_MS} (about 24.8 days), or Infinity for no limit.`,
    );
  }
  return value;
}

function resolveMaxResponseBytes(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_RESPONSE_BYTES;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new ClientConfigError('maxResponseBytes', 'maxResponseBytes must be a whole number of bytes, 1 or more.');
  }
  return value;
}

function resolveRedirect(value: RedirectMode | undefined): RedirectMode {
  if (value === undefined) return 'error';
  if (value !== 'error' && value !== 'follow-same-origin') {
    throw new ClientConfigError('redirect', 'redirect must be "error" (the default) or "follow-same-origin".');
  }
  return value;
}

function resolveRetry(value: RetryOptions | false | undefined): RetryPolicy {
  const base = { sleep: defaultSleep, random: Math.random };
  if (value === false) return { ...DEFAULT_RETRY, ...base, attempts: 1 };
  const policy = { ...DEFAULT_RETRY, ...base, ...definedOnly(value ?? {}) };
  if (!Number.isInteger(policy.attempts) || policy.attempts < 1 || policy.attempts > 10) {
    throw new ClientConfigError(
      'retry.attempts',
      'retry.attempts must be a whole number from 1 to 10 (total attempts, first included).',
    );
  }
  if (!isNonNegative(policy.baseDelayMs) || policy.baseDelayMs > MAX_TIMER_MS) {
    throw new ClientConfigError(
      'retry.baseDelayMs',
      `retry.baseDelayMs must be a number of milliseconds from 0 to ${MAX_TIMER_MS}.`,
    );
  }
  if (!isNonNegative(policy.maxDelayMs) || policy.maxDelayMs < policy.baseDelayMs || policy.maxDelayMs > MAX_TIMER_MS) {
    throw new ClientConfigError(
      'retry.maxDelayMs',
      `retry.maxDelayMs must be a number of milliseconds from retry.baseDelayMs to ${MAX_TIMER_MS}.`,
    );
  }
  return policy;
}

function resolveUserAgent(value: string | undefined): string {
  if (value === undefined) return DEFAULT_USER_AGENT;
  if (typeof value !== 'string' || !/^[\x20-\x7E]+$/.test(value)) {
    throw new ClientConfigError(
      'userAgent',
      'userAgent must be a non-empty string of printable ASCII, e.g. "my-shop/2.1".',
    );
  }
  return value;
}

function resolveHeaders(value: Record<string, string> | undefined): Record<string, string> {
  if (value === undefined) return {};
  for (const name of Object.keys(value)) {
    const why = REFUSED_HEADERS[name.toLowerCase()];
    if (why) throw new ClientConfigError('headers', `headers must not set ${name}: ${why}.`);
  }
  try {
    new Headers(value);
  } catch (cause) {
    throw new ClientConfigError('headers', 'headers must map valid header names to string values.', { cause });
  }
  return { ...value };
}

function resolveKeyGenerator(value: (() => string) | false | undefined): (() => string) | undefined {
  if (value === false) return undefined;
  if (value === undefined) return () => globalThis.crypto.randomUUID();
  if (typeof value !== 'function') {
    throw new ClientConfigError(
      'generateIdempotencyKey',
      'generateIdempotencyKey must be a function returning a key, or false.',
    );
  }
  return value;
}

function isNonNegative(n: unknown): n is number {
  return typeof n === 'number' && Number.isFinite(n) && n >= 0;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
