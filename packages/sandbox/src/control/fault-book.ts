// The faults waiting on a tenant: the next `count` requests to an operation fail. Kept in the tenant's head, so that
// every instance on a store honours a fault set through any of them, and a reset forgets them with the tenant.
import type { Fault, TenantHead } from '../core/index.js';

export type { Fault };

/** The faults a tenant may hold at once (FaultListResponse). */
export const MAX_FAULTS = 100;

/** Adds a fault, the newest; the caller keeps the tenant within MAX_FAULTS. */
export function addFault(tenant: TenantHead, fault: Fault): void {
  tenant.faults = [...tenant.faults, { ...fault }];
}

/** Takes one request's worth of the oldest fault on the operation: a copy as it was, or undefined if none. */
export function takeFault(tenant: TenantHead, operationId: string): Fault | undefined {
  const fault = tenant.faults.find((f) => f.operation_id === operationId);
  if (!fault) return undefined;
  const taken = { ...fault };
  tenant.faults = tenant.faults.flatMap((f) =>
    f !== fault ? [f] : f.remaining > 1 ? [{ ...f, remaining: f.remaining - 1 }] : [],
  );
  return taken;
}
