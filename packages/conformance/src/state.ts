// A server that keeps no state, as the contract mock (Prism) does, answers every request from the contract's examples:
// what in its answers gives it away. The report says so up front, and marks the checks that need state (registry.ts).
import type { OperationSpec } from '@merchant-payments/contract/internal/validation/index.js';
import { kindOf, type Answer } from './checks.js';
import type { Draft } from './http.js';

/** What the report says of the checks that need state, beside each of them. */
export const NEEDS_STATE = 'needs a server that keeps state';

/** Watches the answers of a run for what only a server without state does; `sign` is the first one seen, if any. */
export interface StateWatch {
  /** Looks at one answer to a request that fits the contract, sent with the credentials. */
  observe(operation: OperationSpec, draft: Draft, answer: Answer, object: { id: string } | undefined): void;
  sign(): string | undefined;
}

/**
 * The signs: a retrieve by id answered with an object of another id (a stateful server answers 404 for an id it does not
 * know), and two creates with different Idempotency-Keys answered with one and the same object.
 */
export function createStateWatch(): StateWatch {
  let seen: string | undefined;
  const created = new Map<string, string | undefined>();
  return {
    observe(operation, draft, answer, object) {
      const kind = kindOf(operation.path);
      if (seen !== undefined || answer.status < 200 || answer.status >= 300 || !object || !kind) return;
      if (operation.method === 'GET' && /\/\{[^}]+\}$/.test(operation.path)) {
        const asked = decodeURIComponent(draft.path.split('/').at(-1) ?? '');
        if (asked !== object.id) seen = `GET ${draft.path} answered ${kind} ${object.id}, not the ${kind} asked for`;
        return;
      }
      if (operation.method === 'POST' && !operation.path.includes('{')) {
        const key = draft.headers['Idempotency-Key'];
        const id = `${kind} ${object.id}`;
        if (created.has(id) && created.get(id) !== key)
          seen = `two Create requests with different Idempotency-Keys were both answered with ${id}`;
        else created.set(id, key);
      }
    },
    sign: () => seen,
  };
}
