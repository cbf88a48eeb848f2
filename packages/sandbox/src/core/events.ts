// The events the core emits: one `onStatusChange`-shaped event per status change, with what caused it beside it.
import type { ObjectKind, StatusChangeEvent } from './types.js';

/** The event `type` of each kind. */
export const EVENT_TYPES = {
  payment: 'payment.status_changed',
  payout: 'payout.status_changed',
  appeal: 'appeal.status_changed',
} as const satisfies Record<ObjectKind, StatusChangeEvent['type']>;
