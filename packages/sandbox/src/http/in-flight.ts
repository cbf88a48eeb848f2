// The Idempotency-Keys of the requests this instance is checking and running now. The command's own transaction looks
// the key up and keeps the answer, so a key is never seen in progress in the store; a second request with the key that
// arrives while the first is still being checked is answered as the contract says (409, or 422 with another body)
// rather than queued behind it. Bounded by the requests in flight.
import { keyInProgress, keyReused } from '../core/idempotency.js';
import type { Answer } from '../core/index.js';

/** The keys in flight on this instance. */
export interface InFlightKeys {
  /** Marks a key in flight, or answers at once when another request holds it: `leave()` once the request is answered. */
  enter(tenant: string, scope: string, key: string, print: string): { leave(): void } | { answer: Answer };
}

/** An empty set of keys in flight. */
export function createInFlightKeys(): InFlightKeys {
  const prints = new Map<string, string>();
  return {
    enter(tenant, scope, key, print) {
      const id = `${tenant}\u0000${scope}\u0000${key}`;
      const held = prints.get(id);
      if (held !== undefined) return { answer: held === print ? keyInProgress() : keyReused() };
      prints.set(id, print);
      return { leave: () => void prints.delete(id) };
    },
  };
}
