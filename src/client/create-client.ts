// What both variants' factories share: options, the time-out transport, idempotency, auth and retry middleware, and a safe printout.
import createClient, { type Middleware } from 'openapi-fetch';
import { idempotencyKeyMiddleware } from './idempotency.js';
import { resolveOptions, type ClientOptions } from './options.js';
import { createScrubber } from './redact.js';
import { createBodyStore } from './request-body.js';
import { retryMiddleware } from './retry.js';
import { createTransport } from './transport.js';
import type { TypedClient } from './typed-client.js';
import { canSetUserAgent } from './user-agent.js';

/** What a variant adds to the shared client: its name, its auth middleware and the secrets to keep out of output. */
export interface VariantSetup {
  variant: 'A' | 'B';
  auth: Middleware;
  secrets: readonly string[];
}

const ACCEPT = 'application/json, application/problem+json';

/** Builds an openapi-fetch client for `Paths` with the shared behaviour and the variant's auth. */
export function buildClient<Paths extends {}>(options: ClientOptions, setup: VariantSetup): TypedClient<Paths> {
  const resolved = resolveOptions(options);
  const headers: Record<string, string> = { Accept: ACCEPT, ...resolved.headers };
  if (canSetUserAgent()) headers['User-Agent'] = resolved.userAgent;
  const scrub = createScrubber(setup.secrets);
  const bodies = createBodyStore();
  const fetch = createTransport({ fetch: resolved.fetch, timeoutMs: resolved.timeoutMs, logger: resolved.logger, scrub, bodies });
  // Note: only these four options reach openapi-fetch: it spreads unknown options into every RequestInit.
  const client = createClient<Paths>({ baseUrl: resolved.baseUrl, fetch, headers, Request: bodies.Request });
  // Note: the order matters: retries resend the request as the key and auth middleware left it.
  if (resolved.generateIdempotencyKey) client.use(idempotencyKeyMiddleware(resolved.generateIdempotencyKey));
  client.use(setup.auth);
  client.use(retryMiddleware(resolved.retry, { onRetry: resolved.onRetry, logger: resolved.logger, scrub, bodies }));
  // Note: the same functions, typed more strictly (see TypedClient).
  return describeSafely(client as unknown as TypedClient<Paths>, { variant: setup.variant, baseUrl: resolved.baseUrl });
}

// Note: the client holds credentials only in middleware closures; these make JSON.stringify and
// util.inspect print a short description instead of the method list.
function describeSafely<T extends object>(client: T, description: { variant: string; baseUrl: string }): T {
  const summary = { ...description, credentials: '[REDACTED]' };
  Object.defineProperties(client, {
    toJSON: { value: () => summary },
    [Symbol.for('nodejs.util.inspect.custom')]: {
      value: () => `Variant${description.variant}Client { baseUrl: '${description.baseUrl}', credentials: [REDACTED] }`,
    },
  });
  return client;
}
