// One delivery attempt: the event's body in the endpoint's layout, signed with signWebhook (the endpoint's secret, or
// the sandbox's), checked against the contract, and POSTed with a time-out, a cap on the answer and no redirects.
import { PACKAGE_VERSION } from '../../../generated/version.js';
import type { WebhookLayout } from '../../webhooks/types.js';
import { deliver } from '../../webhooks/deliver.js';
import { WEBHOOK_HEADERS } from '../../webhooks/headers.js';
import { WebhookSendError } from '../../webhooks/send-error.js';
import { signWebhook } from '../../webhooks/sign.js';
import { attemptContext, type DeliveryOutcome, type DueAttempt, type TenantState } from '../core/index.js';
import type { SandboxValidators } from '../http/hooks.js';
import { eventBody } from './event-body.js';

/** The User-Agent of every delivery. */
export const SANDBOX_USER_AGENT = `merchant-payments-sandbox/${PACKAGE_VERSION}`;

/** What sending needs besides the attempt. */
export interface SendSettings {
  /** The sandbox's `whsec_…` secret, for endpoints registered without one. */
  secret: string;
  /** Where requests go: the global fetch, or a fetch handler such as createFetchWebhookHandler's. */
  fetch: (request: Request) => Promise<Response>;
  timeoutMs: number;
  maxResponseBytes: number;
  /** The wall clock (ms): X-Timestamp is when the attempt is made, as receivers compare it with their own clock. */
  wallNow: () => number;
  validate?: SandboxValidators['webhook'];
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
}

/** What a due attempt sends, or its outcome at once when there is nothing to send (the endpoint is gone, no body). */
export function prepareAttempt(tenant: TenantState, due: DueAttempt): PreparedAttempt | DeliveryOutcome {
  const { change, endpoint } = attemptContext(tenant, due);
  if (!endpoint) return { ok: false, error: 'The endpoint was removed before this attempt.' };
  const built = eventBody(tenant, change, endpoint.layout);
  if (!built.ok) return { ok: false, error: built.error };
  return { url: endpoint.url, secret: endpoint.secret, layout: endpoint.layout, eventId: change.event.id, type: built.type, body: built.body };
}

/** Sends one prepared attempt and says how it went; never throws. */
export async function sendAttempt(attempt: PreparedAttempt, settings: SendSettings): Promise<DeliveryOutcome> {
  const body = JSON.stringify(attempt.body);
  let signature: Record<string, string>;
  try {
    const timestamp = Math.floor(settings.wallNow() / 1000);
    signature = await signWebhook({ id: attempt.eventId, body, secret: attempt.secret ?? settings.secret, layout: attempt.layout, timestamp });
  } catch {
    // Note: the signer's message is not passed on, so that nothing about the secret reaches the delivery log.
    return { ok: false, error: 'The attempt could not be signed: the secret is not a whsec_ secret.' };
  }
  const headers = { 'Content-Type': 'application/json', [WEBHOOK_HEADERS.userAgent]: SANDBOX_USER_AGENT, [WEBHOOK_HEADERS.type]: attempt.type, ...signature };
  const violations = await settings.validate?.({ layout: attempt.layout, headers, body: attempt.body });
  if (violations?.length) {
    return { ok: false, error: `The event breaks the contract, so it was not sent (a sandbox bug): ${violations.map((v) => `${v.pointer} ${v.detail}`).join('; ')}` };
  }
  try {
    const fetchRequest = (url: string, init: RequestInit) => settings.fetch(new Request(url, init));
    const { status } = await deliver(new URL(attempt.url), { headers, body }, { timeoutMs: settings.timeoutMs, maxResponseBytes: settings.maxResponseBytes, fetch: fetchRequest });
    return status >= 200 && status < 300 ? { ok: true, status } : { ok: false, status, error: `The endpoint answered ${status}.` };
  } catch (error) {
    return { ok: false, error: failureOf(error, settings) };
  }
}

// Note: the tenant reads this in the delivery log, so it names the reason only: the sender's messages quote the
// endpoint's origin and path, a network error quotes the host and port (an operator's --webhook-url is not the
// tenant's to see), and fetch's own errors quote a URL whole, user name and password included.
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
