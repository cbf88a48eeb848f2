// One delivery attempt: the event's body in the endpoint's layout, signed with signWebhook (the endpoint's secret, or
// the sandbox's), checked against the contract, held to the egress rule (a tenant's endpoint), and POSTed with a
// time-out, a cap on the answer and no redirects.
import { PACKAGE_VERSION } from '@merchant-payments/contract/generated/version.js';
import type { WebhookLayout } from '@merchant-payments/contract/internal/webhooks/types.js';
import { deliver } from '@merchant-payments/contract/internal/webhooks/deliver.js';
import { WEBHOOK_HEADERS } from '@merchant-payments/contract/internal/webhooks/headers.js';
import { WebhookSendError } from '@merchant-payments/contract/internal/webhooks/send-error.js';
import { signWebhook } from '@merchant-payments/contract/internal/webhooks/sign.js';
import { attemptContext, type DeliveryOutcome, type DueAttempt, type TenantState } from '../core/index.js';
import type { SandboxValidators } from '../http/hooks.js';
import { CLASS_WORDS, type AddressClass, type EgressRule, type HostVerdict } from './egress.js';
import { EgressRefusedError } from './egress-refused.js';
import { eventBody } from './event-body.js';

/** The User-Agent of every delivery. */
export const SANDBOX_USER_AGENT = `merchant-payments-sandbox/${PACKAGE_VERSION}`;

/** What sending needs besides the attempt. */
export interface SendSettings {
  /** The sandbox's `whsec_…` secret, for endpoints registered without one. */
  secret: string;
  /**
   * The sandbox's `fetch` option (a fetch handler such as createFetchWebhookHandler's, a test's), when it was given: a
   * tenant's endpoint is checked against the egress rule first (resolved in `issued` mode), then the request is handed
   * to it. Undefined: tenants' endpoints go through `pinnedFetch`, the operator's through the global fetch.
   */
  fetch: ((request: Request) => Promise<Response>) | undefined;
  /** The egress rule of tenants' endpoints (never of the operator's --webhook-url ones). */
  egress: EgressRule;
  /** The fetch held to the egress rule (pinned-fetch.ts), used when no `fetch` was given. */
  pinnedFetch: ((url: string, init: RequestInit) => Promise<Response>) | undefined;
  timeoutMs: number;
  maxResponseBytes: number;
  /** The wall clock (ms): X-Timestamp is when the attempt is made, as receivers compare it with their own clock. */
  wallNow: () => number;
  validate?: SandboxValidators['webhook'];
  /** Sends a listener's attempt on the WebSocket this instance holds (listener-hub.ts). */
  forward?(listener: ListenerTarget, request: SignedRequest): Promise<SentOutcome>;
}

/** A listener's attempt: whose listener, and which attempt of which delivery. */
export interface ListenerTarget {
  tenant: string;
  endpoint: string;
  delivery: string;
  attempt: number;
}

/** An attempt as signed: the scheme's headers and the body, exactly as sent. */
export interface SignedRequest {
  eventId: string;
  headers: Record<string, string>;
  body: string;
}

/** What one attempt sends, read from the tenant inside the transaction that takes it, so that sending needs no tenant. */
export interface PreparedAttempt {
  url: string;
  /** The endpoint's own secret; absent: the sandbox's. */
  secret: string | undefined;
  layout: WebhookLayout;
  eventId: string;
  type: string;
  body: Record<string, unknown>;
  /** An endpoint of the operator's (--webhook-url): the egress rule does not apply to it. */
  operator: boolean;
  /** A listener's attempt, which goes on its WebSocket rather than to `url`. */
  listener?: ListenerTarget;
}

/** An attempt's outcome as sending reports it: `forbidden` when the egress rule refused the endpoint's address (the metrics). */
export type SentOutcome = DeliveryOutcome & {
  forbidden?: true;
  /** A listener's attempt that its connection lost before an outcome came: put back, to be sent again, not recorded. */
  unsent?: true;
};

/** What a due attempt sends, or its outcome at once when there is nothing to send (the endpoint is gone, no body). */
export function prepareAttempt(tenant: TenantState, due: DueAttempt): PreparedAttempt | DeliveryOutcome {
  const { change, endpoint } = attemptContext(tenant, due);
  if (!endpoint) return { ok: false, error: 'The endpoint was removed before this attempt.' };
  const built = eventBody(tenant, change, endpoint.layout);
  if (!built.ok) return { ok: false, error: built.error };
  // Note: the --webhook-url endpoints are the only ones without a secret of their own (control/views.ts says why).
  const operator = endpoint.secret === undefined;
  return {
    url: endpoint.url,
    secret: endpoint.secret,
    layout: endpoint.layout,
    eventId: change.event.id,
    type: built.type,
    body: built.body,
    operator,
    ...(endpoint.listener
      ? { listener: { tenant: tenant.id, endpoint: endpoint.id, delivery: due.delivery_id, attempt: due.attempt } }
      : {}),
  };
}

