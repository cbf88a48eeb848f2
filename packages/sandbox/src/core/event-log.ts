// A tenant's event log, bounded: it keeps the latest status changes, and the oldest leave it (with their deliveries)
// once it is full. Every change holds the whole record as it was, so an unbounded log would grow with every
// transition a long-running sandbox ever made. A delivery holds its own change, so the log never waits for one.
import type { TenantState } from './tenant.js';
import type { Delivery, StatusChange } from './types.js';

/** How many status changes a tenant's log keeps by default; far more than a test run makes. */
export const EVENT_LOG_LIMIT = 10_000;

// Note: a full log drops down to nine tenths of its limit, so that trimming costs O(1) per change on average and a
// store deletes the oldest tenth in one statement rather than one row with every change.
const kept = (tenant: TenantState) => Math.floor(tenant.eventLogLimit * 0.9);

/** How many changes the log holds. */
export const eventCount = (tenant: TenantState) => tenant.eventsMade - tenant.eventsDropped;

/** Appends a change to the log and returns its position, which stays its position after older changes leave. */
export function appendEvent(tenant: TenantState, change: StatusChange): number {
  const position = tenant.eventsMade;
  tenant.events.add(position, change);
  tenant.eventsMade += 1;
  if (eventCount(tenant) > tenant.eventLogLimit) dropOldest(tenant);
  if (eventCount(tenant) === kept(tenant)) retireDeliveries(tenant);
  return position;
}

/** The change at a position of appendEvent; undefined once it has left the log. */
export function eventAt(tenant: TenantState, position: number): StatusChange | undefined {
  return position < tenant.eventsDropped ? undefined : tenant.events.at(position);
}

/**
 * Whether an event or delivery id (`evt_…`, `dlv_…`) names one the log's retention has dropped: the tenant has dropped
 * changes, and the id is older than the oldest change it keeps.
 * Note: every id ends with the count of ids the tenant had drawn (ids.ts), and a change's deliveries are drawn right
 * after its event, so an id drawn before the oldest kept event belongs to a change that has left the log.
 */
export function droppedByRetention(tenant: TenantState, id: string): boolean {
  const drawn = /^(?:evt|dlv)_[0-9a-z]{8}([0-9a-z]{4,})$/.exec(id)?.[1];
  if (tenant.eventsDropped === 0 || drawn === undefined) return false;
  const oldest = eventAt(tenant, tenant.eventsDropped)?.event.id.slice('evt_'.length + 8);
  return parseInt(drawn, 36) < (oldest === undefined ? tenant.ids.count + 1 : parseInt(oldest, 36));
}

/**
 * Whether a delivery's change has left the log or leaves it at the next trim; such a delivery is not retried, so
 * that it is listed as `abandoned` for a while before it leaves with its change.
 */
export function retiring(tenant: TenantState, delivery: Delivery): boolean {
  const leavingNext = eventCount(tenant) >= kept(tenant) ? tenant.eventLogLimit + 1 - kept(tenant) : 0;
  return delivery.event_index < tenant.eventsDropped + leavingNext;
}

/** Ends a delivery that is still under way as `abandoned`; its attempt that was never made leaves the log. */
export function abandon(delivery: Delivery): void {
  delivery.attempts.pop();
  delivery.state = 'abandoned';
}

/** Drops the oldest changes down to nine tenths of the limit, with their deliveries. */
function dropOldest(tenant: TenantState): void {
  tenant.eventsDropped = tenant.eventsMade - kept(tenant);
  tenant.events.dropBefore(tenant.eventsDropped);
  const waiting = new Set(tenant.due.map((due) => due.delivery_id));
  for (const delivery of [...tenant.deliveries.before(tenant.eventsDropped)]) {
    // Note: an attempt the sender has taken ends in recordAttempt, which cannot lose its delivery; a later trim takes it.
    if (delivery.state === 'due' && !waiting.has(delivery.id)) continue;
    tenant.deliveries.delete(delivery.id);
  }
}

/**
 * Abandons the deliveries still under way (scheduled, or due and not yet taken by the sender) of the changes that the
 * next trim drops, and takes their timers and waiting attempts away, so that neither outlives the log.
 */
function retireDeliveries(tenant: TenantState): void {
  const waiting = new Set(tenant.due.map((due) => due.delivery_id));
  const leavingNext = tenant.eventLogLimit + 1 - kept(tenant);
  const abandoned: string[] = [];
  for (const delivery of [...tenant.deliveries.before(tenant.eventsDropped + leavingNext)]) {
    if (delivery.state === 'scheduled' || (delivery.state === 'due' && waiting.has(delivery.id))) {
      abandon(delivery);
      tenant.deliveries.set(delivery.id, delivery);
      abandoned.push(delivery.id);
    }
  }
  tenant.due = tenant.due.filter((due) => tenant.deliveries.get(due.delivery_id)?.state === 'due');
  if (abandoned.length > 0) tenant.timers.removeAttempts(abandoned);
}
