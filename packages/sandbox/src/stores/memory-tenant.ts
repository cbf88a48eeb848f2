// A tenant's parts in this process: Maps and arrays, as the memory store and the core's tests keep them. A page
// filters and slices, which is fast enough at the memory store's scale (`npm run bench`, docs/benchmarks.md).
import { createHead, type TenantHead, type TenantSettings, type TenantState } from '../core/tenant.js';
import { runsBefore, type Timer } from '../core/timers.js';
import type { AnyStatus, Delivery, IdempotencyRecord, StatusChange } from '../core/types.js';
import type { Step } from '@merchant-payments/contract/internal/sandbox-model/outcomes.js';

type Identified = { id: string; status: AnyStatus };

/** One kind's objects in creation order (replacing a record keeps its place), with counts by status. */
class MemoryObjects<R extends Identified, Q> {
  readonly byId = new Map<string, R>();
  readonly requests = new Map<string, Q>();
  readonly counts = new Map<AnyStatus, number>();
  get(id: string) {
    return this.byId.get(id);
  }
  request(id: string) {
    return this.requests.get(id);
  }
  count(status?: AnyStatus) {
    return status === undefined ? this.byId.size : (this.counts.get(status) ?? 0);
  }
  insert(record: R, request: Q) {
    this.byId.set(record.id, record);
    this.requests.set(record.id, request);
    this.counts.set(record.status, this.count(record.status) + 1);
  }
  replace(record: R) {
    const before = this.byId.get(record.id);
    if (before) this.counts.set(before.status, this.count(before.status) - 1);
    this.counts.set(record.status, this.count(record.status) + 1);
    this.byId.set(record.id, record);
  }
  page({ status, limit, offset }: { status?: AnyStatus | undefined; limit: number; offset: number }): R[] {
    const all = [...this.byId.values()];
    const matching = status === undefined ? all : all.filter((record) => record.status === status);
    const end = Math.max(0, matching.length - offset);
    return matching.slice(Math.max(0, end - limit), end).reverse();
  }
}

/** Timers in an array kept sorted with the earliest last, so that taking it is pop(). */
class MemoryTimers {
  readonly list: Timer[] = [];
  push(timer: Timer) {
    // Note: a timer scheduled soon after the one that ran lands near the end; a binary search finds its place.
    let low = 0;
    let high = this.list.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (runsBefore(timer, this.list[middle]!)) low = middle + 1;
      else high = middle;
    }
    this.list.splice(low, 0, timer);
  }
  due(until: number) {
    const earliest = this.list.at(-1);
    return earliest && earliest.at <= until ? earliest : undefined;
  }
  remove(timer: Timer) {
    if (this.list.at(-1) === timer) this.list.pop();
    else this.list.splice(this.list.indexOf(timer), 1);
  }
  earliest() {
    return this.list.at(-1)?.at;
  }
  removeAttempts(deliveryIds: readonly string[]) {
    const gone = new Set(deliveryIds);
    const kept = this.list.filter((timer) => timer.type !== 'attempt' || !gone.has(timer.delivery));
    this.list.splice(0, this.list.length, ...kept);
  }
}

/** Idempotency-Key records; an answered record is moved to the end, so answered records are in expiry order. */
class MemoryIdempotency extends Map<string, IdempotencyRecord> {
  sweep(now: number) {
    // Note: the clock never goes back, so the first answered record not yet expired ends the sweep; records in
    // progress (a control call awaiting its advance) are passed over.
    for (const [key, record] of this) {
      if (!record.answer) continue;
      if (record.expires > now) break;
      this.delete(key);
    }
  }
}

/** The event log by position, oldest first. */
class MemoryEvents {
  readonly byPosition = new Map<number, StatusChange>();
  add(position: number, change: StatusChange) {
    this.byPosition.set(position, change);
  }
  at(position: number) {
    return this.byPosition.get(position);
  }
  dropBefore(position: number) {
    for (const kept of this.byPosition.keys()) {
      if (kept >= position) break;
      this.byPosition.delete(kept);
    }
  }
  page({ objectId, limit, offset }: { objectId?: string | undefined; limit: number; offset: number }) {
    const all = [...this.byPosition.values()];
    return newestFirst(
      objectId === undefined ? all : all.filter((change) => change.object_id === objectId),
      limit,
      offset,
    );
  }
}

/** Deliveries in the order of their events. */
class MemoryDeliveries extends Map<string, Delivery> {
  *before(eventIndex: number) {
    for (const delivery of this.values()) {
      if (delivery.event_index >= eventIndex) return;
      yield delivery;
    }
  }
  page({
    eventId,
    state,
    limit,
    offset,
  }: {
    eventId?: string;
    state?: Delivery['state'];
    limit: number;
    offset: number;
  }) {
    const all = [...this.values()];
    const matching =
      eventId === undefined && state === undefined
        ? all
        : all.filter(
            (d) => (eventId === undefined || d.event_id === eventId) && (state === undefined || d.state === state),
          );
    return newestFirst(matching, limit, offset);
  }
}

function newestFirst<T>(items: T[], limit: number, offset: number): { items: T[]; total: number } {
  const end = Math.max(0, items.length - offset);
  return { items: items.slice(Math.max(0, end - limit), end).reverse(), total: items.length };
}

/** A tenant whose parts live in this process, around `head`. */
export function memoryTenant(head: TenantHead): TenantState {
  return Object.assign(head, {
    payments: new MemoryObjects(),
    payouts: new MemoryObjects(),
    appeals: new MemoryObjects(),
    plans: new Map<string, Step[]>(),
    timers: new MemoryTimers(),
    idempotency: new MemoryIdempotency(),
    events: new MemoryEvents(),
    deliveries: new MemoryDeliveries(),
  }) as unknown as TenantState;
}

/** A new, empty tenant in this process. */
export const createMemoryTenant = (id: string, settings: TenantSettings): TenantState =>
  memoryTenant(createHead(id, settings));

/** The timers of a tenant made by memoryTenant, earliest last (what tests read besides the interface). */
export const memoryTimers = (tenant: TenantState): readonly Timer[] => (tenant.timers as MemoryTimers).list;

/** A deep copy of a tenant made by memoryTenant (the core tests' snapshots). */
export function copyMemoryTenant(tenant: TenantState): TenantState {
  const { payments, payouts, appeals, plans, timers, idempotency, events, deliveries, ...head } = tenant;
  const copy = memoryTenant(structuredClone(head));
  const parts = { payments, payouts, appeals, plans, timers, idempotency, events, deliveries };
  // Note: each part's own fields are plain Maps and arrays, which structuredClone copies; the classes stay those of the copy.
  for (const [name, part] of Object.entries(parts)) {
    const target = (copy as unknown as Record<string, object>)[name]!;
    if (part instanceof Map)
      for (const [key, value] of structuredClone([...part])) (target as Map<unknown, unknown>).set(key, value);
    else Object.assign(target, structuredClone({ ...part }));
  }
  return copy;
}
