// The sandbox's objects as the contract describes them (its shapes, with the fields the contract leaves optional always
// set) and what may move them: the model that the sandbox runs and the conformance kit checks a server against.
import type { TRIGGERS } from '../../generated/sandbox/lifecycles.js';
import type { components } from '../../generated/types/variant-a.js';
import type { ReasonCode } from '../types/shared.js';

type Schemas = components['schemas'];
type Money = Schemas['Money'];

/** The kinds of object that have a lifecycle. */
export type ObjectKind = 'payment' | 'payout' | 'appeal';

/** A payment as the sandbox keeps it: the list shape plus `reason_code`, every money field set. */
export type PaymentRecord = Omit<Schemas['PaymentWithReason'], 'initialized' | 'processed' | 'refunded'> & {
  initialized: Money;
  processed: Money;
  refunded: Money;
  reason_code: ReasonCode;
};

/** A payout as the sandbox keeps it, `processed` always set. */
export type PayoutRecord = Schemas['Payout'] & { processed: Money };

/** An appeal as the sandbox keeps it, `resolved` always set. */
export type AppealRecord = Schemas['Appeal'] & { resolved: Money };

/** The record type of each kind. */
export interface RecordOf {
  payment: PaymentRecord;
  payout: PayoutRecord;
  appeal: AppealRecord;
}

/** The create-request body of each kind, kept beside the record (the earlier webhook layout sends it). */
export interface RequestOf {
  payment: Schemas['CreatePaymentRequest'];
  payout: Schemas['CreatePayoutRequest'];
  appeal: Schemas['CreateAppealRequest'];
}

/** Any record. */
export type AnyRecord = RecordOf[ObjectKind];

/** A status of any kind. */
export type AnyStatus = AnyRecord['status'];

/** What may move an object, as the contract lists it. */
export type Trigger = (typeof TRIGGERS)[number];
