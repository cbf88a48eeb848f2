// What a variant adapter is: its credentials, and the shape each operation's answer takes. Which path and method
// reach an operation is the generated index's; which core command an operation runs is written once here, since the
// commands are variant-neutral.
import type { Command, RequestOf } from '../core/index.js';
import type { Authentication, CredentialSource } from '../runtime.js';
import type { StoreSession } from '../stores/types.js';

export type { Authentication, CredentialSource };
import { asKept, one, page } from './shapes.js';

/** The parts of a request a command is built from (the one path parameter, whatever the variant calls it). */
export interface CommandParts {
  id: string;
  query: URLSearchParams;
  body: unknown;
}

/** An operation of the main API: every command but the control API's forceStatus. */
export type MerchantOperationId = Exclude<Command['type'], 'forceStatus'>;

/** Turns the core's success body into the contract's response body (wrapper included). */
export type Shape = (body: unknown) => unknown;

/** A variant: its name and key in the operation index, how it authenticates, and each operation's answer shape. */
export interface VariantAdapter {
  name: 'A' | 'B';
  index: 'a' | 'b';
  /** The tenant the request's credentials name in `source`, or why not. */
  authenticate(
    headers: Headers,
    source: CredentialSource,
    session?: StoreSession,
  ): Authentication | Promise<Authentication>;
  /**
   * The merchant the credentials would name when that is known before `authenticate` reads the store (open mode's own
   * credentials), so that the pipeline enters its budget first; undefined otherwise.
   */
  merchantBefore?(headers: Headers, source: CredentialSource): string | undefined;
  /** Headers of a 401 answer (a `WWW-Authenticate` challenge). */
  challenge: Record<string, string>;
  /** By operationId, for exactly the operations the variant's index lists (test/sandbox/routes.test.ts). */
  shapes: Partial<Record<MerchantOperationId, Shape>>;
}

// Note: query values are passed on as they come; the core answers 422 for values outside the contract's bounds.
const listQuery = (query: URLSearchParams) => {
  const number = (name: string) => (query.has(name) ? Number(query.get(name)) : undefined);
  return { status: (query.get('status') ?? undefined) as never, limit: number('limit'), offset: number('offset') };
};

/** The core command each merchant operation runs. */
export const COMMANDS: Record<MerchantOperationId, (parts: CommandParts) => Command> = {
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
};

/** The shapes both variants give payouts, appeals and the balance: the records as kept. */
export const PAYOUT_APPEAL_BALANCE_SHAPES = {
  createPayout: one(asKept),
  listPayouts: page(asKept),
  retrievePayout: one(asKept),
  cancelPayout: one(asKept),
  createAppeal: one(asKept),
  listAppeals: page(asKept),
  retrieveAppeal: one(asKept),
  cancelAppeal: one(asKept),
  retrieveBalance: one(asKept),
} satisfies Partial<Record<MerchantOperationId, Shape>>;
