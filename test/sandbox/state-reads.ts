// What tests read of a tenant beyond what one command touches: its whole event log and every delivery, through the
// same pages the control API reads, so that a test reads them alike on every store.
import type { Delivery, StatusChange, TenantState } from '../../src/sandbox/core/index.js';

const ALL = { limit: Number.MAX_SAFE_INTEGER, offset: 0 };

/** The changes the tenant's event log keeps, oldest first. */
export const allEvents = (tenant: TenantState): StatusChange[] => tenant.events.page(ALL).items.reverse();

/** Every delivery the tenant keeps, in the order of their events. */
export const allDeliveries = (tenant: TenantState): Delivery[] => tenant.deliveries.page(ALL).items.reverse();
