// The core's one entry point for requests: a variant-neutral command and the current time in; the answer and the
// status changes out, the tenant's state updated in place. Idempotency is handled here, once for every operation.
import { failure, success, type Answer } from './answer.js';
import { createAppeal, cancelAppeal } from './appeals.js';
import { runDue } from './advance.js';
import { balanceOf } from './balance.js';
import { forceStatus, type ForceStatusInput } from './control.js';
import { beginIdempotent, completeIdempotent, fingerprint, keyScope, releaseIdempotent } from './idempotency.js';
import { DEFAULT_LIMIT, isPageQuery, list, retrieve, type Handled, type ListQuery } from './objects.js';
import { cancelPayment, confirmPayment, createPayment, refundPayment } from './payments.js';
import { cancelPayout, createPayout } from './payouts.js';
import type { TenantReads, TenantState } from './tenant.js';
import type {
  AppealRecord,
  ObjectKind,
  BalanceBody,
  ConfirmPaymentBody,
  Page,
  PaymentRecord,
  PayoutRecord,
  RequestOf,
  StatusChange,
} from './types.js';

// Note: request_id is the HTTP layer's id for this request; a problem the key keeps carries it, so that a replay
// repeats the first answer byte for byte. It is not part of the fingerprint.
type Keyed = { idempotency_key?: string | undefined; request_id?: string | undefined };

/** Every command, named after the contract's operationId (forceStatus: the control API). */
export type Command =
  | ({ type: 'createPayment'; body: RequestOf['payment'] } & Keyed)
  | { type: 'retrievePayment'; id: string }
  | ({ type: 'listPayments' } & ListQuery<PaymentRecord['status']>)
  | ({ type: 'cancelPayment'; id: string } & Keyed)
  | ({ type: 'refundPayment'; id: string } & Keyed)
  | ({ type: 'confirmPayment'; id: string; body: ConfirmPaymentBody } & Keyed)
  | ({ type: 'createPayout'; body: RequestOf['payout'] } & Keyed)
  | { type: 'retrievePayout'; id: string }
  | ({ type: 'listPayouts' } & ListQuery<PayoutRecord['status']>)
  | ({ type: 'cancelPayout'; id: string } & Keyed)
  | ({ type: 'createAppeal'; body: RequestOf['appeal'] } & Keyed)
  | { type: 'retrieveAppeal'; id: string }
  | ({ type: 'listAppeals' } & ListQuery<AppealRecord['status']>)
  | ({ type: 'cancelAppeal'; id: string } & Keyed)
  | { type: 'retrieveBalance' }
  | ({ type: 'forceStatus' } & ForceStatusInput);

/** The body of a successful answer to each command. */
export interface ResultOf {
  createPayment: PaymentRecord;
  retrievePayment: PaymentRecord;
  listPayments: Page<PaymentRecord>;
  cancelPayment: PaymentRecord;
  refundPayment: PaymentRecord;
  confirmPayment: PaymentRecord;
  createPayout: PayoutRecord;
  retrievePayout: PayoutRecord;
  listPayouts: Page<PayoutRecord>;
  cancelPayout: PayoutRecord;
  createAppeal: AppealRecord;
  retrieveAppeal: AppealRecord;
  listAppeals: Page<AppealRecord>;
  cancelAppeal: AppealRecord;
  retrieveBalance: BalanceBody;
  forceStatus: PaymentRecord | PayoutRecord | AppealRecord;
}

/** What executing a command gives back; the answer's records are frozen. `events` also holds what fell due on the clock before the command ran. */
export interface CommandResult<T> {
  tenant: TenantState;
  answer: Answer<T>;
  events: StatusChange[];
}

/** The commands that need an Idempotency-Key (every state-changing operation of the contract). */
export const KEYED_COMMANDS = new Set<Command['type']>([
  'createPayment',
  'cancelPayment',
  'refundPayment',
  'confirmPayment',
  'createPayout',
  'cancelPayout',
  'createAppeal',
  'cancelAppeal',
]);

const KINDS = {
  retrievePayment: 'payment',
  listPayments: 'payment',
  cancelPayment: 'payment',
  refundPayment: 'payment',
  confirmPayment: 'payment',
  retrievePayout: 'payout',
  listPayouts: 'payout',
  cancelPayout: 'payout',
  retrieveAppeal: 'appeal',
  listAppeals: 'appeal',
  cancelAppeal: 'appeal',
} as const;

