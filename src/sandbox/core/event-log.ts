// A tenant's event log, bounded: it keeps the latest status changes, and the oldest leave it (with their finished
// deliveries) once it is full. Every change holds the whole record as it was, so an unbounded log would grow with
// every transition a long-running sandbox ever made: at 100,000 payments through their lifecycles it was a quarter
// of the heap.
import type { StatusChange } from './events.js';
import type { TenantState } from './tenant.js';

/** How many status changes a tenant's log keeps by default; far more than a test run makes. */
export const EVENT_LOG_LIMIT = 10_000;

/** Appends a change to the log and returns its position, which stays its position after older changes leave. */
export function appendEvent(tenant: TenantState, change: StatusChange): number {
  tenant.events.push(change);
  const position = tenant.eventsDropped + tenant.events.length - 1;
  trimEvents(tenant);
  return position;
}

/** The change at a position of appendEvent; undefined once it has left the log. */
export function eventAt(tenant: TenantState, position: number): StatusChange | undefined {
  return tenant.events[position - tenant.eventsDropped];
}

/**
 * When the log is over its limit, drops its oldest changes down to nine tenths of the limit (so that trimming costs
 * O(1) per change on average), with their deliveries. A change whose delivery is still scheduled or due stays, with
 * every change after it, since an attempt must be able to send its event; the outbox calls this again when a delivery
 * ends, so the log is over its limit only while deliveries are under way.
 */
export function trimEvents(tenant: TenantState): void {
  if (tenant.events.length <= tenant.eventLogLimit) return;
  let drop = tenant.events.length - Math.floor(tenant.eventLogLimit * 0.9);
  // Note: deliveries are made in the order of their events, so the Map's first entries belong to the oldest changes.
  for (const [id, delivery] of tenant.deliveries) {
    const index = delivery.event_index - tenant.eventsDropped;
    if (index >= drop) break;
    if (delivery.state === 'scheduled' || delivery.state === 'due') {
      drop = index;
      break;
    }
    tenant.deliveries.delete(id);
  }
  if (drop <= 0) return;
  tenant.events.splice(0, drop);
  tenant.eventsDropped += drop;
}
