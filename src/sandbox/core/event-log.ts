// A tenant's event log, bounded: it keeps the latest status changes, and the oldest leave it (with their deliveries)
// once it is full. Every change holds the whole record as it was, so an unbounded log would grow with every
// transition a long-running sandbox ever made. A delivery holds its own change, so the log never waits for one.
import type { TenantState } from './tenant.js';
import type { Delivery, StatusChange } from './types.js';

/** How many status changes a tenant's log keeps by default; far more than a test run makes. */
export const EVENT_LOG_LIMIT = 10_000;

// Note: a full log drops down to nine tenths of its limit, so that trimming costs O(1) per change on average.
const kept = (tenant: TenantState) => Math.floor(tenant.eventLogLimit * 0.9);

/** Appends a change to the log and returns its position, which stays its position after older changes leave. */
export function appendEvent(tenant: TenantState, change: StatusChange): number {
  tenant.events.push(change);
  const position = tenant.eventsDropped + tenant.events.length - 1;
  if (tenant.events.length > tenant.eventLogLimit) dropOldest(tenant);
  if (tenant.events.length === kept(tenant)) retireDeliveries(tenant);
  return position;
}

/** The change at a position of appendEvent; undefined once it has left the log. */
export function eventAt(tenant: TenantState, position: number): StatusChange | undefined {
  return tenant.events[position - tenant.eventsDropped];
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
  const oldest = tenant.events[0]?.event.id.slice('evt_'.length + 8);
  return parseInt(drawn, 36) < (oldest === undefined ? tenant.ids.count + 1 : parseInt(oldest, 36));
}

/**
 * Whether a delivery's change has left the log or leaves it at the next trim; such a delivery is not retried, so
 * that it is listed as `abandoned` for a while before it leaves with its change.
 */
export function retiring(tenant: TenantState, delivery: Delivery): boolean {
  const leavingNext = tenant.events.length >= kept(tenant) ? tenant.eventLogLimit + 1 - kept(tenant) : 0;
  return delivery.event_index < tenant.eventsDropped + leavingNext;
}

/** Ends a delivery that is still under way as `abandoned`; its attempt that was never made leaves the log. */
export function abandon(delivery: Delivery): void {
  delivery.attempts.pop();
  delivery.state = 'abandoned';
}

/** Drops the oldest changes down to nine tenths of the limit, with their deliveries. */
function dropOldest(tenant: TenantState): void {
  const drop = tenant.events.length - kept(tenant);
  tenant.events.splice(0, drop);
  tenant.eventsDropped += drop;
  const waiting = new Set(tenant.due.map((due) => due.delivery_id));
  // Note: deliveries are made in the order of their events, so the Map's first entries belong to the oldest changes.
  for (const [id, delivery] of tenant.deliveries) {
    if (delivery.event_index >= tenant.eventsDropped) break;
    // Note: an attempt the sender has taken ends in recordAttempt, which cannot lose its delivery; a later trim takes it.
    if (delivery.state === 'due' && !waiting.has(id)) continue;
    tenant.deliveries.delete(id);
  }
}

/**
 * Abandons the deliveries still under way (scheduled, or due and not yet taken by the sender) of the changes that the
 * next trim drops, and takes their timers and waiting attempts away, so that neither outlives the log.
 */
function retireDeliveries(tenant: TenantState): void {
  const waiting = new Set(tenant.due.map((due) => due.delivery_id));
  for (const delivery of tenant.deliveries.values()) {
    if (!retiring(tenant, delivery)) break;
    if (delivery.state === 'scheduled' || (delivery.state === 'due' && waiting.has(delivery.id))) abandon(delivery);
  }
  tenant.due = tenant.due.filter((due) => tenant.deliveries.get(due.delivery_id)?.state === 'due');
  // Note: this also sweeps the timers that fireAttempt would ignore (a redelivery supersedes the scheduled attempt).
  tenant.timers = tenant.timers.filter((timer) => {
    if (timer.type !== 'attempt') return true;
    const delivery = tenant.deliveries.get(timer.delivery);
    return delivery?.state === 'scheduled' && delivery.attempts.at(-1)?.number === timer.attempt;
  });
}
