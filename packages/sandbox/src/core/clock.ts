// A tenant's clock: `manual` stands still until advanced; `real` follows the wall clock plus what was advanced.

/** How a tenant's clock moves. */
export type ClockMode = 'manual' | 'real';

/** A tenant's clock; plain data, so that it survives structuredClone. */
export interface TenantClock {
  mode: ClockMode;
  /** Manual mode: the current time, in ms since the epoch. */
  manual: number;
  /** Real mode: ms added to the wall clock by advancing. */
  offset: number;
}

/** Default start of manual clocks. */
export const DEFAULT_START = Date.UTC(2026, 0, 1);

/** A clock in `mode`, starting at `start` (ms since the epoch; manual mode only). */
export function createClock(mode: ClockMode, start: number): TenantClock {
  return { mode, manual: start, offset: 0 };
}

/** The clock's time, given the wall clock's. */
export function clockNow(clock: TenantClock, wallNow: number): number {
  return clock.mode === 'manual' ? clock.manual : wallNow + clock.offset;
}

/** Moves the clock forward by `ms`. */
export function moveClock(clock: TenantClock, ms: number): void {
  if (!(ms >= 0)) throw new RangeError(`A clock only moves forward; got ${ms} ms`);
  if (clock.mode === 'manual') clock.manual += ms;
  else clock.offset += ms;
}

let lastMs = NaN;
let lastIso = '';

/** RFC 3339 in UTC, without milliseconds when there are none (as the contract's examples write it). */
export function iso(ms: number): string {
  // Note: one command writes the same instant several times (created_at, updated_at, the event's created_at).
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString().replace('.000Z', 'Z');
    lastMs = ms;
  }
  return lastIso;
}
