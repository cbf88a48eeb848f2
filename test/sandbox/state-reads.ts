// What tests read of a tenant beyond what one command touches: its whole event log and every delivery, through the
// same pages the control API reads, so that a test reads them alike on every store.
import {
  collectionOf,
  OBJECT_KINDS,
  statusesOf,
  type Delivery,
  type ObjectKind,
  type StatusChange,
  type TenantState,
} from '../../packages/sandbox/src/core/index.js';

const ALL = { limit: Number.MAX_SAFE_INTEGER, offset: 0 };

/** The changes the tenant's event log keeps, oldest first. */
export const allEvents = (tenant: TenantState): StatusChange[] => tenant.events.page(ALL).items.reverse();

/** Every delivery the tenant keeps, in the order of their events. */
export const allDeliveries = (tenant: TenantState): Delivery[] => tenant.deliveries.page(ALL).items.reverse();

/**
 * What a tenant holds, as plain data read through the parts' interfaces, so that a tenant on one store compares with
 * the same tenant on another: the head, every object (oldest first) and the counts by status, the event log, every
 * delivery, and when the earliest timer is due. Read it in a transaction that writes nothing.
 */
export function tenantSummary(tenant: TenantState) {
  const { payments, payouts, appeals, plans, timers, idempotency, events, deliveries, ...head } = tenant;
  const objects = Object.fromEntries(
    OBJECT_KINDS.map((kind) => {
      const set = collectionOf(tenant, kind);
      const counts = Object.fromEntries(statusesOf(kind).map((status) => [status, set.count(status)]));
      return [kind, { all: set.page(ALL).reverse(), total: set.count(), counts }];
    }),
  ) as unknown as Record<ObjectKind, { all: { id: string }[]; total: number; counts: Record<string, number> }>;
  return structuredClone({
    head,
    objects,
    events: allEvents(tenant),
    deliveries: allDeliveries(tenant),
    earliestTimer: tenant.timers.earliest(),
  });
}
