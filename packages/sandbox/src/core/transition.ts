// The one place an object's status changes: fields, balance, event log and outbox move together.
import { contribution, overdraws, rebook, type Contribution } from './balance.js';
import { iso } from './clock.js';
import { applyEffects } from './effects.js';
import { appendEvent } from './event-log.js';
import { EVENT_TYPES } from './events.js';
import { nextId } from './ids.js';
import { deepFreeze } from './freeze.js';
import { enqueueDeliveries } from './outbox.js';
import { collectionOf, type TenantState } from './tenant.js';
import type {
  AnyRecord,
  AnyStatus,
  ObjectKind,
  PaymentRecord,
  StatusChange,
  StatusChangeEvent,
  Trigger,
} from './types.js';
import type { ReasonCode } from '@merchant-payments/contract/internal/types/shared.js';

/** A transition worked out but not yet made. */
export interface PreparedTransition {
  kind: ObjectKind;
  before: AnyRecord;
  after: AnyRecord;
  /** What each version contributes to the balance. */
  contributions: [Contribution | undefined, Contribution | undefined];
  /** Whether making it would take the available balance below zero. */
  overdraws: boolean;
}

/** Works out the object after moving to `to` (setting `reason_code` on a payment) at `at`, without changing anything. */
export function prepareTransition(
  tenant: TenantState,
  kind: ObjectKind,
  record: AnyRecord,
  to: AnyStatus,
  reasonCode: ReasonCode,
  at: number,
): PreparedTransition {
  // Note: a shallow copy is enough: nested objects are frozen, and effects replace them rather than change them.
  const after = { ...record };
  after.status = to;
  if (kind === 'payment') (after as PaymentRecord).reason_code = reasonCode;
  after.updated_at = iso(at);
  applyEffects(kind, after);
  const contributions: PreparedTransition['contributions'] = [contribution(kind, record), contribution(kind, after)];
  return { kind, before: record, after, contributions, overdraws: overdraws(tenant, ...contributions) };
}

/** Makes a prepared transition and emits its event; anything but the object's own processing ends its plan. */
export function commitTransition(
  tenant: TenantState,
  prepared: PreparedTransition,
  trigger: Trigger | 'control',
  at: number,
): StatusChange {
  const { kind, before, after } = prepared;
  collectionOf(tenant, kind).replace(deepFreeze(after));
  rebook(tenant, ...prepared.contributions);
  if (trigger !== 'clock:processing') tenant.plans.delete(`${kind}:${after.id}`);
  // Note: a record is never changed once stored (a transition stores a new one), so the event can share it.
  const event = {
    id: nextId(tenant.ids, 'evt'),
    type: EVENT_TYPES[kind],
    created_at: iso(at),
    data: after,
  } as StatusChangeEvent;
  const change: StatusChange = { event, kind, object_id: after.id, from: before.status, to: after.status, trigger };
  enqueueDeliveries(tenant, change, appendEvent(tenant, change), at);
  return change;
}
