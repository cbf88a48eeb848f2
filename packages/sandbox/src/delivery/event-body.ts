// The body of a status-change webhook in each layout: the later one carries the object (a payment in the confirmed
// shape), the earlier one the payment's create request; the earlier layout has no payout or appeal events.
import { collectionOf, type StatusChange, type TenantState } from '../core/index.js';
import type { WebhookLayout } from '@merchant-payments/contract/internal/webhooks/types.js';
import { confirmedPayment } from '../variants/shapes.js';

/** A body ready to send, or why the event cannot be sent in the layout. */
export type EventBody = { ok: true; type: string; body: Record<string, unknown> } | { ok: false; error: string };

/** The later layout's body of `change`, which carries every kind. */
export function laterBody(change: StatusChange): Record<string, unknown> {
  const { event } = change;
  const data = event.type === 'payment.status_changed' ? confirmedPayment(event.data) : event.data;
  return { id: event.id, type: event.type, created_at: event.created_at, data };
}

/** The body of `change` in `layout`. */
export function eventBody(tenant: TenantState, change: StatusChange, layout: WebhookLayout): EventBody {
  const { event } = change;
  if (layout === 'later') return { ok: true, type: event.type, body: laterBody(change) };
  if (change.kind !== 'payment') {
    return {
      ok: false,
      error: `The earlier layout carries payment events only, so this ${event.type} event is not sent to an earlier-layout endpoint.`,
    };
  }
  return {
    ok: true,
    type: event.type,
    body: {
      id: event.id,
      type: event.type,
      created_at: event.created_at,
      data: collectionOf(tenant, 'payment').request(change.object_id),
    },
  };
}
