// Shared set-up for the sandbox core tests: a manual-clock store, bodies, and a way to bring an object to a status.
import { expect } from 'vitest';
import { LIFECYCLES } from '../../../packages/contract/generated/sandbox/lifecycles.js';
import {
  creationRow,
  DEFAULT_EXPIRES_IN,
  DEFAULT_OUTCOMES,
  MAGIC_VALUES,
  pathOf,
  type Answer,
  type CommandResult,
  type MagicValue,
  type ObjectKind,
  type RecordOf,
  type RequestOf,
} from '../../../packages/sandbox/src/core/index.js';
import { createStore, type SandboxStore, type SandboxStoreOptions } from './sync-store.js';

/** The tenant most tests use. */
export const T = 'tenant-a';

/** A manual-clock store. */
export const newStore = (options: SandboxStoreOptions = {}) => createStore({ seed: 'test', ...options });

let keys = 0;
/** A fresh Idempotency-Key. */
export const key = () => `key-${++keys}`;

/** The body of a successful answer; fails the test, naming the problem, otherwise. */
export function ok<T>(answer: Answer<T>): T {
  if (!answer.ok)
    expect.fail(`expected success, got ${answer.status} ${answer.problem.code}: ${answer.problem.detail}`);
  return answer.body;
}

/** A create-payment body. */
export const paymentBody = (over: Partial<RequestOf['payment']> = {}): RequestOf['payment'] => ({
  amount: '100.00',
  currency: 'EUR',
  requisite: { type: 'card' },
  ...over,
});

/** A create-payout body. */
export const payoutBody = (over: Partial<RequestOf['payout']> = {}): RequestOf['payout'] => ({
  amount: '10.00',
  currency: 'EUR',
  requisite: { type: 'card', card_number: '4111111111111111' },
  ...over,
});

/** Gives the tenant `amount` available in `currency`, through a payment that succeeds. */
export function fund(store: SandboxStore, amount = '100000.00', currency = 'EUR', tenant = T): void {
  const p = ok(
    store.execute(tenant, { type: 'createPayment', idempotency_key: key(), body: paymentBody({ amount, currency }) })
      .answer,
  );
  store.advance(tenant, 60);
  expect(ok(store.execute(tenant, { type: 'retrievePayment', id: p.id }).answer).status).toBe('succeeded');
}

/** A create body for `kind` carrying magic value `magic` (none: the default outcome); appeals need a transaction. */
export function bodyWith<K extends ObjectKind>(
  kind: K,
  magic: MagicValue | undefined,
  transactionId = '',
): RequestOf[K] {
  const set = (body: Record<string, unknown>) => {
    if (!magic) return body;
    if (magic.field === 'amount') return { ...body, amount: magic.value };
    const requisite = { ...(body.requisite as object), [magic.field.slice('requisite.'.length)]: magic.value };
    return { ...body, requisite };
  };
  if (kind === 'payment') return set(paymentBody()) as RequestOf[K];
  if (kind === 'payout') return set(payoutBody()) as RequestOf[K];
  return set({ transaction_id: transactionId, amount: '10.00', currency: 'EUR' }) as RequestOf[K];
}

const createType = { payment: 'createPayment', payout: 'createPayout', appeal: 'createAppeal' } as const;
const retrieveType = { payment: 'retrievePayment', payout: 'retrievePayout', appeal: 'retrieveAppeal' } as const;

/** Creates an object of `kind` (funding payouts, and giving appeals a payment to appeal against). */
export function create<K extends ObjectKind>(
  store: SandboxStore,
  kind: K,
  magic?: MagicValue,
  tenant = T,
): RecordOf[K] {
  if (kind === 'payout') fund(store, '100000.00', 'EUR', tenant);
  let transactionId = '';
  if (kind === 'appeal') {
    transactionId = ok(
      store.execute(tenant, { type: 'createPayment', idempotency_key: key(), body: paymentBody() }).answer,
    ).id;
  }
  const body = bodyWith(kind, magic, transactionId);
  return ok(store.execute(tenant, { type: createType[kind], idempotency_key: key(), body } as never).answer);
}

