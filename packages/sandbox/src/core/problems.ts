// The problems the core answers with: the contract's `code`s, each with its HTTP status and title.
import { problemCatalogue } from '@merchant-payments/contract/generated/operations/problems.js';
import type { components } from '@merchant-payments/contract/generated/types/variant-a.js';
import type { ProblemSpec } from '@merchant-payments/contract/internal/validation/operation-index-types.js';

type FieldError = components['schemas']['ProblemFieldError'];

// Note: statuses and titles are the contract's (its error responses, generated into problemCatalogue), so a code the
// core answers with is one the contract declares.
const CODES = [
  'validation_failed',
  'not_found',
  'invalid_state',
  'idempotency_key_missing',
  'idempotency_key_reused',
  'idempotency_request_in_progress',
  'insufficient_balance',
  'quota_exceeded',
] as const;

/** A problem `code` the core answers with. */
export type ProblemCode = (typeof CODES)[number];

const CATALOGUE = Object.fromEntries(CODES.map((code) => [code, problemCatalogue[code]])) as Record<
  ProblemCode,
  ProblemSpec
>;

/** A problem without the parts only HTTP knows (`type` URI, `instance`, and `request_id` unless a key keeps it), which the adapter adds. */
export interface CoreProblem {
  status: number;
  code: ProblemCode;
  title: string;
  detail: string;
  errors?: FieldError[];
  /** The id of the request that first got this problem, when an Idempotency-Key keeps it for replays. */
  request_id?: string;
}

/** The problem `code` with this occurrence's detail (and, for validation failures, what was wrong where). */
export function problem(code: ProblemCode, detail: string, errors?: FieldError[]): CoreProblem {
  const { status, title } = CATALOGUE[code];
  return errors ? { status, code, title, detail, errors } : { status, code, title, detail };
}
