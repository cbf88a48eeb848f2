// Moving tenants' clocks with webhooks in between: an advance stops at each instant something is due, runs it, and
// sends the attempts that fell due before going on, so that a retry scheduled by a failed attempt falls due within the
// same advance. Advances and ticks of one tenant run one after another; commands are not queued behind them, so a
// webhook receiver may call the sandbox back while its delivery is in flight.
import { hasDueWork } from './core/advance.js';
import { clockNow, runDue, type StatusChange, type TenantState } from './core/index.js';
import { moveClock } from './core/clock.js';
import { peekTimer } from './core/timers.js';
import type { DeliveryRunner } from './delivery/runner.js';
import { ClockAdvanceError } from './clock-advance-error.js';

/** The most one advance may move a clock: 365 days, the bound of AdvanceClockRequest's `seconds` and of sandbox.advance(). */
export const MAX_ADVANCE_SECONDS = 31_536_000;

/** What the clock runner needs. */
export interface ClockRunnerSettings {
  /** The tenant (created, with its default endpoints, on first use). */
  open(tenant: string): TenantState;
  /** Tenants whose clocks move by themselves (`real`), for the ticker. */
  realTenants(): string[];
  deliveries: DeliveryRunner;
  wallNow: () => number;
  /** Called after status changes (the state file saves). */
  changed(): Promise<void>;
  onError(error: unknown): void;
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
  /** Runs and delivers what is due on the tenant's clock now. */
  tick(tenant: string): Promise<StatusChange[]>;
  /** Every `intervalMs`, ticks the real-clock tenants that have something due; the timer does not keep the process alive. */
  startTicker(intervalMs: number): void;
  stopTicker(): void;
}

/** A clock runner. */
export function createClockRunner(settings: ClockRunnerSettings): ClockRunner {
  const queues = new Map<string, Promise<unknown>>();
  const serial = <T>(id: string, job: () => Promise<T>): Promise<T> => {
    const result = (queues.get(id) ?? Promise.resolve()).then(job);
    const settled = result.catch(() => {});
    queues.set(id, settled);
    void settled.then(() => queues.get(id) === settled && queues.delete(id));
    return result;
  };
  const now = (tenant: TenantState) => clockNow(tenant.clock, settings.wallNow());
  /** Runs what is due and sends what fell due; answers how many attempts it sent. */
  const runAndSend = async (tenant: TenantState, changes: StatusChange[]) => {
    changes.push(...runDue(tenant, now(tenant)));
    return settings.deliveries.flush(tenant);
  };
  const finish = async (changes: StatusChange[]) => {
    if (changes.length > 0) await settings.changed();
    return changes;
  };

  const advance = (id: string, seconds: number) => {
    // Note: a clock moved past what a Date holds answers 500 until reset, so the JS API keeps the control API's bound.
    if (!(typeof seconds === 'number' && seconds >= 0 && seconds <= MAX_ADVANCE_SECONDS)) return Promise.reject(new ClockAdvanceError(seconds, MAX_ADVANCE_SECONDS));
    return serial(id, async () => {
      const tenant = settings.open(id);
      let left = Math.round(seconds * 1000);
      let attempts = 0;
      const changes: StatusChange[] = [];
      for (let next = peekTimer(tenant.timers); next && next.at - now(tenant) <= left; next = peekTimer(tenant.timers)) {
        const step = Math.max(0, next.at - now(tenant));
        moveClock(tenant.clock, step);
        left -= step;
        attempts += await runAndSend(tenant, changes);
      }
      moveClock(tenant.clock, left);
      attempts += await runAndSend(tenant, changes);
      return { transitions: await finish(changes), deliveryAttempts: attempts };
    });
  };

  const tick = (id: string) =>
    serial(id, async () => {
      const changes: StatusChange[] = [];
      await runAndSend(settings.open(id), changes);
      return finish(changes);
    });

  let ticker: ReturnType<typeof setInterval> | undefined;
  return {
    advance,
    tick,
    startTicker(intervalMs) {
      ticker ??= setInterval(() => {
        // Note: a tenant still busy (a slow receiver) is skipped rather than queued, so ticks cannot pile up; one with
        // nothing due is skipped too, so that idle tenants cost a look at their next timer and nothing more.
        for (const id of settings.realTenants()) {
          if (queues.has(id)) continue;
          const tenant = settings.open(id);
          if (hasDueWork(tenant, now(tenant))) tick(id).catch(settings.onError);
        }
      }, intervalMs);
      ticker.unref();
    },
    stopTicker() {
      clearInterval(ticker);
      ticker = undefined;
    },
  };
}
