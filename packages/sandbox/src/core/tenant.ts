// A tenant as the core sees it: a head of small plain data (clock, ids, ledger, endpoints, faults, the outbox's queues)
// and the parts that grow with use (objects, plans, timers, Idempotency-Key records, the event log, deliveries)
// behind interfaces that name what a command touches. The memory store implements the parts with Maps and arrays
// (memory-parts.ts); the postgres store with rows it reads by key or index as a command asks for them.
import { createClock, type ClockMode, type TenantClock } from './clock.js';
import { createIdSource, type IdSource } from './ids.js';
import type { Step } from '@merchant-payments/contract/internal/sandbox-model/outcomes.js';
import type { Timer } from './timers.js';
import type {
  AnyStatus,
  Delivery,
  DueAttempt,
  IdempotencyRecord,
  ObjectKind,
  RecordOf,
  RequestOf,
  StatusChange,
  WebhookEndpoint,
} from './types.js';
import type * as SandboxControl from '@merchant-payments/contract/internal/sandbox-control/types.js';

/** Per-currency sums, in 1e-8 units, that the balance is read from. */
export interface LedgerEntry {
  available: bigint;
  pending: bigint;
}

/** How a new tenant starts. */
export interface TenantSettings {
  clock: ClockMode;
  /** When the tenant starts: the manual clock's first reading, or the wall clock's now; ms since the epoch. */
  start: number;
  seed: string;
  /** How many times faster than the contract's schedule webhook retries run on this tenant's clock. */
  retryCompression: number;
  /** How many status changes the event log keeps (event-log.ts). */
  eventLogLimit: number;
}

/** A fault as the control document shows it: the next `remaining` requests to an operation fail. */
export type Fault = SandboxControl.Fault;

/** The small part of a tenant every command reads: plain data, bounded whatever the tenant holds. */
export interface TenantHead {
  id: string;
  clock: TenantClock;
  /** The instant up to which everything due has run (ms since the epoch); never goes back. */
  time: number;
  /** Orders timers scheduled for the same instant. */
  seq: number;
  ids: IdSource;
  ledger: Map<string, LedgerEntry>;
  /** At most the endpoint quota (20). */
  endpoints: WebhookEndpoint[];
  /** The faults waiting (the control API's), oldest first; at most MAX_FAULTS. */
  faults: Fault[];
  /** How many status changes the tenant ever made: the position the next one takes in the event log. */
  eventsMade: number;
  /** How many of the oldest changes have left the log: the position of the oldest it keeps. */
  eventsDropped: number;
  eventLogLimit: number;
  /** Delivery attempts that fell due and wait for the outbox to send them. */
  due: DueAttempt[];
  /** Attempts a sender has taken and not yet recorded, each leased until a wall time (outbox.ts: leaseDue). */
  sending: DueAttempt[];
  /** Variant B: the SHA-256 digest (base64url) of the first secret key seen with the tenant's public key. */
  secretKeyDigest?: string;
  retryCompression: number;
}

/** One kind's objects: by id, newest-first pages, and exact counts. */
export interface ObjectSet<R extends { id: string; status: AnyStatus }, Q> {
  get(id: string): R | undefined;
  /** Adds a new object (the newest) with the request that created it. */
  insert(record: R, request: Q): void;
  /** Replaces an object with its next version (records are frozen, never changed in place). */
  replace(record: R): void;
  /** The create request of an object. */
  request(id: string): Q | undefined;
  /** How many there are (in `status`, if given). */
  count(status?: AnyStatus): number;
  /** A page, newest first, of the objects (in `status`, if given). */
  page(options: { status?: AnyStatus | undefined; limit: number; offset: number }): R[];
}

/**
 * Values by key that the core may change in place once it has them (a plan shifted, a delivery's attempts pushed);
 * a store saves what it handed out. A Map is one.
 */
export interface Keyed<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): unknown;
  delete(key: string): unknown;
}

