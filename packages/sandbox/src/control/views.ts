// The control document's shapes of what the core keeps: status changes (with the later layout's event), deliveries
// and their attempts, and webhook endpoints without their secrets.
import type { Delivery, StatusChange, WebhookEndpoint } from '../core/index.js';
import { laterBody } from '../delivery/event-body.js';
import type * as SandboxControl from '@merchant-payments/contract/internal/sandbox-control/types.js';

// Note: the document bounds `error` (255 characters, no control characters); a receiver's failure text is not.
const MAX_ERROR = 255;
const printableError = (text: string) => {
  const clean = text.replace(/[\x00-\x1f\x7f]/g, ' ');
  return clean.length > MAX_ERROR ? `${clean.slice(0, MAX_ERROR - 1)}…` : clean;
};

/** A StatusChange of the event log: `event` is the body the later layout sends. */
export function statusChangeView(change: StatusChange): SandboxControl.StatusChange {
  const event = laterBody(change) as SandboxControl.StatusChange['event'];
  // Note: creating an object is no status change (nothing is logged), so `api:create` never reaches the log.
  return { event, from: change.from, to: change.to, trigger: change.trigger as SandboxControl.Trigger };
}

/** A Delivery with every attempt; the last one is pending until it has an outcome. */
export function deliveryView(delivery: Delivery): SandboxControl.Delivery {
  const attempts = delivery.attempts.map((attempt): SandboxControl.DeliveryAttempt => {
    const status = attempt.outcome?.status;
    return {
      number: attempt.number,
      due_at: attempt.due_at,
      sent_at: attempt.sent_at ?? null,
      outcome: attempt.outcome === undefined ? 'pending' : attempt.outcome.ok ? 'succeeded' : 'failed',
      response_status: status !== undefined && status >= 100 && status <= 599 ? status : null,
      error: attempt.outcome?.error === undefined ? null : printableError(attempt.outcome.error),
      ...(attempt.outcome?.duration_ms === undefined ? {} : { duration_ms: attempt.outcome.duration_ms }),
    };
  });
  const pending = attempts.at(-1)?.outcome === 'pending' ? attempts.at(-1)! : undefined;
  return {
    id: delivery.id,
    event_id: delivery.event_id,
    endpoint_id: delivery.endpoint_id,
    state: delivery.state,
    attempts,
    next_attempt_at: pending?.due_at ?? null,
  };
}

/**
 * A WebhookEndpoint as lists show it: never its secret, nor its URL's query string and fragment, nor the URL of an
 * endpoint of the sandbox's operator.
 */
export function endpointView(endpoint: WebhookEndpoint): SandboxControl.WebhookEndpoint {
  // Note: the --webhook-url endpoints are the only ones signed with the sandbox's own secret: the control API gives
  // every endpoint it registers a secret of its own (the one given, or a generated one).
  const operator = endpoint.secret === undefined;
  return {
    id: endpoint.id,
    url: operator ? null : shownUrl(endpoint.url),
    source: operator ? 'operator' : 'tenant',
    layout: endpoint.layout,
    created_at: endpoint.created_at,
    ...(endpoint.listener ? { listener: true as const } : {}),
  };
}

// Origin and path only: a query string or fragment may carry a token, and the origin never holds a user name or password.
function shownUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}
