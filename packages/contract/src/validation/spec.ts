// The generated operation index, read by variant: an operation by id, and the response the contract declares for a status.
import { operationIndex } from '../../generated/operations/operations.js';
import type { Api, OperationSpec, ResponseSpec } from './types.js';

/** Every operation of a variant (or of the control API), in the order of its spec's `paths`. */
export function operationsOf(variant: Api): readonly OperationSpec[] {
  return operationIndex[variant].operations;
}

/** The operation with this operationId in a variant, or undefined. */
export function findOperation(variant: Api, operationId: string): OperationSpec | undefined {
  return operationIndex[variant].operations.find((operation) => operation.operationId === operationId);
}

/** The operation itself, or the one its id names; throws on an id the variant does not have, a caller's mistake. */
export function resolveOperation(variant: Api, operation: OperationSpec | string): OperationSpec {
  if (typeof operation !== 'string') return operation;
  const found = findOperation(variant, operation);
  if (!found) throw new RangeError(`Variant ${variant} has no operation ${operation}`);
  return found;
}

/** The response an operation declares for a status: the exact code, else its range (`4XX`), else `default`. */
export function declaredResponse(
  variant: Api,
  operation: OperationSpec,
  status: number,
): { key: string; response: ResponseSpec } | undefined {
  const key = [String(status), `${String(status).charAt(0)}XX`, 'default'].find((candidate) =>
    Object.hasOwn(operation.responses, candidate),
  );
  const name = key === undefined ? undefined : operation.responses[key];
  const response = name === undefined ? undefined : operationIndex[variant].responses[name];
  return key !== undefined && response ? { key, response } : undefined;
}