/** What a command will read: the object it names, its Idempotency-Key's record, the page it lists. */
export function namedBy(c: Command): TenantReads {
  const key = (c as Keyed).idempotency_key;
  const reads: TenantReads = { keys: key ? [keyScope(c.type, key)] : [] };
  const kind = KINDS[c.type as keyof typeof KINDS] as ObjectKind | undefined;
  if (c.type === 'forceStatus') reads.objects = [{ kind: c.kind, id: c.id }];
  else if ('id' in c && kind) reads.objects = [{ kind, id: c.id }];
  else if (c.type === 'createAppeal' && typeof c.body?.transaction_id === 'string')
    reads.objects = (['payment', 'payout'] as const).map((k) => ({ kind: k, id: c.body.transaction_id }));
  if (kind && c.type.startsWith('list')) {
    const { status, limit = DEFAULT_LIMIT, offset = 0 } = c as ListQuery;
    // Note: only a page the list will read; a query it refuses names none.
    if (isPageQuery(kind, status, limit, offset)) reads.pages = [{ kind, status, limit, offset }];
  }
  return reads;
}

function handle(tenant: TenantState, c: Command, at: number): Handled {
  switch (c.type) {
    case 'createPayment':
      return createPayment(tenant, c.body, at);
    case 'retrievePayment':
      return retrieve(tenant, 'payment', c.id);
    case 'listPayments':
      return list(tenant, 'payment', c);
    case 'cancelPayment':
      return cancelPayment(tenant, c.id, at);
    case 'refundPayment':
      return refundPayment(tenant, c.id, at);
    case 'confirmPayment':
      return confirmPayment(tenant, c.id, at);
    case 'createPayout':
      return createPayout(tenant, c.body, at);
    case 'retrievePayout':
      return retrieve(tenant, 'payout', c.id);
    case 'listPayouts':
      return list(tenant, 'payout', c);
    case 'cancelPayout':
      return cancelPayout(tenant, c.id, at);
    case 'createAppeal':
      return createAppeal(tenant, c.body, at);
    case 'retrieveAppeal':
      return retrieve(tenant, 'appeal', c.id);
    case 'listAppeals':
      return list(tenant, 'appeal', c);
    case 'cancelAppeal':
      return cancelAppeal(tenant, c.id, at);
    case 'retrieveBalance':
      return { answer: success(balanceOf(tenant)), changes: [] };
    case 'forceStatus':
      return forceStatus(tenant, c, at);
  }
}

/**
 * Runs what fell due up to `now` on the tenant's clock, then the command at that time; a keyed command looks its
 * Idempotency-Key up and keeps its answer under it, in the same transaction. Without `wallNow` (ms since the epoch),
 * a key left in progress is never taken as abandoned.
 */
export function execute<C extends Command>(
  tenant: TenantState,
  command: C,
  now: number,
  wallNow = -Infinity,
): CommandResult<ResultOf[C['type']]> {
  const events = runDue(tenant, now);
  const at = tenant.time;
  const done = (answer: Answer, changes: StatusChange[] = []) => ({
    tenant,
    // Note: not copied; its records are frozen versions that a later transition replaces rather than changes.
    answer: answer as Answer<ResultOf[C['type']]>,
    events: [...events, ...changes],
  });
  if (!KEYED_COMMANDS.has(command.type)) {
    const handled = handle(tenant, command, at);
    return done(handled.answer, handled.changes);
  }
  const { idempotency_key: key, request_id: requestId, ...request } = command as C & Keyed;
  if (!key)
    return done(failure('idempotency_key_missing', 'This request changes state and needs an Idempotency-Key header.'));
  // Note: the key is taken and answered within this call, in the store's one transaction, so no other request ever
  // reads this lease; `wallNow` only tells whether a key left in progress by a holder that died may be taken anew.
  const check = beginIdempotent(tenant, command.type, key, fingerprint(request), at, wallNow);
  if (check.kind === 'answer') return done(check.answer);
  let handled: Handled;
  try {
    handled = handle(tenant, command, at);
  } catch (error) {
    releaseIdempotent(tenant, command.type, key);
    throw error;
  }
  const answer =
    handled.answer.ok || requestId === undefined
      ? handled.answer
      : { ...handled.answer, problem: { ...handled.answer.problem, request_id: requestId } };
  completeIdempotent(tenant, command.type, key, answer, at);
  return done(answer, handled.changes);
}
