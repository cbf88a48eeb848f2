// The store's sweep on a timer: open mode's idle tenants forgotten every tenth of the idle time (at least once a
// minute), and the store's own maintenance (a durable store's expired Idempotency-Key records). A store also forgets
// idle tenants once when a new tenant would pass the bound, before it refuses one; the timer keeps memory and rows
// from waiting for that.
import type { TenantStore } from './types.js';

/** The longest time between two sweeps, in ms. */
export const MAX_SWEEP_INTERVAL_MS = 60_000;

/** How often idle tenants are looked for: a tenth of the idle time, at most a minute. */
export const sweepIntervalMs = (idleMs: number) => Math.min(MAX_SWEEP_INTERVAL_MS, idleMs / 10);

/** A running sweep; stop() ends it (close() calls it). */
export interface TenantSweep {
  stop(): void;
}

/**
 * Sweeps `store` with a timer that does not keep the process alive: its idle tenants every sweepIntervalMs(idleMs) when
 * `idleMs` is given (open mode), and its maintenance, if it has any.
 */
export function startTenantSweep(
  store: TenantStore,
  idleMs: number | undefined,
  onError: (error: unknown) => void,
): TenantSweep {
  const evictIdle = idleMs === undefined ? undefined : store.evictIdle?.bind(store);
  const maintain = store.maintain?.bind(store);
  if (!evictIdle && !maintain) return { stop() {} };
  let sweeping = false;
  const timer = setInterval(
    () => {
      // Note: a sweep still running (a slow database) skips the next one rather than piling up.
      if (sweeping) return;
      sweeping = true;
      (async () => {
        await evictIdle?.();
        await maintain?.();
      })()
        .catch(onError)
        .finally(() => (sweeping = false));
    },
    idleMs === undefined ? MAX_SWEEP_INTERVAL_MS : sweepIntervalMs(idleMs),
  );
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
