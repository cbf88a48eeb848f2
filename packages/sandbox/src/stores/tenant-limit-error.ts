// Thrown by a store's transaction that would make a new tenant when open mode's bound (`tenants.max`) is reached and
// no idle tenant could be forgotten to make room.

/** The store holds its most tenants; a credential it does not know yet gets in once an idle tenant is forgotten. */
export class TenantLimitError extends Error {
  override readonly name = 'TenantLimitError';
  /** The most tenants the store holds (`tenants.max`). */
  readonly max: number;
  /** How long, in seconds, an unused tenant is kept (`tenants.idleSeconds`). */
  readonly idleSeconds: number;
  /** Whole seconds (at least 1) until the tenant unused the longest is forgotten; idleSeconds when none is known. */
  readonly retryAfter: number;

  constructor(max: number, idleSeconds: number, retryAfter: number) {
    super(
      `The sandbox holds its most tenants (${max}), and this credential would make a new one; a tenant no request has ` +
        `used for ${idleSeconds} s is forgotten, the next in about ${retryAfter} s. Retry then, or reuse a credential the sandbox knows.`,
    );
    this.max = max;
    this.idleSeconds = idleSeconds;
    this.retryAfter = retryAfter;
  }
}

/**
 * Seconds until a tenant last used at `lastUsed` (wall ms) is forgotten, at `lastUsed + keptMs`: at least 1, or
 * `idleSeconds` when no tenant is known.
 */
export function secondsUntilForgotten(
  lastUsed: number | undefined,
  keptMs: number,
  wallNow: number,
  idleSeconds: number,
): number {
  if (lastUsed === undefined) return idleSeconds;
  return Math.max(1, Math.ceil((lastUsed + keptMs - wallNow) / 1000));
}
