// The named types both variants share: each is one component of the contract, the same in both bundles.
// Note: read from Variant A's generated types; a type test proves every schema both variants have is identical.
import type { components } from '../../generated/types/variant-a.js';

type Schemas = components['schemas'];

/** A payment as Variant B returns it and Variant A lists it: requisite with `card_number`, and `updated_at`. */
export type Payment = Schemas['Payment'];
/** A payment as Variant A's Confirm Payment returns it and the webhook sends it: requisite `{type, card, holder, bank}`, `reason_code`, `finalized_at`. */
export type ConfirmedPayment = Schemas['ConfirmedPayment'];
/** Status of a payment. */
export type PaymentStatus = Schemas['PaymentStatus'];
/** Why a payment ended as it did; null while it has not. */
export type ReasonCode = Schemas['ReasonCode'];
/** Requisite of a payment in the list shape. */
export type Requisite = Schemas['Requisite'];
/** Requisite of a confirmed payment and of the webhook's payment: `{type, card, holder, bank}`. */
export type ConfirmedRequisite = Schemas['ConfirmedRequisite'];
/** An amount in a currency: `{ amount: '1500.00', currency: 'EUR' }`. */
export type Money = Schemas['Money'];
/** Free-form key-value data the merchant attaches. */
export type Metadata = Schemas['Metadata'];
/** The customer a payment or payout is for. */
export type Customer = Schemas['Customer'];
/** A payout: money sent out. */
export type Payout = Schemas['Payout'];
/** Status of a payout. */
export type PayoutStatus = Schemas['PayoutStatus'];
/** Requisite a payout is sent to. */
export type PayoutRequisite = Schemas['PayoutRequisite'];
/** An appeal against a transaction. */
export type Appeal = Schemas['Appeal'];
/** Status of an appeal. */
export type AppealStatus = Schemas['AppealStatus'];
/** A file attached to an appeal. */
export type AppealAttachment = Schemas['AppealAttachment'];
/** The merchant's balance, one entry per currency. */
export type Balance = Schemas['Balance'];
/** Available and pending money in one currency. */
export type BalanceEntry = Schemas['BalanceEntry'];
/** Where a list page sits in the whole list. */
export type Pagination = Schemas['Pagination'];
/** Every error body (RFC 9457 problem details). */
export type Problem = Schemas['Problem'];
/** One field-level violation inside `Problem.errors`. */
export type ProblemFieldError = Schemas['ProblemFieldError'];
/** Body of Create Payment. */
export type CreatePaymentRequest = Schemas['CreatePaymentRequest'];
/** Body of Create Payout. */
export type CreatePayoutRequest = Schemas['CreatePayoutRequest'];
/** Body of Create Appeal. */
export type CreateAppealRequest = Schemas['CreateAppealRequest'];
// The webhook events, the same types as the ./webhooks entry exports.
export type {
  AppealStatusChangedEvent,
  EarlierWebhookEvent,
  PaymentStatusChangedEvent,
  PayoutStatusChangedEvent,
  WebhookEvent,
} from '../webhooks/types.js';
/** Every `type` of a webhook event. */
export type EventType = Schemas['EventType'];
