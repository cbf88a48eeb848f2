// Public types of the webhook events, derived from the contract's generated types.
import type { components } from '../../generated/types/variant-a.js';

type Schemas = components['schemas'];

/** Body of the later `onStatusChange` layout; `type` narrows `data`. */
export type WebhookEvent = Schemas['WebhookEvent'];

/** The later-layout event sent when a payment changes status; `data` is the payment. */
export type PaymentStatusChangedEvent = Schemas['PaymentStatusChangedEvent'];

/** The later-layout event sent when a payout changes status; `data` is the payout. */
export type PayoutStatusChangedEvent = Schemas['PayoutStatusChangedEvent'];

/** The later-layout event sent when an appeal changes status; `data` is the appeal. */
export type AppealStatusChangedEvent = Schemas['AppealStatusChangedEvent'];

/** Body of the deprecated earlier layout (no X-Timestamp; `data` is a create-payment request). */
export type EarlierWebhookEvent = Schemas['EarlierWebhookEvent'];

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
