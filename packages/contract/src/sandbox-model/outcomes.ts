// The ways an object's own processing can go: each is a path of `clock:processing` rows of the contract's table.
import type { ReasonCode } from '../types/shared.js';
import type { AnyStatus, ObjectKind } from './types.js';

/** One step of a path: the status reached next and the reason_code it sets. */
export interface Step {
  to: AnyStatus;
  reason_code: ReasonCode;
}

const step = (to: AnyStatus, reason_code: ReasonCode = null): Step => ({ to, reason_code });
const failPayment = (reason: ReasonCode): Step[] => [step('pending'), step('failed', reason)];

/** Every outcome of each kind, by name. An empty path leaves the object as created, until it expires. */
export const OUTCOMES = {
  payment: {
    succeed: [step('pending'), step('succeeded')],
    fail_declined: failPayment('declined'),
    fail_amount_mismatch: failPayment('amount_mismatch'),
    fail_provider_error: failPayment('provider_error'),
    fail_requisites_unavailable: failPayment('requisites_unavailable'),
    stay_pending: [step('pending')],
    expire: [],
  },
  payout: {
    succeed: [step('pending'), step('processing'), step('succeeded')],
    fail: [step('pending'), step('processing'), step('failed')],
    stay_pending: [step('pending')],
    expire: [],
  },
  appeal: {
    accept: [step('under_review'), step('accepted')],
    reject: [step('under_review'), step('rejected')],
    stay_pending: [],
    stay_under_review: [step('under_review')],
  },
} as const satisfies Record<ObjectKind, Record<string, readonly Step[]>>;

/** The name of an outcome of kind K. */
export type OutcomeName<K extends ObjectKind> = keyof (typeof OUTCOMES)[K] & string;

/** What happens when no magic value matches. */
export const DEFAULT_OUTCOMES: { [K in ObjectKind]: OutcomeName<K> } = {
  payment: 'succeed',
  payout: 'succeed',
  appeal: 'accept',
};

/** Seconds of the tenant's clock from the previous step (or creation) to reaching each status. */
export const STEP_DELAY_SECONDS: Record<ObjectKind, Partial<Record<AnyStatus, number>>> = {
  payment: { pending: 2, succeeded: 5, failed: 5 },
  payout: { pending: 2, processing: 3, succeeded: 5, failed: 5 },
  appeal: { under_review: 5, accepted: 10, rejected: 10 },
};

/** The path of an outcome. */
export function pathOf(kind: ObjectKind, outcome: string): readonly Step[] {
  const path = (OUTCOMES[kind] as Record<string, readonly Step[]>)[outcome];
  if (!path) throw new RangeError(`No ${kind} outcome named ${outcome}`);
  return path;
}
