// Public types of the webhook events, derived from the types generated from the shared components.
import type { EarlierWebhookEvent, WebhookEvent } from '../../generated/types/shared.js';

// WebhookEvent is the later layout's body (`type` narrows `data`); EarlierWebhookEvent the deprecated earlier layout's.
export type {
  AppealStatusChangedEvent,
  EarlierWebhookEvent,
  PaymentStatusChangedEvent,
  PayoutStatusChangedEvent,
  WebhookEvent,
} from '../../generated/types/shared.js';

/** Every `type` value of the later layout. */
export type WebhookEventType = WebhookEvent['type'];

/** The event of one type, e.g. `WebhookEventOf<'payout.status_changed'>`. */
export type WebhookEventOf<Type extends WebhookEventType> = Extract<WebhookEvent, { type: Type }>;

/** The `data` of one event type, e.g. `WebhookEventData<'payment.status_changed'>` is the payment. */
export type WebhookEventData<Type extends WebhookEventType> = WebhookEventOf<Type>['data'];

/** Which layout a delivery used: `later` carries X-Timestamp, `earlier` does not. */
export type WebhookLayout = 'later' | 'earlier';

/** What verification returns for a layout opt-in: the later event, or either layout's event. */
export type VerifiedWebhookEvent<AllowEarlier extends boolean = false> = AllowEarlier extends true
  ? WebhookEvent | EarlierWebhookEvent
  : WebhookEvent;