/** What is due on the tenant's clock. */
export interface TimerQueue {
  push(timer: Timer): void;
  /** The earliest timer due at or before `until` (by time, then by seq), left in the queue. */
  due(until: number): Timer | undefined;
  /** Takes away a timer `due` returned. */
  remove(timer: Timer): void;
  /** When the earliest timer is due; undefined when there is none. */
  earliest(): number | undefined;
  /** Takes away the attempt timers of these deliveries (ended before their attempt was due). */
  removeAttempts(deliveryIds: readonly string[]): void;
}

/** Idempotency-Key records by scope; `sweep` forgets those whose retention ran out (a store may leave it to its own sweep). */
export interface IdempotencyBook extends Keyed<IdempotencyRecord> {
  sweep(now: number): void;
}

/** The event log's kept changes by position (among all the tenant made). */
export interface EventLog {
  add(position: number, change: StatusChange): void;
  at(position: number): StatusChange | undefined;
  /** Forgets every change before `position`. */
  dropBefore(position: number): void;
  /** A page, newest first, of the kept changes (of one object, if given), and how many match. */
  page(options: { objectId?: string | undefined; limit: number; offset: number }): {
    items: StatusChange[];
    total: number;
  };
}

/** Deliveries by id, in the order of their events. */
export interface DeliverySet extends Keyed<Delivery> {
  /** Those of the events before position `eventIndex`, oldest first. */
  before(eventIndex: number): Iterable<Delivery>;
  /** A page, newest first (by event), of the deliveries that match, and how many do. */
  page(options: {
    eventId?: string | undefined;
    state?: Delivery['state'] | undefined;
    limit: number;
    offset: number;
  }): { items: Delivery[]; total: number };
}

/**
 * What a command names before it runs: objects by kind and id, Idempotency-Key records by scope, list pages. A store
 * that reads rows (postgres) reads them with the tenant's head, in one round trip; the memory store has them at hand.
 */
export interface TenantReads {
  objects?: { kind: ObjectKind; id: string }[];
  keys?: string[];
  pages?: { kind: ObjectKind; status?: AnyStatus | undefined; limit: number; offset: number }[];
}

/** The parts of a tenant that grow with use. */
export interface TenantParts {
  payments: ObjectSet<RecordOf['payment'], RequestOf['payment']>;
  payouts: ObjectSet<RecordOf['payout'], RequestOf['payout']>;
  appeals: ObjectSet<RecordOf['appeal'], RequestOf['appeal']>;
  /** The processing steps each object still has to take, by `kind:id`. */
  plans: Keyed<Step[]>;
  timers: TimerQueue;
  idempotency: IdempotencyBook;
  events: EventLog;
  deliveries: DeliverySet;
}

/** Everything one tenant holds, as a command sees it inside a store's transaction. */
export type TenantState = TenantHead & TenantParts;

/** A new tenant's head. */
export function createHead(id: string, settings: TenantSettings): TenantHead {
  return {
    id,
    clock: createClock(settings.clock, settings.start),
    time: settings.start,
    seq: 0,
    ids: createIdSource(settings.seed, id),
    ledger: new Map(),
    endpoints: [],
    faults: [],
    eventsMade: 0,
    eventsDropped: 0,
    eventLogLimit: settings.eventLogLimit,
    due: [],
    sending: [],
    retryCompression: settings.retryCompression,
  };
}

/** The objects of one kind. */
export function collectionOf<K extends ObjectKind>(tenant: TenantState, kind: K): ObjectSet<RecordOf[K], RequestOf[K]> {
  const collections = { payment: tenant.payments, payout: tenant.payouts, appeal: tenant.appeals };
  return collections[kind] as unknown as ObjectSet<RecordOf[K], RequestOf[K]>;
}

/** A fresh number that orders a new timer after those already scheduled. */
export function nextSeq(tenant: TenantHead): number {
  tenant.seq += 1;
  return tenant.seq;
}
