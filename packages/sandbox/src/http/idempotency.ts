// The Idempotency-Key, held in one place for every operation: looked up (replay, 409, 422 reused) before the request
// is checked, so a second request with the same key gets 409 meanwhile, and let go if the request never runs. A hold
// is a lease on the wall clock that this process renews while it holds the key, so that a key whose holder died
// (its process killed) is taken again by a retry once the lease has passed, rather than answering 409 for good.
import { success } from '../core/answer.js';
import {
  beginIdempotent,
  completeIdempotent,
  IDEMPOTENCY_LEASE_MS,
  releaseIdempotent,
  renewIdempotent,
  type Answer,
} from '../core/index.js';
import type { SandboxRuntime } from '../runtime.js';

// Note: a holder must miss several renewals in a row before its lease passes, so one slow transaction never costs it the key.
const RENEW_EVERY_MS = IDEMPOTENCY_LEASE_MS / 3;

/** A key held for one request: give it up, or keep an answer under it (when the core does not keep it itself). */
export interface KeyHold {
  key: string;
  release(): Promise<void>;
  keep(body: unknown): Promise<void>;
}

/** Holds `key` in `scope` for the tenant: the answer to give at once, or the hold, renewed until it is let go or kept. */
export async function holdKey(
  runtime: SandboxRuntime,
  tenant: string,
  scope: string,
  key: string,
  print: string,
): Promise<{ answer: Answer } | { hold: KeyHold }> {
  const { store } = runtime;
  const known = await store.transaction(tenant, (state) =>
    beginIdempotent(state, scope, key, print, runtime.now(state), runtime.wallNow()),
  );
  if (known.kind === 'answer') return { answer: known.answer };
  // Note: renewed on a timer while the request runs, not by the work's own transactions: an advance sends webhooks
  // between its transactions for as long as its receivers take, so only a timer bounds the time between renewals, and
  // it covers every keyed operation alike. A timer left running (a work that never let go) stops at its next renewal,
  // which finds the key no longer in progress.
  const renewal = setInterval(() => {
    void store
      .transaction(tenant, (state) => renewIdempotent(state, scope, key, runtime.wallNow()))
      .then((held) => {
        if (!held) clearInterval(renewal);
      }, runtime.onError);
  }, RENEW_EVERY_MS);
  renewal.unref();
  const stop = () => clearInterval(renewal);
  return {
    hold: {
      key,
      release: () => {
        stop();
        return store.transaction(tenant, (state) => releaseIdempotent(state, scope, key));
      },
      // Note: retention counts from the answer on the tenant's clock, so a retry after an advance of days still replays;
      // a reset in between gave the tenant a new state without the record, and nothing is kept.
      keep: (body) => {
        stop();
        return store.transaction(tenant, (state) =>
          completeIdempotent(state, scope, key, success(body), runtime.now(state)),
        );
      },
    },
  };
}
