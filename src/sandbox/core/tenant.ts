// A tenant: its objects, clock, idempotency records, webhook endpoints, event log and outbox. Plain data throughout,
// so that structuredClone snapshots it whole.
import { createClock, type ClockMode, type TenantClock } from './clock.js';
import { createCollection, type Collection } from './collection.js';
import { createIdSource, type IdSource } from './ids.js';
import type { Step } from './outcomes.js';
import type { Timer } from './timers.js';
import type {
  Delivery,
  DueAttempt,
  IdempotencyRecord,
  ObjectKind,
  RecordOf,
  RequestOf,
  StatusChange,
  WebhookEndpoint,
} from './types.js';

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

/** Everything one tenant holds. */
export interface TenantState {
  id: string;
  clock: TenantClock;
  /** The instant up to which everything due has run (ms since the epoch); never goes back. */
  time: number;
  /** Orders timers scheduled for the same instant. */
  seq: number;
  ids: IdSource;
  payments: Collection<RecordOf['payment'], RequestOf['payment']>;
  payouts: Collection<RecordOf['payout'], RequestOf['payout']>;
  appeals: Collection<RecordOf['appeal'], RequestOf['appeal']>;
  /** The processing steps each object still has to take, by `kind:id`. */
  plans: Map<string, Step[]>;
  timers: Timer[];
  ledger: Map<string, LedgerEntry>;
  idempotency: Map<string, IdempotencyRecord>;
  endpoints: WebhookEndpoint[];
  /** The latest status changes, oldest first, at most `eventLogLimit` of them (see event-log.ts). */
  events: StatusChange[];
  /** How many older changes have left the log: the position of `events[0]` among all the tenant ever made. */
  eventsDropped: number;
  eventLogLimit: number;
  /** One per event and endpoint, in the order of the events; they leave with their event once finished. */
  deliveries: Map<string, Delivery>;
  /** Delivery attempts that fell due and wait for the outbox to send them. */
  due: DueAttempt[];
  /** Attempts a sender has taken and not yet recorded, each leased until a wall time (outbox.ts: leaseDue). */
  sending: DueAttempt[];
  /** Variant B: the SHA-256 digest (base64url) of the first secret key seen with the tenant's public key. */
  secretKeyDigest?: string;
  retryCompression: number;
}

/** A new, empty tenant. */
export function createTenant(id: string, settings: TenantSettings): TenantState {
  const clock = createClock(settings.clock, settings.start);
  return {
    id,
    clock,
    time: settings.start,
    seq: 0,
    ids: createIdSource(settings.seed, id),
    payments: createCollection(),
    payouts: createCollection(),
    appeals: createCollection(),
    plans: new Map(),
    timers: [],
    ledger: new Map(),
    idempotency: new Map(),
    endpoints: [],
    events: [],
    eventsDropped: 0,
    eventLogLimit: settings.eventLogLimit,
    deliveries: new Map(),
    due: [],
    sending: [],
    retryCompression: settings.retryCompression,
  };
}

/** The collection of one kind. */
export function collectionOf<K extends ObjectKind>(
  tenant: TenantState,
  kind: K,
): Collection<RecordOf[K], RequestOf[K]> {
  const collections = { payment: tenant.payments, payout: tenant.payouts, appeal: tenant.appeals };
  return collections[kind] as unknown as Collection<RecordOf[K], RequestOf[K]>;
}

/** A fresh number that orders a new timer after those already scheduled. */
export function nextSeq(tenant: TenantState): number {
  tenant.seq += 1;
  return tenant.seq;
}
