// The memory store: a Map of tenants in this process, the default (tests, CI, `npm start`). A tenant's transactions
// run one after another on a promise queue, so that a command never sees another one half done; different tenants'
// run side by side. `work` changes the state in place, so a transaction that throws keeps what it changed before the
// throw, as the core's commands always did in memory (they validate before they change anything). With open mode's
// bound, a tenant's last use is kept in a second Map in the order of use, so that forgetting the idle ones stops at
// the first tenant still in use.
import { hasDueWork } from '../core/advance.js';
import { clockNow } from '../core/clock.js';
import type { TenantState } from '../core/tenant.js';
import { createSerialQueues } from '@merchant-payments/contract/internal/shared/serial.js';
import { createMemoryBus } from './listener-bus.js';
import { createMemoryRegistry } from './memory-registry.js';
import { memoryTenant } from './memory-tenant.js';
import { secondsUntilForgotten, TenantLimitError } from './tenant-limit-error.js';
import { TenantRevokedError } from './tenant-revoked-error.js';
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
  const { bound, onEvicted } = settings;
  const wallNow = settings.now ?? Date.now;
  const tenants = new Map<string, TenantState>();
  // Note: only with a bound; a use moves the tenant to the end, so the least recently used comes first.
  const used = new Map<string, number>();
  const queues = createSerialQueues();
  const registry = createMemoryRegistry();

  /** Forgets the tenants unused for the idle time that no transaction holds; their ids. */
  const evict = (): string[] => {
    if (!bound) return [];
    const cutoff = wallNow() - bound.idleMs;
    const gone: string[] = [];
    for (const [id, at] of used) {
      if (at > cutoff) break;
      if (queues.busy(id)) continue;
      used.delete(id);
      tenants.delete(id);
      gone.push(id);
    }
    if (gone.length > 0) onEvicted?.(gone);
    return gone;
  };

  /** The tenant's state, made on first use (within the bound), and its use noted. */
  const tenant = (id: string) => {
    let state = tenants.get(id);
    if (!state) {
      // Note: as the postgres store, a registry's tenant that was revoked (or expired) is never made again.
      if (!registry.holdsLive(id, wallNow())) throw new TenantRevokedError(id);
      if (bound && tenants.size >= bound.max && (evict(), tenants.size >= bound.max)) {
        const oldest = used.values().next().value;
        throw new TenantLimitError(
          bound.max,
          bound.idleMs / 1000,
          secondsUntilForgotten(oldest, bound.idleMs, wallNow(), bound.idleMs / 1000),
        );
      }
      tenants.set(id, (state = memoryTenant(settings.newTenant(id))));
    }
    if (bound) {
      used.delete(id);
      used.set(id, wallNow());
    }
    return state;
  };
  const forget = (id: string) => {
    tenants.delete(id);
    used.delete(id);
  };
  return {
    listenerBus: createMemoryBus(),
    // Note: the tenant is looked up when the work runs, not when it is queued, so that a reset queued before is seen.
    transaction: (id, work) => queues.run(id, () => work(tenant(id))),
    // Note: the ticker's look is not a use; the due work it finds sends its deliveries in transactions, which are.
    tryTransaction: (id, work) =>
      queues.busy(id) || !tenants.has(id)
        ? Promise.resolve(undefined)
        : queues.run(id, () => ({ result: work(tenants.get(id) ?? tenant(id)) })),
    dueTenants: (wallNow) =>
      Promise.resolve(
        [...tenants]
          .filter(([, t]) => t.clock.mode === 'real' && hasDueWork(t, clockNow(t.clock, wallNow), wallNow))
          .map(([id]) => id),
      ),
    reset: (id) => queues.run(id, () => forget(id)),
    evictIdle: () => Promise.resolve(evict().length),
    tenantCount: () => Promise.resolve(tenants.size),
    close: () => Promise.resolve(),
    ready: () => Promise.resolve(),
    registry,
    tenantIds: () => [...tenants.keys()],
    entries: () => [...tenants],
  };
}
