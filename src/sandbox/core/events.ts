// The events the core emits: one `onStatusChange`-shaped event per status change, with what caused it beside it.
import type { Trigger } from './lifecycle.js';
import type { AnyStatus, AppealRecord, ObjectKind, PaymentRecord, PayoutRecord } from './types.js';

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

/** The event `type` of each kind. */
export const EVENT_TYPES = {
  payment: 'payment.status_changed',
  payout: 'payout.status_changed',
  appeal: 'appeal.status_changed',
} as const satisfies Record<ObjectKind, StatusChangeEvent['type']>;
