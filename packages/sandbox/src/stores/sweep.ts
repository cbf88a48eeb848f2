// The store's sweep on a timer: open mode's idle tenants forgotten every tenth of the idle time (at least once a
// minute), expired test tenants deleted as often, and the store's own maintenance (a durable store's expired
// Idempotency-Key records). A store also forgets
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

/** Expired test tenants to delete: `run` deletes those it finds; `idleMs` is how long one is kept unused. */
export interface TestTenantSweep {
  idleMs: number;
  run(): Promise<unknown>;
}

/**
 * Sweeps `store` with a timer that does not keep the process alive: its idle tenants every sweepIntervalMs(idleMs) when
 * `idleMs` is given (open mode), expired test tenants every sweepIntervalMs of theirs when `tests` is given, and the
 * store's maintenance, if it has any.
 */
export function startTenantSweep(
  store: TenantStore,
  idleMs: number | undefined,
  onError: (error: unknown) => void,
  tests?: TestTenantSweep,
): TenantSweep {
  const evictIdle = idleMs === undefined ? undefined : store.evictIdle?.bind(store);
  const maintain = store.maintain?.bind(store);
  if (!evictIdle && !maintain && !tests) return { stop() {} };
  const every = Math.min(
    idleMs === undefined ? MAX_SWEEP_INTERVAL_MS : sweepIntervalMs(idleMs),
    tests ? sweepIntervalMs(tests.idleMs) : MAX_SWEEP_INTERVAL_MS,
  );
  let sweeping = false;
  const timer = setInterval(() => {
    // Note: a sweep still running (a slow database) skips the next one rather than piling up.
    if (sweeping) return;
    sweeping = true;
    (async () => {
      await evictIdle?.();
      await tests?.run();
      await maintain?.();
    })()
      .catch(onError)
      .finally(() => (sweeping = false));
  }, every);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
