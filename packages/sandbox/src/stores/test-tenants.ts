// What the registries share about test tenants: how far behind its use a test tenant's expiry may lag, so that a burst of
// requests moves it with one write, not one each.

/** How far behind a test tenant's last use its expiry may be, at most: a minute, or a tenth of a shorter idle time. */
export const EXPIRY_PRECISION_MS = 60_000;

/** Whether a use at `now` moves a test tenant's expiry: when the move is at least the precision. */
export const movesExpiry = (test: { idleMs: number; expiresAt: number }, now: number): boolean =>
  now + test.idleMs - test.expiresAt >= Math.min(EXPIRY_PRECISION_MS, test.idleMs / 10);

/** A test tenant's expiry after a use at `now`: `idleMs` after it, unless that moves it by less than the precision. */
export const expiryAfterUse = (test: { idleMs: number; expiresAt: number }, now: number): number =>
  movesExpiry(test, now) ? now + test.idleMs : test.expiresAt;
