// The one place an object's status changes: fields, indexes, balance, event log and outbox move together.
import { contribution, overdraws, rebook } from './balance.js';
import { iso } from './clock.js';
import { reindex } from './collection.js';
import { applyEffects } from './effects.js';
import { EVENT_TYPES, type StatusChange, type StatusChangeEvent } from './events.js';
import { nextId } from './ids.js';
import type { Trigger } from './lifecycle.js';
import { enqueueDeliveries } from './outbox.js';
import { collectionOf, type TenantState } from './tenant.js';
import type { AnyRecord, AnyStatus, ObjectKind, PaymentRecord } from './types.js';
import type { ReasonCode } from '../../types/shared.js';

/** A transition worked out but not yet made. */
export interface PreparedTransition {
  kind: ObjectKind;
  before: AnyRecord;
  after: AnyRecord;
  /** Whether making it would take the available balance below zero. */
  overdraws: boolean;
}

/** Works out the object after moving to `to` (setting `reason_code` on a payment) at `at`, without changing anything. */
export function prepareTransition(tenant: TenantState, kind: ObjectKind, record: AnyRecord, to: AnyStatus, reasonCode: ReasonCode, at: number): PreparedTransition {
  const after = structuredClone(record);
  after.status = to;
  if (kind === 'payment') (after as PaymentRecord).reason_code = reasonCode;
  after.updated_at = iso(at);
  applyEffects(kind, after);
  return { kind, before: record, after, overdraws: overdraws(tenant, contribution(kind, record), contribution(kind, after)) };
}

/** Makes a prepared transition and emits its event; anything but the object's own processing ends its plan. */
export function commitTransition(tenant: TenantState, prepared: PreparedTransition, trigger: Trigger | 'control', at: number): StatusChange {
  const { kind, before, after } = prepared;
  const collection = collectionOf(tenant, kind);
  collection.byId.set(after.id, after as never);
  reindex(collection, after, before.status);
  rebook(tenant, contribution(kind, before), contribution(kind, after));
  if (trigger !== 'clock:processing') tenant.plans.delete(`${kind}:${after.id}`);
  const event = { id: nextId(tenant.ids, 'evt'), type: EVENT_TYPES[kind], created_at: iso(at), data: structuredClone(after) } as StatusChangeEvent;
  const change: StatusChange = { event, kind, object_id: after.id, from: before.status, to: after.status, trigger };
  tenant.events.push(change);
  enqueueDeliveries(tenant, change, tenant.events.length - 1, at);
  return change;
}
