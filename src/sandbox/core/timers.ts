// What is due on a tenant's clock, as a binary min-heap ordered by time, then by when it was scheduled.
import type { Step } from './outcomes.js';
import type { ObjectKind } from './types.js';

/** Something due at `at` (ms since the epoch); `seq` keeps things due at the same instant in scheduling order. */
export type Timer = { at: number; seq: number } & (
  | { type: 'step'; kind: ObjectKind; id: string; step: Step }
  | { type: 'expiry'; kind: ObjectKind; id: string }
  | { type: 'attempt'; delivery: string; attempt: number }
);

const before = (a: Timer, b: Timer) => a.at < b.at || (a.at === b.at && a.seq < b.seq);

/** Adds a timer. */
export function pushTimer(heap: Timer[], timer: Timer): void {
  heap.push(timer);
  let i = heap.length - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!before(heap[i]!, heap[parent]!)) break;
    [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
    i = parent;
  }
}

/** The earliest timer, without removing it. */
export const peekTimer = (heap: Timer[]): Timer | undefined => heap[0];

/** Removes and returns the earliest timer. */
export function popTimer(heap: Timer[]): Timer | undefined {
  const top = heap[0];
  const last = heap.pop();
  if (heap.length > 0 && last) {
    heap[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && before(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && before(heap[r]!, heap[m]!)) m = r;
      if (m === i) break;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  }
  return top;
}
