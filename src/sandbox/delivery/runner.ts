// Sending what the outbox says is due: every due attempt of a tenant goes out at once, and each outcome is reported
// back to the core, which schedules the next attempt on the tenant's clock. In-flight sends are tracked for close().

/** How many attempts of one flush are in flight at once, so a backlog cannot open thousands of connections. */
export const MAX_PARALLEL_ATTEMPTS = 16;
import { clockNow, recordAttempt, takeDue, type DeliveryOutcome, type DueAttempt, type TenantState } from '../core/index.js';

/** What the runner needs: how to send one attempt, the wall clock, and whom to tell when the log changed. */
export interface DeliveryRunnerSettings {
  send(tenant: TenantState, due: DueAttempt): Promise<DeliveryOutcome>;
  wallNow: () => number;
  /** Called after outcomes were recorded (the state file saves). */
  changed(): Promise<void>;
  /** Told about a failure of the runner itself (never about a failed delivery, which is logged in the outbox). */
  onError(error: unknown): void;
}

/** Sends due attempts and waits for those in flight. */
export interface DeliveryRunner {
  /** Sends every attempt that is due on the tenant; resolves, with how many it sent, once each outcome is recorded. Never rejects. */
  flush(tenant: TenantState): Promise<number>;
  /** Resolves once nothing is in flight. */
  idle(): Promise<void>;
}

/** A delivery runner. */
export function createDeliveryRunner(settings: DeliveryRunnerSettings): DeliveryRunner {
  const inFlight = new Set<Promise<void>>();
  const attempt = async (tenant: TenantState, due: DueAttempt) => {
    // Note: the attempt is made when it is sent, and the core counts the next one from there: a clock advanced while a
    // slow receiver holds the request must not move the attempt (and its retry) to the advanced time.
    const sentAt = Math.max(tenant.time, clockNow(tenant.clock, settings.wallNow()));
    const outcome = await settings.send(tenant, due);
    recordAttempt(tenant, due, outcome, sentAt);
  };
  return {
    flush(tenant) {
      const due = takeDue(tenant);
      if (due.length === 0) return Promise.resolve(0);
      const count = due.length;
      const worker = async () => {
        for (let next = due.shift(); next; next = due.shift()) await attempt(tenant, next);
      };
      const sending = Promise.all(Array.from({ length: Math.min(MAX_PARALLEL_ATTEMPTS, due.length) }, worker))
        .then(() => settings.changed())
        .catch((error: unknown) => settings.onError(error));
      inFlight.add(sending);
      void sending.finally(() => inFlight.delete(sending));
      return sending.then(() => count);
    },
    async idle() {
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
  };
}
