// The sandbox's records: its domain objects (the contract's model, sandbox-model/types.ts in the contract package), the
// status changes they go through, the Idempotency-Key records and the outbox's endpoints and deliveries.
import type {
  AnyStatus,
  AppealRecord,
  ObjectKind,
  PaymentRecord,
  PayoutRecord,
  Trigger,
} from '@merchant-payments/contract/internal/sandbox-model/types.js';
import type { components } from '@merchant-payments/contract/generated/types/variant-a.js';
import type { WebhookLayout } from '@merchant-payments/contract/internal/webhooks/types.js';
import type { Answer } from './answer.js';

export type {
  AnyRecord,
  AnyStatus,
  AppealRecord,
  ObjectKind,
  PaymentRecord,
  PayoutRecord,
  RecordOf,
  RequestOf,
  Trigger,
} from '@merchant-payments/contract/internal/sandbox-model/types.js';

type Schemas = components['schemas'];

/** Body of Confirm Payment. */
export type ConfirmPaymentBody = Schemas['ConfirmPaymentRequest'];

/** One page of a list: the contract's `{ data, pagination }`. */
export interface Page<T> {
  data: T[];
  pagination: Schemas['Pagination'];
}

/** The balance: the contract's `{ balances }`. */
export type BalanceBody = Schemas['Balance'];

/** The later webhook layout's body (`id`, `type`, `created_at`, `data`), with `data` in the core's shape. */
export type StatusChangeEvent =
  | { id: string; type: 'payment.status_changed'; created_at: string; data: PaymentRecord }
  | { id: string; type: 'payout.status_changed'; created_at: string; data: PayoutRecord }
  | { id: string; type: 'appeal.status_changed'; created_at: string; data: AppealRecord };

/** A status change: its event, the object, and the transition that made it (`control` when forced). */
export interface StatusChange {
  event: StatusChangeEvent;
  kind: ObjectKind;
  object_id: string;
  from: AnyStatus;
  to: AnyStatus;
  trigger: Trigger | 'control';
}

/** What is kept for one Idempotency-Key (idempotency.ts). */
export interface IdempotencyRecord {
  fingerprint: string;
  /** When the record is forgotten, on the tenant's clock (ms): the retention after the answer; Infinity while in progress. */
  expires: number;
  /** The first answer, frozen (its body shares the record version it returned); absent while still in progress. */
  answer?: Answer;
  /**
   * While in progress: until when its holder is taken to be alive, on the wall clock (ms since the epoch), not the
   * tenant's, which may stand still or jump; a record in progress past it was abandoned by a holder that died.
   */
  heldUntil?: number;
}

/** Where a tenant's events are sent. */
export interface WebhookEndpoint {
  id: string;
  url: string;
  /** The `whsec_…` secret deliveries to this endpoint are signed with; absent: the sandbox's own. */
  secret?: string;
  layout: WebhookLayout;
  created_at: string;
  /**
   * A listener (the control API's Connect Webhook Listener): its attempts travel on the WebSocket of the instance
   * holding it, never to `url`. `until` is its lease on the wall clock (ms), renewed while its client is connected.
   */
  listener?: { until: number };
}

/** How an attempt went: `ok` for a 2xx answer. */
export interface DeliveryOutcome {
  ok: boolean;
  status?: number;
  error?: string;
  /**
   * How long the receiver took to answer, in ms: measured by the sandbox from sending to the answer read, or by a
   * listener's client; absent when there was no answer.
   */
  duration_ms?: number;
}

/** One attempt of a delivery. */
export interface DeliveryAttempt {
  number: number;
  due_at: string;
  sent_at?: string;
  outcome?: DeliveryOutcome;
}

/**
 * One event on its way to one endpoint; `failed` once the schedule has run out, `abandoned` when its event left the
 * log before it ended (event-log.ts).
 */
export interface Delivery {
  id: string;
  event_id: string;
  endpoint_id: string;
  state: 'scheduled' | 'due' | 'delivered' | 'failed' | 'abandoned';
  attempts: DeliveryAttempt[];
  /** Position of the event among all the tenant made (event-log.ts: eventAt). */
  event_index: number;
  /** The change delivered (shared with the log, frozen), so that an attempt never needs the log. */
  change: StatusChange;
}

/** An attempt that is due now and waits to be sent. */
export interface DueAttempt {
  delivery_id: string;
  attempt: number;
  due_at: number;
  /** Once taken by a sender (leaseDue): the wall time (ms) after which, still unrecorded, it is taken again. */
  leased_until?: number;
}