/** Sends one prepared attempt and says how it went; never throws. */
export async function sendAttempt(attempt: PreparedAttempt, settings: SendSettings): Promise<SentOutcome> {
  const body = JSON.stringify(attempt.body);
  let signature: Record<string, string>;
  try {
    const timestamp = Math.floor(settings.wallNow() / 1000);
    signature = await signWebhook({
      id: attempt.eventId,
      body,
      secret: attempt.secret ?? settings.secret,
      layout: attempt.layout,
      timestamp,
    });
  } catch {
    // Note: the signer's message is not passed on, so that nothing about the secret reaches the delivery log.
    return { ok: false, error: 'The attempt could not be signed: the secret is not a whsec_ secret.' };
  }
  const headers = {
    'Content-Type': 'application/json',
    [WEBHOOK_HEADERS.userAgent]: SANDBOX_USER_AGENT,
    [WEBHOOK_HEADERS.type]: attempt.type,
    ...signature,
  };
  const violations = await settings.validate?.({ layout: attempt.layout, headers, body: attempt.body });
  if (violations?.length) {
    return {
      ok: false,
      error: `The event breaks the contract, so it was not sent (a sandbox bug): ${violations.map((v) => `${v.pointer} ${v.detail}`).join('; ')}`,
    };
  }
  // Note: the sandbox opens no connection for a listener, so the egress rule has nothing to judge.
  if (attempt.listener) {
    if (!settings.forward) return { ok: false, error: NOT_CONNECTED, unsent: true };
    return settings.forward(attempt.listener, { eventId: attempt.eventId, headers, body });
  }
  const url = new URL(attempt.url);
  const custom = settings.fetch;
  let send: (url: string, init: RequestInit) => Promise<Response>;
  if (attempt.operator) {
    send = custom ? (target, init) => custom(new Request(target, init)) : (target, init) => fetch(target, init);
  } else {
    // Note: with the pinned fetch, a name is judged by the connection's own lookup, which also picks the address; an
    // IP address is connected to without a lookup, so it is judged here. A fetch of the user's gets check-then-send.
    const verdict = await settings.egress.checkHost(url.hostname, {
      resolve: custom !== undefined && settings.egress.mode === 'issued',
    });
    if (!verdict.allowed) return refused(verdict, settings);
    send = custom
      ? (target, init) => custom(new Request(target, init))
      : (settings.pinnedFetch ?? ((target, init) => fetch(target, init)));
  }
  const started = performance.now();
  try {
    const { status } = await deliver(
      url,
      { headers, body },
      { timeoutMs: settings.timeoutMs, maxResponseBytes: settings.maxResponseBytes, fetch: send },
    );
    // Note: only an answer is timed. How long a connection took to fail would tell a tenant of an issued sandbox which
    // ports of a host are open, which the failure's wording keeps from it too.
    const duration_ms = Math.min(Math.round(performance.now() - started), MAX_DURATION_MS);
    return status >= 200 && status < 300
      ? { ok: true, status, duration_ms }
      : { ok: false, status, error: `The endpoint answered ${status}.`, duration_ms };
  } catch (error) {
    const refusal = causeOf(error, EgressRefusedError);
    if (refusal) return forbidden(refusal.addressClass, settings);
    return { ok: false, error: failureOf(error, settings) };
  }
}

// Note: in `issued` mode the text is the class alone, the same whatever was refused; in `open` mode it names the class
// of the address, which helps local debugging.
function forbidden(addressClass: AddressClass, settings: SendSettings): SentOutcome {
  const error =
    settings.egress.mode === 'issued'
      ? "forbidden_address: the endpoint's host resolves to an address this sandbox does not deliver to."
      : `forbidden_address: the endpoint's host resolves to ${CLASS_WORDS[addressClass]}, which this sandbox does not deliver to.`;
  return { ok: false, error, forbidden: true };
}

function refused(verdict: Exclude<HostVerdict, { allowed: true }>, settings: SendSettings): SentOutcome {
  if (verdict.reason === 'forbidden') return forbidden(verdict.addressClass, settings);
  // Note: only `issued` mode resolves before sending; a host that resolves to nothing is, to the tenant, no connection.
  return { ok: false, error: NO_CONNECTION };
}

const NO_CONNECTION = 'network: no connection to the endpoint.';
/** The longest duration the delivery log holds (the contract's bound on `duration_ms`). */
const MAX_DURATION_MS = 600_000;
/** A listener's attempt taken while its connection went away. */
export const NOT_CONNECTED = 'network: the listener is not connected.';

/** The first error of `type` in the chain of causes of `error`. */
function causeOf<T extends Error>(error: unknown, type: new (...args: never[]) => T): T | undefined {
  for (let current: unknown = error; current instanceof Error; current = current.cause)
    if (current instanceof type) return current;
  return undefined;
}

// Note: the tenant reads this in the delivery log, so it names the reason only: the sender's messages quote the
// endpoint's origin and path, a network error quotes the host and port (an operator's --webhook-url is not the
// tenant's to see), and fetch's own errors quote a URL whole, user name and password included. In `issued` mode a
// network failure does not even name its system error code: ECONNREFUSED against EHOSTUNREACH would tell a tenant
// which ports of a host its operator allowed are open.
function failureOf(error: unknown, settings: SendSettings): string {
  if (!(error instanceof WebhookSendError)) return 'The attempt failed.';
  switch (error.reason) {
    case 'timeout':
      return `timeout: no complete answer within ${settings.timeoutMs} ms.`;
    case 'response_too_large':
      return `response_too_large: the answer was longer than ${settings.maxResponseBytes} bytes.`;
    case 'redirect':
      return 'redirect: the endpoint answered with a redirect, which deliveries do not follow.';
    case 'network':
      if (settings.egress.mode === 'issued') return NO_CONNECTION;
      return `network: ${networkCode(error) ?? 'no connection to the endpoint'}.`;
  }
}

// The system error code of a failed connection (ECONNREFUSED, ENOTFOUND…), which says what happened and names no host.
function networkCode(error: Error): string | undefined {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
  }
  return undefined;
}
