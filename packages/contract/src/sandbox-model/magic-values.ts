// The catalogue of magic values: documented request values that choose how an object's processing goes.
import { sameAmount } from './money.js';
import { DEFAULT_OUTCOMES, type OutcomeName } from './outcomes.js';
import type { ObjectKind, RequestOf } from './types.js';

/** One magic value: when the request's `field` equals `value`, the object takes `outcome`. */
export interface MagicValue<K extends ObjectKind = ObjectKind> {
  kind: K;
  field: 'amount' | 'requisite.bank' | 'requisite.card_holder';
  value: string;
  outcome: OutcomeName<K>;
  summary: string;
}

const m = <K extends ObjectKind>(
  kind: K,
  field: MagicValue['field'],
  value: string,
  outcome: OutcomeName<K>,
  summary: string,
): MagicValue => ({ kind, field, value, outcome, summary }) as MagicValue;

/**
 * Every magic value, in the order they are tried: a requisite value before an amount, so that a test can pick an
 * outcome whatever amount it needs. Amounts compare as numbers (`9.01` = `9.010`), requisite values exactly.
 */
export const MAGIC_VALUES: readonly MagicValue[] = [
  m('payment', 'requisite.bank', 'SANDBOX DECLINED', 'fail_declined', 'pending, then failed with reason_code declined'),
  m(
    'payment',
    'requisite.bank',
    'SANDBOX AMOUNT MISMATCH',
    'fail_amount_mismatch',
    'pending, then failed with reason_code amount_mismatch',
  ),
  m(
    'payment',
    'requisite.bank',
    'SANDBOX PROVIDER ERROR',
    'fail_provider_error',
    'pending, then failed with reason_code provider_error',
  ),
  m(
    'payment',
    'requisite.bank',
    'SANDBOX REQUISITES UNAVAILABLE',
    'fail_requisites_unavailable',
    'pending, then failed with reason_code requisites_unavailable',
  ),
  m('payment', 'requisite.bank', 'SANDBOX PENDING', 'stay_pending', 'pending until confirmed, canceled or expired'),
  m(
    'payment',
    'requisite.bank',
    'SANDBOX EXPIRE',
    'expire',
    'stays created until expires_at, then expired with reason_code payment_timeout',
  ),
  m('payment', 'amount', '9.01', 'fail_declined', 'pending, then failed with reason_code declined'),
  m('payment', 'amount', '9.02', 'fail_amount_mismatch', 'pending, then failed with reason_code amount_mismatch'),
  m('payment', 'amount', '9.03', 'fail_provider_error', 'pending, then failed with reason_code provider_error'),
  m(
    'payment',
    'amount',
    '9.04',
    'fail_requisites_unavailable',
    'pending, then failed with reason_code requisites_unavailable',
  ),
  m('payment', 'amount', '9.05', 'stay_pending', 'pending until confirmed, canceled or expired'),
  m(
    'payment',
    'amount',
    '9.06',
    'expire',
    'stays created until expires_at, then expired with reason_code payment_timeout',
  ),
  m('payout', 'requisite.card_holder', 'SANDBOX FAILED', 'fail', 'pending, processing, then failed'),
  m('payout', 'requisite.card_holder', 'SANDBOX PENDING', 'stay_pending', 'pending until canceled or expired'),
  m('payout', 'requisite.card_holder', 'SANDBOX EXPIRE', 'expire', 'stays created until expires_at, then expired'),
  m('payout', 'amount', '9.01', 'fail', 'pending, processing, then failed'),
  m('payout', 'amount', '9.05', 'stay_pending', 'pending until canceled or expired'),
  m('payout', 'amount', '9.06', 'expire', 'stays created until expires_at, then expired'),
  m('appeal', 'amount', '9.01', 'reject', 'under_review, then rejected'),
  m('appeal', 'amount', '9.05', 'stay_pending', 'pending until canceled'),
  m('appeal', 'amount', '9.07', 'stay_under_review', 'under_review until canceled'),
];

/** The value of a catalogue field in a create request, if the request has it. */
function valueOf(request: RequestOf[ObjectKind], field: MagicValue['field']): string | undefined {
  if (field === 'amount') return request.amount;
  const requisite = 'requisite' in request ? (request.requisite as Record<string, unknown>) : undefined;
  const value = requisite?.[field.slice('requisite.'.length)];
  return typeof value === 'string' ? value : undefined;
}

/** The outcome a create request asks for: the first magic value it carries, else the kind's default. */
export function outcomeFor<K extends ObjectKind>(kind: K, request: RequestOf[K]): OutcomeName<K> {
  for (const magic of MAGIC_VALUES) {
    if (magic.kind !== kind) continue;
    const value = valueOf(request, magic.field);
    if (value === undefined) continue;
    if (magic.field === 'amount' ? sameAmount(value, magic.value) : value === magic.value) return magic.outcome;
  }
  return DEFAULT_OUTCOMES[kind];
}
