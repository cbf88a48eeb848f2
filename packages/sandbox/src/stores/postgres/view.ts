// A tenant as one command sees it on the postgres store: its head, decoded from its row, and its parts answered from
// what was read, with every write recorded rather than made. A read not yet made throws Miss, naming it: the store
// reads it (with everything missed before, in one round trip) and runs the command again from the start, which the
// core allows, since a command only reads and writes the tenant. A page asked for after the command has written
// (a list after the due work that ran first) throws Flush: the store commits what was written, then runs it again.
import type { Step } from '@merchant-payments/contract/internal/sandbox-model/outcomes.js';
import type {
  DeliverySet,
  EventLog,
  IdempotencyBook,
  Keyed,
  ObjectSet,
  TenantHead,
  TenantState,
  TimerQueue,
} from '../../core/tenant.js';
import { runsBefore, type Timer } from '../../core/timers.js';
import type {
  AnyStatus,
  Delivery,
  IdempotencyRecord,
  ObjectKind,
  RecordOf,
  RequestOf,
  StatusChange,
} from '../../core/types.js';
import { deepFreeze } from '../../core/freeze.js';
import type { Counts } from './head.js';
import { readKey, splitScope, type DueTimers, type Positioned, type Read, type TimerRows } from './sql/reads.js';

/** Thrown by a part that needs rows not read yet. */
export class Miss extends Error {
  constructor(readonly reads: Read[]) {
    super('The command needs rows that were not read yet.');
  }
}

/** Thrown by a page asked for after the command wrote: what it wrote is committed first. */
export class Flush extends Error {
  constructor() {
    super("A page is read once the command's writes before it are committed.");
  }
}

/** What was read, by readKey; an answer of null means nothing matched. */
export type ReadCache = Map<string, unknown>;

/** Stores a read's answer; the timers read's answer also answers the reads of the rows its timers name. */
export function remember(cache: ReadCache, read: Read, answer: unknown): void {
  if (read.read !== 'timers') {
    cache.set(readKey(read), answer);
    return;
  }
  const rows = answer as TimerRows;
  for (const [timer, record, steps, position, delivery] of rows.due) {
    if (timer.type === 'attempt') {
      if (delivery !== null)
        cache.set(readKey({ read: 'delivery', id: timer.delivery }), { position, value: delivery });
    } else {
      cache.set(readKey({ read: 'object', kind: timer.kind, id: timer.id }), record);
      cache.set(readKey({ read: 'plan', key: `${timer.kind}:${timer.id}` }), steps);
    }
  }
  const known: DueTimers = { until: rows.until, due: rows.due.map(([timer]) => timer), after: rows.after };
  cache.set(readKey(read), known);
}

/** One object as written: new (with its request, position and ordinal) or a new version of one read. */
export interface ObjectWrite {
  kind: ObjectKind;
  record: { id: string; status: AnyStatus };
  request?: unknown;
  position?: number;
  /** A new object's number among the tenant's objects of its kind (the migration 1805000000000 says why). */
  ordinal?: number;
}

/** A delivery as written: `position` for a new one. */
export interface DeliveryWrite {
  delivery: Delivery;
  position?: number;
}

/** Everything a command wrote, by key; null deletes. */
export interface Writes {
  objects: Map<string, ObjectWrite>;
  /** `kind\u0000status` → change of the count. */
  counts: Map<string, number>;
  plans: Map<string, Step[] | null>;
  timersAdded: Map<number, Timer>;
  timersRemoved: Set<number>;
  /** By the core's scope (`operation\u0000key`). */
  keys: Map<string, IdempotencyRecord | null>;
  events: Map<number, StatusChange>;
  eventsDropBefore: number | undefined;
  deliveries: Map<string, DeliveryWrite | null>;
}

const emptyWrites = (): Writes => ({
  objects: new Map(),
  counts: new Map(),
  plans: new Map(),
  timersAdded: new Map(),
  timersRemoved: new Set(),
  keys: new Map(),
  events: new Map(),
  eventsDropBefore: undefined,
  deliveries: new Map(),
});

/** Whether a command wrote any row (its head aside). */
export const wroteRows = (w: Writes) =>
  w.objects.size +
    w.plans.size +
    w.timersAdded.size +
    w.timersRemoved.size +
    w.keys.size +
    w.events.size +
    w.deliveries.size >
    0 || w.eventsDropBefore !== undefined;

/** A tenant's view for one run of a command. */
export interface TenantView {
  state: TenantState;
  writes: Writes;
  /** When the tenant's earliest timer is due after the writes; may throw Miss. */
  earliest(): number | undefined;
}

const clone = <T>(value: T): T => structuredClone(value);

