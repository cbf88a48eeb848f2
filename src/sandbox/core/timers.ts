// What is due on a tenant's clock: an array kept sorted by time, then by when each timer was scheduled, the earliest
// last.
import type { Step } from './outcomes.js';
import type { ObjectKind } from './types.js';

/** Something due at `at` (ms since the epoch); `seq` keeps things due at the same instant in scheduling order. */
export type Timer = { at: number; seq: number } & (
  | { type: 'step'; kind: ObjectKind; id: string; step: Step }
  | { type: 'expiry'; kind: ObjectKind; id: string }
  | { type: 'attempt'; delivery: string; attempt: number }
);

const before = (a: Timer, b: Timer) => a.at < b.at || (a.at === b.at && a.seq < b.seq);

/** Adds a timer at its place in the order. */
export function pushTimer(timers: Timer[], timer: Timer): void {
  // Note: the earliest is last so that taking it is pop(), not shift(), and a timer scheduled soon after the one that
  // ran is inserted near the end; a binary search finds the place, as a scan would pass every pending expiry.
  let low = 0;
  let high = timers.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (before(timer, timers[middle]!)) low = middle + 1;
    else high = middle;
  }
  timers.splice(low, 0, timer);
}

/** The earliest timer, without removing it. */
export const peekTimer = (timers: Timer[]): Timer | undefined => timers.at(-1);

/** Removes and returns the earliest timer. */
export const popTimer = (timers: Timer[]): Timer | undefined => timers.pop();
