// The sandbox's domain objects: the contract's shapes, with the fields the contract leaves optional always set.
import type { components } from '../../../generated/types/variant-a.js';
import type { ReasonCode } from '../../types/shared.js';

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

/** Body of Confirm Payment. */
export type ConfirmPaymentBody = Schemas['ConfirmPaymentRequest'];

/** One page of a list: the contract's `{ data, pagination }`. */
export interface Page<T> {
  data: T[];
  pagination: Schemas['Pagination'];
}

/** The balance: the contract's `{ balances }`. */
export type BalanceBody = Schemas['Balance'];
