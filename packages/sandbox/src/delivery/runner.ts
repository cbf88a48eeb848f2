// Sending what the outbox says is due, in three steps that are separate transactions so that no webhook is sent inside
// one: take the due attempts (each leased on the tenant's state), send them, record each outcome; the core schedules
// the next attempt on the tenant's clock. An attempt taken and never recorded (its process died) is taken again once
// its lease runs out: a delivery is sent at least once, with the same X-Event-ID. In-flight sends are tracked for close().
import {
  attemptContext,
  awaitsOutcome,
  clockNow,
  dropExpiredListeners,
  leaseDue,
  recordAttempt,
  releaseAttempt,
  type DeliveryOutcome,
  type DueAttempt,
  type TenantState,
} from '../core/index.js';
import { WRITES, type TenantStore } from '../stores/types.js';
import type { PreparedAttempt, SentOutcome } from './send-attempt.js';

/** How many attempts of one flush are in flight at once, so a backlog cannot open thousands of connections. */
export const MAX_PARALLEL_ATTEMPTS = 16;

/** How long past the delivery time-out a taken attempt may stay unrecorded before it is taken again. */
export const LEASE_MARGIN_MS = 60_000;

/** What the runner needs: the store, how to read and send one attempt, and the wall clock. */
export interface DeliveryRunnerSettings {
  store: TenantStore;
  /** What an attempt sends, read inside the transaction that takes it; or its outcome, when there is nothing to send. */
  prepare(tenant: TenantState, due: DueAttempt): PreparedAttempt | DeliveryOutcome;
  send(attempt: PreparedAttempt): Promise<SentOutcome>;
  wallNow: () => number;
  /** How long a taken attempt is leased (the delivery time-out plus LEASE_MARGIN_MS). */
  leaseMs: number;
  /** Told about a failure of the runner itself (never about a failed delivery, which is logged in the outbox). */
  onError(error: unknown): void;
  /** Told each attempt's outcome (the metrics), `forbidden` included; `sent` false when there was nothing to send. */
  onOutcome?(outcome: SentOutcome, sent: boolean): void;
  /** Whether this instance holds the connection of the tenant's listener endpoint `endpoint`; absent: none does. */
  holds?(tenant: string, endpoint: string): boolean;
  /** Told each listener endpoint of the tenant whose due attempts were left for the instance holding it. */
  onSkipped?(tenant: string, endpoint: string): void;
}

/** Sends due attempts and waits for those in flight. */
export interface DeliveryRunner {
  /** Sends every attempt that is due on the tenant; resolves, with how many it sent, once each outcome is recorded. Never rejects. */
  flush(tenant: string): Promise<number>;
  /** Resolves once nothing is in flight. */
  idle(): Promise<void>;
}

interface Taken {
  due: DueAttempt;
  prepared: PreparedAttempt | DeliveryOutcome;
  sentAt: number;
}

/** A delivery runner. */
export function createDeliveryRunner(settings: DeliveryRunnerSettings): DeliveryRunner {
  const { store } = settings;
  const inFlight = new Set<Promise<unknown>>();
  const take = async (id: string, limit: number) => {
    const { taken, skipped } = await store.transaction(
      id,
      (tenant) => {
        const wall = settings.wallNow();
        // Note: the attempt is made when it is taken, and the core counts the next one from there: a clock advanced while a
        // slow receiver holds the request must not move the attempt (and its retry) to the advanced time.
        const sentAt = Math.max(tenant.time, clockNow(tenant.clock, wall));
        if (tenant.endpoints.some((e) => e.listener)) dropExpiredListeners(tenant, wall);
        const skipped = new Set<string>();
        const takes = (due: DueAttempt) => {
          const endpoint = attemptContext(tenant, due).endpoint;
          if (!endpoint?.listener || settings.holds?.(id, endpoint.id)) return true;
          skipped.add(endpoint.id);
          return false;
        };
        const taken: Taken[] = leaseDue(tenant, wall, settings.leaseMs, limit, takes).map((due) => ({
          due,
          prepared: settings.prepare(tenant, due),
          sentAt,
        }));
        return { taken, skipped };
      },
      undefined,
      WRITES,
    );
    for (const endpoint of skipped) settings.onSkipped?.(id, endpoint);
    return taken;
  };
  const attempt = async (id: string, { due, prepared, sentAt }: Taken) => {
    const sent = !('ok' in prepared);
    const { forbidden, unsent, ...outcome }: SentOutcome = 'ok' in prepared ? prepared : await settings.send(prepared);
    if (unsent) return store.transaction(id, (tenant) => releaseAttempt(tenant, due), undefined, WRITES);
    settings.onOutcome?.(forbidden ? { ...outcome, forbidden } : outcome, sent);
    // Note: an attempt taken again after its lease ran out may have its outcome recorded already; this one is then late.
    await store.transaction(
      id,
      (tenant) => void (awaitsOutcome(tenant, due) && recordAttempt(tenant, due, outcome, sentAt)),
      undefined,
      WRITES,
    );
  };
  // Note: each worker takes its next attempt only when it is about to send it, so that a lease covers one send.
  const worker = async (id: string, first: Taken) => {
    let sent = 0;
    for (let next: Taken | undefined = first; next; next = (await take(id, 1))[0]) {
      await attempt(id, next);
      sent += 1;
    }
    return sent;
  };
  const flush = async (id: string) => {
    const first = await take(id, MAX_PARALLEL_ATTEMPTS);
    if (first.length === 0) return 0;
    return (await Promise.all(first.map((taken) => worker(id, taken)))).reduce((a, b) => a + b, 0);
  };
  return {
    flush(id) {
      const sending = flush(id).catch((error: unknown) => {
        settings.onError(error);
        return 0;
      });
      inFlight.add(sending);
      void sending.finally(() => inFlight.delete(sending));
      return sending;
    },
    async idle() {
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
  };
}
