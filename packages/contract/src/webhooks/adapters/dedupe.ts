// Claiming an X-Event-ID atomically, so that one event is processed once however many deliveries race.

/**
 * De-duplication on X-Event-ID as one atomic claim, e.g. `INSERT … ON CONFLICT DO NOTHING` or Redis `SET NX`
 * in your own database, so that concurrent deliveries of one event cannot both pass a check before either records it.
 */
export interface WebhookDedupe {
  /** Atomically takes this X-Event-ID: true when this call took it, false when it was already taken. */
  claim(id: string): boolean | Promise<boolean>;
  /** Gives a claimed X-Event-ID back; called when onEvent failed, so that the sender's next delivery is processed. */
  release(id: string): unknown;
}

/** Options of createMemoryDedupe. */
export interface MemoryDedupeOptions {
  /** Most X-Event-IDs kept (default 10,000); when full, the oldest claim is forgotten first. */
  maxEntries?: number;
  /** How long a claim is kept, in seconds (default 4 days, beyond the sender's roughly three days of retries). */
  ttlSeconds?: number;
  /** The clock in milliseconds since the epoch (default `Date.now`), for tests. */
  now?: () => number;
}

const DEFAULT_MAX_ENTRIES = 10_000;
const DEFAULT_TTL_SECONDS = 4 * 24 * 60 * 60;

/**
 * An in-memory WebhookDedupe with bounded memory, for tests and a single-process receiver. Not for several instances
 * or restarts: each process has its own memory, so there claim in your database instead.
 */
export function createMemoryDedupe(options: MemoryDedupeOptions = {}): WebhookDedupe {
  const maxEntries = positiveInteger('maxEntries', options.maxEntries ?? DEFAULT_MAX_ENTRIES);
  const ttlMs = positiveInteger('ttlSeconds', options.ttlSeconds ?? DEFAULT_TTL_SECONDS) * 1000;
  const now = options.now ?? Date.now;
  // Note: a Map iterates in insertion order and every claim has the same lifetime, so the first entry expires first.
  const claims = new Map<string, number>();
  return {
    claim(id) {
      const time = now();
      for (const [oldest, expires] of claims) {
        if (expires > time) break;
        claims.delete(oldest);
      }
      if (claims.has(id)) return false;
      for (const oldest of claims.keys()) {
        if (claims.size < maxEntries) break;
        claims.delete(oldest);
      }
      claims.set(id, time + ttlMs);
      return true;
    },
    release(id) {
      claims.delete(id);
    },
  };
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`${name} must be a positive integer.`);
  return value;
}
