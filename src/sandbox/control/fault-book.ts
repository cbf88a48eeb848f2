// The faults waiting per tenant: the next `count` requests to an operation fail. Kept beside the store, not in it,
// because a faulted request must change nothing in the tenant's state; a reset forgets them with the tenant.
import type * as SandboxControl from '../control-types.js';

/** A fault as the control document shows it. */
export type Fault = SandboxControl.Fault;

/** The faults a tenant may hold at once (FaultListResponse). */
export const MAX_FAULTS = 100;

/** Every tenant's faults, oldest first. */
export interface FaultBook {
  /** Adds a fault; false when the tenant already holds MAX_FAULTS. */
  add(tenant: string, fault: Fault): boolean;
  /** The tenant's faults, oldest first (copies). */
  list(tenant: string): Fault[];
  /** Forgets the tenant's faults. */
  clear(tenant: string): void;
  /** Takes one request's worth of the oldest fault on the operation: a copy as it was, or undefined if none. */
  take(tenant: string, operationId: string): Fault | undefined;
}

/** An empty fault book; only tenants with faults have an entry, so it holds at most MAX_FAULTS per such tenant. */
export function createFaultBook(): FaultBook {
  const faults = new Map<string, Fault[]>();
  return {
    add(tenant, fault) {
      const held = faults.get(tenant) ?? [];
      if (held.length >= MAX_FAULTS) return false;
      faults.set(tenant, [...held, { ...fault }]);
      return true;
    },
    list: (tenant) => (faults.get(tenant) ?? []).map((fault) => ({ ...fault })),
    clear: (tenant) => void faults.delete(tenant),
    take(tenant, operationId) {
      const held = faults.get(tenant);
      const fault = held?.find((f) => f.operation_id === operationId);
      if (!held || !fault) return undefined;
      const taken = { ...fault };
      fault.remaining -= 1;
      if (fault.remaining === 0) {
        const left = held.filter((f) => f !== fault);
        if (left.length > 0) faults.set(tenant, left);
        else faults.delete(tenant);
      }
      return taken;
    },
  };
}
