// Validation against the contract with no HTTP framework in it: find the operation a request addresses, check the
// request and the response (or a webhook body), and build the problem+json the contract answers with.
export { matchOperation, type OperationMatch } from './match.js';
export { declaredResponse, findOperation, operationsOf } from './spec.js';
export {
  parametersFit,
  validateRequest,
  type RequestInput,
  type RequestProblemCode,
  type RequestValidation,
  type ValidRequest,
} from './request.js';
export { validateResponse, type ResponseInput } from './response.js';
export { validateWebhookBody } from './webhook.js';
export { problemDetails, type ProblemInit } from '../shared/problem.js';
export { requestProblem, responseProblem, type ProblemContext } from './problem.js';
export { problemCatalogue } from '../../generated/operations/problems.js';
export type { ProblemSpec } from './operation-index-types.js';
export type {
  Api,
  HeadersLike,
  OperationSpec,
  ParameterSpec,
  RawBody,
  ResponseSpec,
  Variant,
  Violation,
  ViolationLocation,
} from './types.js';
