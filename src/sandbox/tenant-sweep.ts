// Open mode's idle tenants forgotten on a timer: every tenth of the idle time, and at least once a minute, the store
// forgets the tenants no request has used for the idle time (store.evictIdle). A store also forgets them once when a
// new tenant would pass the bound, before it refuses one; the timer keeps memory and rows from waiting for that.
import type { TenantStore } from './stores/types.js';

/** The longest time between two sweeps, in ms. */
export const MAX_SWEEP_INTERVAL_MS = 60_000;

/** How often idle tenants are looked for: a tenth of the idle time, at most a minute. */
export const sweepIntervalMs = (idleMs: number) => Math.min(MAX_SWEEP_INTERVAL_MS, idleMs / 10);

/** A running sweep; stop() ends it (close() calls it). */
export interface TenantSweep {
  stop(): void;
}

/** Starts sweeping `store` every sweepIntervalMs(idleMs), with a timer that does not keep the process alive. */
export function startTenantSweep(store: TenantStore, idleMs: number, onError: (error: unknown) => void): TenantSweep {
  const evictIdle = store.evictIdle?.bind(store);
  if (!evictIdle) return { stop() {} };
  let sweeping = false;
  const timer = setInterval(() => {
    // Note: a sweep still running (a slow database) skips the next one rather than piling up.
    if (sweeping) return;
    sweeping = true;
    evictIdle()
      .catch(onError)
      .finally(() => (sweeping = false));
  }, sweepIntervalMs(idleMs));
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
