// What both variants' factories share: options, the transport, idempotency and auth middleware, each result finished, and a safe printout.
import createClient from 'openapi-fetch';
import { authMiddleware } from './auth.js';
import { idempotencyKeyMiddleware } from './idempotency.js';
import { resolveOptions, type ClientOptions } from './options.js';
import { createScrubber, type Scrubber } from './redact.js';
import { finishResult, type FetchResult } from './result.js';
import { createTransport } from './transport.js';
import type { TypedClient } from './typed-client.js';
import { canSetUserAgent } from './user-agent.js';

/** What a variant adds to the shared client: its name, its credential headers and the secrets to keep out of output. */
export interface VariantSetup {
  variant: 'A' | 'B';
  credentials: Record<string, string>;
  secrets: readonly string[];
  /** How util.inspect names the client (default `Variant<variant>Client`). */
  label?: string;
}

const ACCEPT = 'application/json, application/problem+json';

/** Builds an openapi-fetch client for `Paths` with the shared behaviour and the variant's auth. */
export function buildClient<Paths extends object>(options: ClientOptions, setup: VariantSetup): TypedClient<Paths> {
  const resolved = resolveOptions(options);
  const headers: Record<string, string> = { Accept: ACCEPT, ...resolved.headers };
  if (canSetUserAgent()) headers['User-Agent'] = resolved.userAgent;
  const scrub = createScrubber(setup.secrets);
  const fetch = createTransport({ ...resolved, scrub });
  // Note: only these three options reach openapi-fetch: it spreads unknown options into every RequestInit.
  const client = createClient<Paths>({ baseUrl: resolved.baseUrl, fetch, headers });
  if (resolved.generateIdempotencyKey) client.use(idempotencyKeyMiddleware(resolved.generateIdempotencyKey));
  client.use(authMiddleware(setup.credentials, fetch));
  finishResults(client, scrub);
  // Note: the same functions, typed more strictly (see TypedClient).
  const label = setup.label ?? `Variant${setup.variant}Client`;
  return describeSafely(client as unknown as TypedClient<Paths>, label, {
    variant: setup.variant,
    baseUrl: resolved.baseUrl,
  });
}

const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH'] as const;

// Note: middleware sees only the Request and the Response; openapi-fetch builds `{ data, error }` after it, so each
// method's result goes through finishResult, which gives `error` the type TypedClient promises (a Problem or an
// UndocumentedErrorBody) and takes prototype keys out of what openapi-fetch parsed.
function finishResults(
  client: Record<(typeof METHODS)[number], (...args: never[]) => Promise<FetchResult>>,
  scrub: Scrubber,
): void {
  for (const method of METHODS) {
    const call = client[method];
    client[method] = async (...args) => finishResult(await call(...args), scrub);
  }
}

// Note: the client holds credentials only in middleware closures; these make JSON.stringify and
// util.inspect print a short description instead of the method list.
function describeSafely<T extends object>(
  client: T,
  label: string,
  description: { variant: string; baseUrl: string },
): T {
  const summary = { ...description, credentials: '[REDACTED]' };
  Object.defineProperties(client, {
    toJSON: { value: () => summary },
    [Symbol.for('nodejs.util.inspect.custom')]: {
      value: () => `${label} { baseUrl: '${description.baseUrl}', credentials: [REDACTED] }`,
    },
  });
  return client;
}
