// Package root: typed clients for both variants, their named types, errors, pagination, and webhook verification.
export {
  createVariantAClient,
  type VariantAClient,
  type VariantAClientOptions,
  type VariantAPaths,
} from './client/variant-a.js';
export {
  createVariantBClient,
  type VariantBClient,
  type VariantBClientOptions,
  type VariantBPaths,
} from './client/variant-b.js';
export type {
  ClientLogger,
  ClientOptions,
  FetchLike,
  RedirectMode,
  RetryInfo,
  RetryOptions,
} from './client/options.js';
export type { Sleep } from './client/sleep.js';
export { paginate, type ListItem, type ListPath, type ListQuery, type PaginateInit } from './client/paginate.js';
export {
  describeProblem,
  hasProblemCode,
  isProblem,
  type Problem,
  type ProblemCode,
  type ProblemFieldError,
} from './client/problem.js';
export { isUndocumentedErrorBody, type UndocumentedErrorBody } from './client/undocumented.js';
export type { CallResult } from './client/typed-client.js';
export {
  ClientConfigError,
  NetworkError,
  ProblemError,
  RedirectError,
  RequestError,
  ResponseParseError,
  ResponseTooLargeError,
  TimeoutError,
  type RequestErrorDetails,
} from './client/errors/index.js';
export type * as VariantA from './types/variant-a.js';
export type * as VariantB from './types/variant-b.js';
export * from './webhooks/index.js';