/** The object as the store has it now. */
export const current = <K extends ObjectKind>(store: SandboxStore, kind: K, id: string, tenant = T): RecordOf[K] =>
  ok(store.execute(tenant, { type: retrieveType[kind], id } as never).answer);

/** The path an object created with `magic` (undefined: none) takes. */
export const pathWith = (kind: ObjectKind, magic: MagicValue | undefined) =>
  pathOf(kind, magic?.outcome ?? DEFAULT_OUTCOMES[kind]);

/** The command each merchant-call trigger runs, per kind. */
export const CALLS: Record<string, Partial<Record<ObjectKind, string>>> = {
  'api:cancel': { payment: 'cancelPayment', payout: 'cancelPayout', appeal: 'cancelAppeal' },
  'api:refund': { payment: 'refundPayment' },
  'api:confirm': { payment: 'confirmPayment' },
};

/** Runs the merchant call `trigger` on an object. */
export function call(
  store: SandboxStore,
  kind: ObjectKind,
  trigger: string,
  id: string,
  tenant = T,
): CommandResult<RecordOf[ObjectKind]> {
  const type = CALLS[trigger]?.[kind];
  if (!type) throw new Error(`no ${trigger} for a ${kind}`);
  const body = type === 'confirmPayment' ? { body: { reference: 'transfer-1' } } : {};
  return store.execute(tenant, { type, id, idempotency_key: key(), ...body } as never);
}

/** Creates an object and brings it to `status`: along its own processing, or by the call or expiry that leads there. */
export function reach<K extends ObjectKind>(store: SandboxStore, kind: K, status: string, tenant = T): RecordOf[K] {
  const initial = creationRow(kind).to;
  const options = [...MAGIC_VALUES.filter((m) => m.kind === kind), undefined];
  // Note: prefer an outcome that stops at the status, so that the object stays there while the test acts on it.
  const stays = options.findIndex((m) =>
    status === initial ? pathWith(kind, m).length === 0 : pathWith(kind, m).at(-1)?.to === status,
  );
  const passes = options.findIndex((m) => pathWith(kind, m).some((step) => step.to === status));
  if (stays < 0 && passes < 0) {
    const row = rowsTo(kind, status)[0];
    if (!row?.from) throw new Error(`nothing leads a ${kind} to ${status}`);
    const before = reach(store, kind, row.from[0], tenant);
    if (row.trigger === 'clock:expires_at') store.advance(tenant, DEFAULT_EXPIRES_IN);
    else ok(call(store, kind, row.trigger, before.id, tenant).answer);
    return settle(store, kind, before.id, status, tenant);
  }
  const record = create(store, kind, options[stays >= 0 ? stays : passes], tenant);
  return settle(store, kind, record.id, status, tenant);
}

/** Runs the clock a second at a time until the object is in `status`, and returns it. */
function settle<K extends ObjectKind>(
  store: SandboxStore,
  kind: K,
  id: string,
  status: string,
  tenant: string,
): RecordOf[K] {
  for (let s = 0; s < 120 && current(store, kind, id, tenant).status !== status; s++) store.advance(tenant, 1);
  const now = current(store, kind, id, tenant);
  expect(now.status, `could not bring a ${kind} to ${status}`).toBe(status);
  return now;
}

/** The rows of the contract's table that lead to `status`, creation excluded. */
export const rowsTo = (kind: ObjectKind, status: string) =>
  LIFECYCLES[kind].transitions.filter((r) => r.from !== null && r.to === status);

/** Every transition of every table, one entry per `from` status. */
export const TRANSITIONS = (['payment', 'payout', 'appeal'] as const).flatMap((kind) =>
  LIFECYCLES[kind].transitions.flatMap((r) =>
    (r.from ?? []).map((from) => ({
      kind,
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- widens the inferred statuses to string, so that a test compares any status with them
      from: from as string,
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- as above
      to: r.to as string,
      trigger: r.trigger,
      reason_code: r.reason_code,
    })),
  ),
);

/** A transition's name in test titles. */
export const label = (t: (typeof TRANSITIONS)[number]) =>
  `${t.kind} ${t.from} -> ${t.to} (${t.trigger}, reason_code ${t.reason_code})`;
