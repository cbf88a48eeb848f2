// A server that keeps no state, as the contract mock (Prism) does, answers every request from the contract's examples:
// what in its answers gives it away, and which checks can therefore never pass on it. The report says so up front.
import type { OperationSpec } from '../validation/index.js';
import type { Answer } from './checks.js';
import type { Draft } from './http.js';
import { INVARIANT_RULES } from './invariants.js';
import type { CheckResult } from './types.js';
import { WEBHOOK_RULES } from './webhook-checks.js';

/** What the report says of the checks that need state, beside each of them. */
export const NEEDS_STATE = 'needs a server that keeps state';

// Note: each of these follows an object from one request to the next, or waits for what a status change sends.
const STATEFUL: ReadonlySet<string> = new Set<string>([
  ...Object.keys(INVARIANT_RULES).filter((check) => check !== 'sandbox_control'),
  'webhook_for_status_change' satisfies keyof typeof WEBHOOK_RULES,
  'webhook_event_id_stable' satisfies keyof typeof WEBHOOK_RULES,
]);

/**
 * Whether a check can pass only on a server that keeps state: every step of a shipped workflow (each one uses what an
 * earlier step created, or needs the server to know its objects and credentials), the invariants stage's own checks,
 * and the webhooks a status change sends. The checks of single answers (status, media type, headers, schema, 401
 * without credentials, 4xx for a broken request) hold on any server.
 */
export function needsState(check: Pick<CheckResult, 'stage' | 'check'>): boolean {
  if (check.stage === 'flows') return check.check.startsWith('step ');
  return STATEFUL.has(check.check);
}

/** Watches the answers of a run for what only a server without state does; `sign` is the first one seen, if any. */
export interface StateWatch {
  /** Looks at one answer to a request that fits the contract, sent with the credentials. */
  observe(operation: OperationSpec, draft: Draft, answer: Answer, object: { id: string } | undefined): void;
  sign(): string | undefined;
}

const KINDS: Record<string, string> = { payments: 'payment', payouts: 'payout', appeals: 'appeal' };

/**
 * The signs: a retrieve by id answered with an object of another id (a stateful server answers 404 for an id it does not
 * know), and two creates with different Idempotency-Keys answered with one and the same object.
 */
export function createStateWatch(): StateWatch {
  let seen: string | undefined;
  const created = new Map<string, string | undefined>();
  return {
    observe(operation, draft, answer, object) {
      if (seen !== undefined || answer.status < 200 || answer.status >= 300 || !object) return;
      const segments = operation.path.split('/');
      const kind = KINDS[segments.find((segment) => segment in KINDS) ?? ''];
      if (!kind) return;
      const last = segments.at(-1) ?? '';
      if (operation.method === 'GET' && /^\{[^}]+\}$/.test(last)) {
        const asked = decodeURIComponent(draft.path.split('/').at(-1) ?? '');
        if (asked !== object.id) seen = `GET ${draft.path} answered ${kind} ${object.id}, not the ${kind} asked for`;
        return;
      }
      if (operation.method === 'POST' && !operation.path.includes('{')) {
        const key = draft.headers['Idempotency-Key'];
        const id = `${kind} ${object.id}`;
        if (created.has(id) && created.get(id) !== key) seen = `two Create requests with different Idempotency-Keys were both answered with ${id}`;
        else created.set(id, key);
      }
    },
    sign: () => seen,
  };
}
