// Moving tenants' clocks with webhooks in between: an advance stops at each instant something is due, runs it, and
// sends the attempts that fell due before going on, so that a retry scheduled by a failed attempt falls due within the
// same advance. Advances and ticks of one tenant run one after another; commands are not queued behind them, so a
// webhook receiver may call the sandbox back while its delivery is in flight.
import { clockNow, moveClock, runDue, type StatusChange, type TenantState } from '../core/index.js';
import type { DeliveryRunner } from '../delivery/runner.js';
import type { TenantStore } from '../stores/types.js';
import { ClockAdvanceError } from './advance-error.js';
import { createSerialQueues } from '@merchant-payments/contract/internal/shared/serial.js';

/** The most one advance may move a clock: 365 days, the bound of AdvanceClockRequest's `seconds` and of sandbox.advance(). */
export const MAX_ADVANCE_SECONDS = 31_536_000;

/** What the clock runner needs. */
export interface ClockRunnerSettings {
  store: TenantStore;
  deliveries: DeliveryRunner;
  wallNow: () => number;
  onError(error: unknown): void;
  /** Told, in ms, how late a tick ran a tenant's earliest due timer (the metrics' due-work lag). */
  onDueLag?(ms: number): void;
}

/** What an advance ran: the status changes that fell due, and how many delivery attempts were made. */
export interface Advanced {
  transitions: StatusChange[];
  deliveryAttempts: number;
}

/** Advances and ticks, one at a time per tenant, and the ticker of real clocks. */
export interface ClockRunner {
  /**
   * Moves the tenant's clock forward by `seconds`, running and delivering everything that falls due, in order; rejects
   * with ClockAdvanceError, the clock unmoved, outside 0 to MAX_ADVANCE_SECONDS.
   */
  advance(tenant: string, seconds: number): Promise<Advanced>;
  /** Runs and delivers what is due on the tenant's clock now, unless another transaction holds the tenant (its holder does it). */
  tick(tenant: string): Promise<StatusChange[]>;
  /** Every `intervalMs`, ticks the real-clock tenants that have something due; the timer does not keep the process alive. */
  startTicker(intervalMs: number): void;
  stopTicker(): void;
}

/** A clock runner. */
export function createClockRunner(settings: ClockRunnerSettings): ClockRunner {
  const { store, deliveries } = settings;
  const queues = createSerialQueues();
  const now = (tenant: TenantState) => clockNow(tenant.clock, settings.wallNow());

  const advance = (id: string, seconds: number) => {
    // Note: a clock moved past what a Date holds answers 500 until reset, so the JS API keeps the control API's bound.
    if (!(typeof seconds === 'number' && seconds >= 0 && seconds <= MAX_ADVANCE_SECONDS))
      return Promise.reject(new ClockAdvanceError(seconds, MAX_ADVANCE_SECONDS));
    return queues.run(id, async () => {
      let left = Math.round(seconds * 1000);
      let attempts = 0;
      const changes: StatusChange[] = [];
      // Note: one transaction per instant something is due (move the clock there, run it), then that instant's
      // deliveries outside any transaction, so that a retry a failed attempt schedules falls due within this advance.
      for (let moving = true; moving;) {
        const ran = await store.transaction(id, (tenant) => {
          const next = tenant.timers.earliest();
          const due = next !== undefined && next - now(tenant) <= left;
          const step = due ? Math.max(0, next - now(tenant)) : left;
          moveClock(tenant.clock, step);
          return { due, step, changes: runDue(tenant, now(tenant)) };
        });
        left -= ran.step;
        moving = ran.due;
        changes.push(...ran.changes);
        attempts += await deliveries.flush(id);
      }
      return { transitions: changes, deliveryAttempts: attempts };
    });
  };

  const tick = (id: string) =>
    queues.run(id, async () => {
      // Note: a tenant whose row another transaction holds (here, or another instance's tick) is being worked on already.
      const ran = await store.tryTransaction(id, (tenant) => {
        const next = tenant.timers.earliest();
        if (next !== undefined && next <= now(tenant)) settings.onDueLag?.(now(tenant) - next);
        return runDue(tenant, now(tenant));
      });
      if (ran === undefined) return [];
      await deliveries.flush(id);
      return ran.result;
    });

  let ticker: ReturnType<typeof setInterval> | undefined;
  let polling = false;
  const poll = async () => {
    // Note: a tenant still busy (a slow receiver) is skipped rather than queued, and a poll still running skips the next
    // one, so that ticks cannot pile up; the store names only the tenants with something due.
    for (const id of await store.dueTenants(settings.wallNow())) if (!queues.busy(id)) tick(id).catch(settings.onError);
  };
  return {
    advance,
    tick,
    startTicker(intervalMs) {
      ticker ??= setInterval(() => {
        if (polling) return;
        polling = true;
        poll()
          .catch(settings.onError)
          .finally(() => (polling = false));
      }, intervalMs);
      ticker.unref();
    },
    stopTicker() {
      clearInterval(ticker);
      ticker = undefined;
    },
  };
}
