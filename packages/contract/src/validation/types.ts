// The shapes every part of packages/contract/src/validation shares: a violation, and the headers it reads.
export type { Api, Variant } from '../../generated/operations/operations.js';
export type { OperationSpec, ParameterSpec, ResponseSpec } from './operation-index-types.js';

/** Which part of a message a violation is in. */
export type ViolationLocation = 'path' | 'query' | 'header' | 'body' | 'status';

/**
 * One way a request or response breaks the contract. `pointer` is what the contract's ProblemFieldError holds: a JSON
 * Pointer into the body, or `/` and the parameter's or header's name; `in` says which, and `detail` says what is wrong.
 */
export interface Violation {
  in: ViolationLocation;
  pointer: string;
  detail: string;
}

/** Headers read by name, case-insensitively: a fetch `Headers`, or anything with the same `get`. */
export interface HeadersLike {
  get(name: string): string | null;
}

/** A raw body: text, or bytes that must be UTF-8. */
export type RawBody = string | Uint8Array;