/** A view of `head` over the reads in `cache`. */
export function createView(head: TenantHead, counts: Counts, cache: ReadCache): TenantView {
  const writes = emptyWrites();
  const needs = (read: Read): unknown => {
    const key = readKey(read);
    if (!cache.has(key)) throw new Miss([read]);
    return cache.get(key) ?? undefined;
  };
  const readCount = new Map(counts.map(([kind, status, n]) => [`${kind}\u0000${status}`, Number(n)]));
  const anyWrites = () => wroteRows(writes);

  function objects<K extends ObjectKind>(kind: K): ObjectSet<RecordOf[K], RequestOf[K]> {
    type R = RecordOf[K];
    const key = (id: string) => `${kind}\u0000${id}`;
    const count = (status: AnyStatus, delta: number) => {
      const k = `${kind}\u0000${status}`;
      writes.counts.set(k, (writes.counts.get(k) ?? 0) + delta);
    };
    const total = (status?: AnyStatus) => {
      let n = 0;
      for (const [k, stored] of readCount)
        if (k.startsWith(`${kind}\u0000`) && (status === undefined || k === `${kind}\u0000${status}`)) n += stored;
      for (const [k, delta] of writes.counts)
        if (k.startsWith(`${kind}\u0000`) && (status === undefined || k === `${kind}\u0000${status}`)) n += delta;
      return n;
    };
    const get = (id: string): R | undefined => {
      const written = writes.objects.get(key(id));
      if (written) return written.record as R;
      const record = needs({ read: 'object', kind, id });
      return record === undefined ? undefined : deepFreeze(record as R);
    };
    return {
      get,
      insert(record, request) {
        count(record.status, 1);
        // Note: the tenant's writes are serialised (its row's lock, or its version), so the count read is the last ordinal.
        writes.objects.set(key(record.id), { kind, record, request, position: head.ids.count, ordinal: total() });
      },
      replace(record) {
        const before = get(record.id);
        if (!before) throw new Error(`${kind} ${record.id} is replaced without having been read or made`);
        const written = writes.objects.get(key(record.id));
        writes.objects.set(key(record.id), { ...written, kind, record });
        count(before.status, -1);
        count(record.status, 1);
      },
      request(id) {
        const written = writes.objects.get(key(id));
        if (written?.request !== undefined) return written.request as RequestOf[K];
        return needs({ read: 'request', kind, id }) as RequestOf[K] | undefined;
      },
      count: total,
      page({ status, limit, offset }) {
        if (anyWrites()) throw new Flush();
        const records = needs({ read: 'page', kind, status: status ?? null, limit, offset }) as R[];
        return records.map((record) => deepFreeze(record));
      },
    };
  }

  function keyed<V>(written: Map<string, V | null>, read: (key: string) => Read): Keyed<V> {
    return {
      // Note: what was read is copied, since a run may change it in place and the next run reads it again; what this
      // run wrote is its own.
      get(key) {
        if (written.has(key)) return written.get(key) ?? undefined;
        const value = needs(read(key));
        return value === undefined ? undefined : clone(value as V);
      },
      set: (key, value) => written.set(key, value),
      delete: (key) => written.set(key, null),
    };
  }

  const plans = keyed<Step[]>(writes.plans, (key) => ({ read: 'plan', key }));

  const keyRecords = keyed<IdempotencyRecord>(writes.keys, (scope) => ({ read: 'key', ...splitScope(scope) }));
  const idempotency: IdempotencyBook = {
    get(scope) {
      const record = keyRecords.get(scope);
      if (!record) return undefined;
      // Note: a column that is NULL reads as null; the core's records leave such fields out.
      if (record.heldUntil === null) delete record.heldUntil;
      // Note: json writes a float8 infinity (a key in progress expires never) as a string.
      record.expires = Number(record.expires);
      if (record.answer === null) delete record.answer;
      else if (record.answer !== undefined) deepFreeze(record.answer);
      return record;
    },
    set: keyRecords.set,
    delete: keyRecords.delete,
    // Note: the store's maintenance sweep deletes the records whose retention ran out, in batches.
    sweep() {},
  };

  const timers: TimerQueue = (() => {
    const added = writes.timersAdded;
    const removed = writes.timersRemoved;
    const known = (): DueTimers | undefined => {
      let best: DueTimers | undefined;
      for (const [key, value] of cache) {
        if (!key.startsWith('{"read":"timers"')) continue;
        const answer = value as DueTimers;
        if (!best || answer.until > best.until) best = answer;
      }
      return best;
    };
    // Note: every timer up to `known.until` was read, and `after` is the first one past it, so a question about a time
    // before `after` is answered from what was read; a later one reads further.
    const covered = (k: DueTimers | undefined, until: number): k is DueTimers =>
      k !== undefined && (until <= k.until || k.after === null || (k.after.at > until && !removed.has(k.after.seq)));
    const earliestOf = (candidates: Iterable<Timer>) => {
      let first: Timer | undefined;
      for (const timer of candidates)
        if (!removed.has(timer.seq) && (!first || runsBefore(timer, first))) first = timer;
      return first;
    };
    return {
      push: (timer) => void added.set(timer.seq, timer),
      due(until) {
        const k = known();
        if (!covered(k, until)) throw new Miss([{ read: 'timers', until }]);
        const first = earliestOf([...k.due, ...added.values()]);
        return first && first.at <= until ? first : undefined;
      },
      remove(timer) {
        if (!added.delete(timer.seq)) removed.add(timer.seq);
      },
      earliest() {
        const k = known();
        if (!k) throw new Miss([{ read: 'timers', until: head.time }]);
        if (k.after && removed.has(k.after.seq)) throw new Miss([{ read: 'timers', until: k.after.at }]);
        return earliestOf([...k.due, ...(k.after ? [k.after] : []), ...added.values()])?.at;
      },
      removeAttempts(deliveryIds) {
        const ids = new Set(deliveryIds);
        for (const timer of [...added.values()])
          if (timer.type === 'attempt' && ids.has(timer.delivery)) added.delete(timer.seq);
        const stored = needs({ read: 'attemptTimers', deliveries: [...ids].sort() }) as Timer[];
        for (const timer of stored) removed.add(timer.seq);
      },
    };
  })();

  const events: EventLog = {
    add: (position, change) => void writes.events.set(position, change),
    at(position) {
      if (writes.eventsDropBefore !== undefined && position < writes.eventsDropBefore) return undefined;
      return writes.events.get(position) ?? (needs({ read: 'event', position }) as StatusChange | undefined);
    },
    dropBefore(position) {
      writes.eventsDropBefore = Math.max(writes.eventsDropBefore ?? -Infinity, position);
      for (const kept of [...writes.events.keys()]) if (kept < position) writes.events.delete(kept);
    },
    page({ objectId, limit, offset }) {
      if (anyWrites()) throw new Flush();
      const answer = needs({ read: 'events', objectId: objectId ?? null, limit, offset }) as {
        items: StatusChange[];
        total: number | string;
      };
      // Note: the log's whole length is the head's; only one object's needs counting.
      const total = objectId === undefined ? head.eventsMade - head.eventsDropped : Number(answer.total);
      return { items: clone(answer.items), total };
    },
  };

  const deliveryRows = keyed<DeliveryWrite>(writes.deliveries, (id) => ({ read: 'delivery', id }));
  const deliveries: DeliverySet = {
    get(id) {
      // Note: a row read is `{ position, value }`; a row written, `{ delivery, position? }`.
      const row = deliveryRows.get(id) as Partial<Positioned<Delivery> & DeliveryWrite> | undefined;
      return row?.value ?? row?.delivery;
    },
    set(id, delivery) {
      // Note: a delivery the command neither read nor wrote before is new: the core only changes what it has read.
      const known = writes.deliveries.has(id) || cache.has(readKey({ read: 'delivery', id }));
      const position = known ? (writes.deliveries.get(id)?.position ?? undefined) : head.ids.count;
      writes.deliveries.set(id, { delivery, ...(position === undefined ? {} : { position }) });
    },
    delete: (id) => void writes.deliveries.set(id, null),
    *before(eventIndex) {
      const stored = needs({ read: 'deliveriesBefore', eventIndex }) as Positioned<Delivery>[];
      const rows = new Map(stored.map((row) => [row.value.id, row.position]));
      for (const [id, write] of writes.deliveries)
        if (write?.position !== undefined && write.delivery.event_index < eventIndex) rows.set(id, write.position);
      for (const row of stored) cache.set(readKey({ read: 'delivery', id: row.value.id }), row);
      for (const [id] of [...rows].sort((a, b) => a[1] - b[1])) {
        const delivery = deliveries.get(id);
        if (delivery) yield delivery;
      }
    },
    page({ eventId, state, limit, offset }) {
      if (anyWrites()) throw new Flush();
      const answer = needs({ read: 'deliveries', eventId: eventId ?? null, state: state ?? null, limit, offset }) as {
        items: Delivery[];
        total: number | string;
      };
      return { items: clone(answer.items), total: Number(answer.total) };
    },
  };

  const state = Object.assign(head, {
    payments: objects('payment'),
    payouts: objects('payout'),
    appeals: objects('appeal'),
    plans,
    timers,
    idempotency,
    events,
    deliveries,
  });
  return { state, writes, earliest: () => timers.earliest() };
}
