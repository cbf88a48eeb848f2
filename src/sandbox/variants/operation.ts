// What a variant adapter is: its credentials, and a table of the contract's operations, each with its path, the
// core command it runs and the shape its answer takes. The commands are variant-neutral, so they are written once here.
import type { Command, RequestOf } from '../core/index.js';
import type { TenantStore } from '../stores/types.js';
import { asKept, one, page } from '../shapes.js';

/** The parts of a request a command is built from (the one path parameter, whatever the variant calls it). */
export interface RequestParts {
  id: string;
  query: URLSearchParams;
  body: unknown;
}

/** One operation of a variant: its route in the spec's own spelling, its command, and the shape of its answer. */
export interface OperationDef {
  operationId: Command['type'];
  method: 'GET' | 'POST';
  /** The spec's path template, prefix included, e.g. `/merchant/v1/payments/{paymentId}`. */
  path: string;
  command(parts: RequestParts): Command;
  /** Turns the core's success body into the contract's response body (wrapper included). */
  shape(body: unknown): unknown;
}

/** Who is calling: the tenant (`learned`: its credentials were first seen now), or why they were refused. */
export type Authentication = { ok: true; tenant: string; learned?: boolean } | { ok: false; detail: string };

/** A variant: its name, how it authenticates, and its operations. */
export interface VariantAdapter {
  name: 'A' | 'B';
  /** Variant B reads and learns the tenant's secret key in a transaction of `store`. */
  authenticate(headers: Headers, store: TenantStore): Authentication | Promise<Authentication>;
  /** Headers of a 401 answer (a `WWW-Authenticate` challenge). */
  challenge: Record<string, string>;
  operations: OperationDef[];
}

// Note: query values are passed on as they come; the core answers 422 for values outside the contract's bounds.
const listQuery = (query: URLSearchParams) => {
  const number = (name: string) => (query.has(name) ? Number(query.get(name)) : undefined);
  return { status: (query.get('status') ?? undefined) as never, limit: number('limit'), offset: number('offset') };
};

const COMMANDS: Record<Command['type'], ((parts: RequestParts) => Command) | undefined> = {
  createPayment: ({ body }) => ({ type: 'createPayment', body: body as RequestOf['payment'] }),
  listPayments: ({ query }) => ({ type: 'listPayments', ...listQuery(query) }),
  retrievePayment: ({ id }) => ({ type: 'retrievePayment', id }),
  confirmPayment: ({ id, body }) => ({ type: 'confirmPayment', id, body: body as never }),
  cancelPayment: ({ id }) => ({ type: 'cancelPayment', id }),
  refundPayment: ({ id }) => ({ type: 'refundPayment', id }),
  createPayout: ({ body }) => ({ type: 'createPayout', body: body as RequestOf['payout'] }),
  listPayouts: ({ query }) => ({ type: 'listPayouts', ...listQuery(query) }),
  retrievePayout: ({ id }) => ({ type: 'retrievePayout', id }),
  cancelPayout: ({ id }) => ({ type: 'cancelPayout', id }),
  createAppeal: ({ body }) => ({ type: 'createAppeal', body: body as RequestOf['appeal'] }),
  listAppeals: ({ query }) => ({ type: 'listAppeals', ...listQuery(query) }),
  retrieveAppeal: ({ id }) => ({ type: 'retrieveAppeal', id }),
  cancelAppeal: ({ id }) => ({ type: 'cancelAppeal', id }),
  retrieveBalance: () => ({ type: 'retrieveBalance' }),
  // Note: forcing a status is the control API's, never a merchant operation.
  forceStatus: undefined,
};

/** One row of a variant's table. */
export function route(method: OperationDef['method'], path: string, operationId: Command['type'], shape: OperationDef['shape']): OperationDef {
  const command = COMMANDS[operationId];
  if (!command) throw new Error(`${operationId} is not a merchant operation`);
  return { operationId, method, path, command, shape };
}

/** The rows both variants share apart from their prefix and path parameter names: payouts, appeals and the balance. */
export function payoutAppealBalanceRoutes(prefix: string, payoutId: string, appealId: string): OperationDef[] {
  return [
    route('POST', `${prefix}/payouts`, 'createPayout', one(asKept)),
    route('GET', `${prefix}/payouts`, 'listPayouts', page(asKept)),
    route('GET', `${prefix}/payouts/{${payoutId}}`, 'retrievePayout', one(asKept)),
    route('POST', `${prefix}/payouts/{${payoutId}}/cancel`, 'cancelPayout', one(asKept)),
    route('POST', `${prefix}/appeals`, 'createAppeal', one(asKept)),
    route('GET', `${prefix}/appeals`, 'listAppeals', page(asKept)),
    route('GET', `${prefix}/appeals/{${appealId}}`, 'retrieveAppeal', one(asKept)),
    route('POST', `${prefix}/appeals/{${appealId}}/cancel`, 'cancelAppeal', one(asKept)),
    route('GET', `${prefix}/balance`, 'retrieveBalance', one(asKept)),
  ];
}
