// What is due on a tenant's clock: steps of an object's processing, expiries and webhook delivery attempts.
import type { Step } from '@merchant-payments/contract/internal/sandbox-model/outcomes.js';
import type { ObjectKind } from './types.js';

/** Something due at `at` (ms since the epoch); `seq` keeps things due at the same instant in scheduling order. */
export type Timer = { at: number; seq: number } & (
  | { type: 'step'; kind: ObjectKind; id: string; step: Step }
  | { type: 'expiry'; kind: ObjectKind; id: string }
  | { type: 'attempt'; delivery: string; attempt: number }
);

/** Whether `a` runs before `b`: by time, then by when it was scheduled. */
export const runsBefore = (a: Timer, b: Timer) => a.at < b.at || (a.at === b.at && a.seq < b.seq);
