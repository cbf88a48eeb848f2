// The problems the core answers with: the contract's `code`s, each with its HTTP status and title.
import { problemCatalogue, type ProblemSpec } from '../../../generated/operations/operations.js';
import type { components } from '../../../generated/types/variant-a.js';

type FieldError = components['schemas']['ProblemFieldError'];

// Note: statuses and titles are the contract's (its error responses, generated into problemCatalogue);
// insufficient_balance is the sandbox's own, because the contract states no code for a payout or refund the balance
// cannot cover and an Amount cannot be negative.
const CONTRACT_CODES = ['validation_failed', 'not_found', 'invalid_state', 'idempotency_key_missing', 'idempotency_key_reused', 'idempotency_request_in_progress'] as const;
const CATALOGUE: Record<ProblemCode, { status: number; title: string }> = {
  ...(Object.fromEntries(CONTRACT_CODES.map((code) => [code, problemCatalogue[code]!])) as Record<(typeof CONTRACT_CODES)[number], ProblemSpec>),
  insufficient_balance: { status: 422, title: 'Insufficient balance' },
};

/** A problem `code` the core answers with. */
export type ProblemCode = (typeof CONTRACT_CODES)[number] | 'insufficient_balance';

/** A problem without the parts only HTTP knows (`type` URI, `instance`, `request_id`), which the adapter adds. */
export interface CoreProblem {
  status: number;
  code: ProblemCode;
  title: string;
  detail: string;
  errors?: FieldError[];
}

/** The problem `code` with this occurrence's detail (and, for validation failures, what was wrong where). */
export function problem(code: ProblemCode, detail: string, errors?: FieldError[]): CoreProblem {
  const { status, title } = CATALOGUE[code];
  return errors ? { status, code, title, detail, errors } : { status, code, title, detail };
}
