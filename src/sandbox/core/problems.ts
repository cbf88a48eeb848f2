// The problems the core answers with: the contract's `code`s, each with its HTTP status and title.
import type { components } from '../../../generated/types/variant-a.js';

type FieldError = components['schemas']['ProblemFieldError'];

// Note: titles are the contract's (components/responses); insufficient_balance is the sandbox's own, because the
// contract states no code for a payout or refund the balance cannot cover and an Amount cannot be negative.
const CATALOGUE = {
  validation_failed: { status: 422, title: 'Unprocessable request' },
  not_found: { status: 404, title: 'Not found' },
  invalid_state: { status: 422, title: 'Status does not allow the operation' },
  insufficient_balance: { status: 422, title: 'Insufficient balance' },
  idempotency_key_missing: { status: 400, title: 'Idempotency-Key missing' },
  idempotency_key_reused: { status: 422, title: 'Idempotency-Key reused' },
  idempotency_request_in_progress: { status: 409, title: 'Request in progress' },
} as const;

/** A problem `code` the core answers with. */
export type ProblemCode = keyof typeof CATALOGUE;

/** A problem without the parts only HTTP knows (`type` URI, `instance`, `request_id`), which the adapter adds. */
export interface CoreProblem {
  status: (typeof CATALOGUE)[ProblemCode]['status'];
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
