// The memory store: a Map of tenants in this process, the default (tests, CI, `npm start`). A tenant's transactions
// run one after another on a promise queue, so that a command never sees another one half done; different tenants'
// run side by side. `work` changes the state in place, so a transaction that throws keeps what it changed before the
// throw, as the core's commands always did in memory (they validate before they change anything).
import { hasDueWork } from '../core/advance.js';
import { clockNow } from '../core/clock.js';
import type { TenantState } from '../core/tenant.js';
import { createSerialQueues } from '../serial.js';
import { createMemoryRegistry } from './memory-registry.js';
import type { TenantStore, TenantStoreSettings } from './types.js';

/** The memory store, with what tests read besides the interface. */
export interface MemoryStore extends TenantStore {
  /** The ids of the tenants that exist. */
  tenantIds(): string[];
  /** The tenants as they are (not copies); read them outside any await. */
  entries(): [string, TenantState][];
}

/** A new, empty memory store. */
export function createMemoryStore(settings: TenantStoreSettings): MemoryStore {
  const tenants = new Map<string, TenantState>();
  const tenant = (id: string) => {
    let state = tenants.get(id);
    if (!state) tenants.set(id, (state = settings.newTenant(id)));
    return state;
  };
  const queues = createSerialQueues();
  return {
    // Note: the tenant is looked up when the work runs, not when it is queued, so that a reset queued before is seen.
    transaction: (id, work) => queues.run(id, () => work(tenant(id))),
    tryTransaction: (id, work) => (queues.busy(id) || !tenants.has(id) ? Promise.resolve(undefined) : queues.run(id, () => ({ result: work(tenant(id)) }))),
    dueTenants: (wallNow) =>
      Promise.resolve([...tenants].filter(([, t]) => t.clock.mode === 'real' && hasDueWork(t, clockNow(t.clock, wallNow), wallNow)).map(([id]) => id)),
    reset: (id) => queues.run(id, () => void tenants.delete(id)),
    close: () => Promise.resolve(),
    ready: () => Promise.resolve(),
    registry: createMemoryRegistry(),
    tenantIds: () => [...tenants.keys()],
    entries: () => [...tenants],
  };
}
