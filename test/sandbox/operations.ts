// The contract's operations as the bundled specs declare them, and one way to call any of them through a typed client
// by its operationId, so that tests derive their cases from the contract instead of a list that could fall behind.
import { createVariantAClient, createVariantBClient, type ClientOptions } from '../../packages/contract/src/index.js';
import { BundledSpec, type Node } from '../contract/bundled-spec.js';

export type Variant = 'A' | 'B';
export const VARIANTS: readonly Variant[] = ['A', 'B'];
const SPECS: Record<Variant, BundledSpec> = {
  A: await BundledSpec.open('Variant A', 'variant-a'),
  B: await BundledSpec.open('Variant B', 'variant-b'),
};

/** One operation as a bundled spec declares it: where it is, its one path parameter, and its response statuses. */
export interface Operation {
  variant: Variant;
  operationId: string;
  method: 'GET' | 'POST';
  path: string;
  pathParam: string | undefined;
  /** Whether it requires an Idempotency-Key. */
  keyed: boolean;
  hasBody: boolean;
  statuses: string[];
}

function operationsOf(variant: Variant): Operation[] {
  const spec = SPECS[variant];
  return spec.operations().map((op) => {
    const parameters = spec.parameters(op);
    return {
      variant,
      operationId: op.operationId,
      method: op.method as Operation['method'],
      path: op.path,
      pathParam: parameters.find((p) => p.in === 'path')?.name,
      keyed: parameters.some((p) => p.in === 'header' && p.name === 'Idempotency-Key' && p.value['required'] === true),
      hasBody: spec.requestBody(op) !== undefined,
      statuses: Object.keys(op.node['responses'] as Node),
    };
  });
}

/** Every operation of both bundles. */
export const OPERATIONS: readonly Operation[] = VARIANTS.flatMap(operationsOf);

/** The operation of a variant with this operationId, if the variant has it. */
export const findOperation = (variant: Variant, operationId: string) =>
  OPERATIONS.find((o) => o.variant === variant && o.operationId === operationId);

/** What the typed clients' methods resolve to. */
export interface Result {
  data?: any;
  error?: any;
  response: Response;
}

/** A typed client called with a path template from the spec, so that every operation goes through one function. */
export type AnyClient = Record<'GET' | 'POST', (path: string, init?: Record<string, unknown>) => Promise<Result>>;

/** The parts of one request: the object it addresses, its query, its body, its Idempotency-Key. */
export interface Parts {
  id?: string;
  query?: Record<string, string | number>;
  body?: unknown;
  key?: string;
}

/** Calls an operation through a typed client. */
export function callOperation(client: AnyClient, op: Operation, parts: Parts = {}): Promise<Result> {
  const params: Record<string, unknown> = {};
  if (op.pathParam) params['path'] = { [op.pathParam]: parts.id };
  if (parts.query) params['query'] = parts.query;
  if (parts.key !== undefined) params['header'] = { 'Idempotency-Key': parts.key };
  return client[op.method](op.path, { params, ...(parts.body === undefined ? {} : { body: parts.body }) });
}

/** A tenant's credentials in a variant: a bearer token, or a key pair. */
export type Credentials = { accessToken: string } | { publicKey: string; secretKey: string };

let sequence = 0;
/** A value no other call in this process gets: `prefix` and a counter. */
export const unique = (prefix: string) => `${prefix}${++sequence}`;

/** New credentials, so that each test has a tenant of its own. */
export const newCredentials = (variant: Variant, label: string): Credentials =>
  variant === 'A'
    ? { accessToken: unique(`tok_${label}_`) }
    : { publicKey: unique(`pk_${label}_`), secretKey: unique(`sk_${label}_`) };

/** The typed client of the variant the credentials belong to (no retries: each answer is the one under test). */
export function typedClient(credentials: Credentials, options: ClientOptions): AnyClient {
  const shared = { retry: false as const, ...options };
  const client =
    'accessToken' in credentials
      ? createVariantAClient({ ...shared, ...credentials })
      : createVariantBClient({ ...shared, ...credentials });
  return client as unknown as AnyClient;
}
