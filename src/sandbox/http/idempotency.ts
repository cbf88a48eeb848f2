// The Idempotency-Key, held in one place for every operation: looked up (replay, 409, 422 reused) before the request
// is checked, so a second request with the same key gets 409 meanwhile, and let go if the request never runs.
import { success } from '../core/answer.js';
import { beginIdempotent, completeIdempotent, releaseIdempotent, type Answer, type TenantState } from '../core/index.js';
import type { SandboxRuntime } from '../runtime.js';

/** A key held for one request: give it up, or keep an answer under it (when the core does not keep it itself). */
export interface KeyHold {
  key: string;
  /** Forgets the key inside a transaction the caller already has (the command's own, where the core takes it again). */
  releaseIn(tenant: TenantState): void;
  release(): Promise<void>;
  keep(body: unknown): Promise<void>;
}

/** Holds `key` in `scope` for the tenant: the answer to give at once, or the hold. */
export async function holdKey(runtime: SandboxRuntime, tenant: string, scope: string, key: string, print: string): Promise<{ answer: Answer } | { hold: KeyHold }> {
  const { store } = runtime;
  const known = await store.transaction(tenant, (state) => beginIdempotent(state, scope, key, print, runtime.now(state)));
  if (known.kind === 'answer') return { answer: known.answer };
  const releaseIn = (state: TenantState) => releaseIdempotent(state, scope, key);
  return {
    hold: {
      key,
      releaseIn,
      release: () => store.transaction(tenant, releaseIn),
      // Note: retention counts from the answer on the tenant's clock, so a retry after an advance of days still replays;
      // a reset in between gave the tenant a new state without the record, and nothing is kept.
      keep: (body) => store.transaction(tenant, (state) => completeIdempotent(state, scope, key, success(body), runtime.now(state))),
    },
  };
}
