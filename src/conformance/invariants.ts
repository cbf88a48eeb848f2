// The invariants stage: stateful sequences of requests, each answer judged by the contract (session.exchange) and the
// server's state checked after each step: a retrieve returns what was sent, lists are consistent, every status change is
// a row of the lifecycle tables, a refund stays within the processed amount, the balance adds up, and a replay is
// identical. With `sandbox` the kit moves the clock and picks outcomes (docs/sandbox-values.md) so every row happens;
// without it, each row the API alone cannot reach is reported as skipped.
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { amountOf, expectedBalance, units, type Listed } from './balance.js';
import { curlOf, recordOf } from './http.js';
import type { Evidence, Exchanged, ObjectKind, Session, Stage } from './session.js';
import { judgeChange, rowName, rowsOf, type Cause, type Judged, type Row } from './transitions.js';

export const INVARIANT_RULES = {
  retrieve_matches_create:
    'A created object is retrievable at once, and the create answer and a retrieve show every field the request sent, as sent, under the variant\'s names (amount and currency as requested, requisite, metadata returned as sent; expires_at = created_at + expires_in; a card number masked to its last four digits).',
  list_consistent:
    'A list is `{ data, pagination }` where pagination.total counts the whole list; pages read with limit and offset hold each item once, miss none, come newest first, and the objects the kit created are in them.',
  legal_transition:
    "Every status change is a row of the contract's lifecycle table (the x-lifecycle of PaymentStatus, PayoutStatus, AppealStatus) with that row's trigger and, where the variant shows it, its reason_code; an operation the table does not allow from the current status changes nothing.",
  refund_within_processed: 'Refund Payment refunds the whole processed amount and never more: refunded.amount ≤ processed.amount, in the payment\'s currency.',
  balance_adds_up:
    "The balance per currency is what the payments and payouts add up to (BalanceEntry): available = processed − refunded of every payment, less the amount of every payout still holding it (created, pending, processing, succeeded); pending = the requested amount of every payment still created or pending.",
  idempotent_replay:
    'Idempotency-Key: a retry with the same key and the same body replays the first answer (status and body, the same object); the same key with another body gets 422 idempotency_key_reused.',
  sandbox_control: 'With --sandbox the server has the sandbox\'s control API (/_sandbox): the clock advances and the event log is read with the same credentials.',
} as const;
type Check = keyof typeof INVARIANT_RULES;

const STAGE = 'invariants';
const CURRENCY = 'USD';
const LIFETIME = 600;
const OPERATIONS = {
  create: { payment: 'createPayment', payout: 'createPayout', appeal: 'createAppeal' },
  retrieve: { payment: 'retrievePayment', payout: 'retrievePayout', appeal: 'retrieveAppeal' },
  list: { payment: 'listPayments', payout: 'listPayouts', appeal: 'listAppeals' },
  cancel: { payment: 'cancelPayment', payout: 'cancelPayout', appeal: 'cancelAppeal' },
} as const;
/** The largest list read whole: the balance and completeness checks need every object, so a bigger tenant is skipped. */
const MAX_PAGES = 50;

type Json = Record<string, unknown>;
type Action = 'cancel' | 'confirm' | 'refund';

/** An object the kit created, with the status it last saw it in. */
interface Tracked {
  kind: ObjectKind;
  id: string;
  status: string;
  /** The clock may have moved since the kit last saw the object (always, without the sandbox's manual clock). */
  moved: boolean;
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
/** The object of a `{ data }` answer. */
const dataOf = (answer: Exchanged | undefined): Json | undefined => (answer && isObject(answer.json) && isObject(answer.json.data) ? answer.json.data : undefined);
const ok = (answer: Exchanged | undefined): answer is Exchanged => answer !== undefined && answer.status >= 200 && answer.status < 300;
const at = (value: unknown, path: string): unknown => path.split('.').reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), value);
const evidenceOf = (answer: Exchanged | undefined) => answer?.evidence;
const codeOf = (answer: Exchanged | undefined) => (answer && isObject(answer.json) ? answer.json.code : undefined);
const describe = (answer: Exchanged | undefined) => (answer ? `${answer.status}${typeof codeOf(answer) === 'string' ? ` ${String(codeOf(answer))}` : ''}` : 'no answer');

/** Where each field of a create request comes back, per kind (both variants name them alike). */
const ECHOES: Record<ObjectKind, [sent: string, returned: string, compare: 'equal' | 'amount' | 'last4'][]> = {
  payment: [['amount', 'requested.amount', 'amount'], ['currency', 'requested.currency', 'equal'], ['requisite.type', 'requisite.type', 'equal'], ['requisite.bank', 'requisite.bank', 'equal'], ['metadata', 'metadata', 'equal']],
  payout: [
    ['amount', 'requested.amount', 'amount'],
    ['currency', 'requested.currency', 'equal'],
    ['requisite.type', 'requisite.type', 'equal'],
    ['requisite.card_number', 'requisite.card_number', 'last4'],
    ['requisite.card_holder', 'requisite.card_holder', 'equal'],
    ['requisite.bank', 'requisite.bank', 'equal'],
    ['metadata', 'metadata', 'equal'],
  ],
  // Note: the Appeal shape has no transaction_id, so that field cannot be compared.
  appeal: [['amount', 'requested.amount', 'amount'], ['currency', 'requested.currency', 'equal'], ['metadata', 'metadata', 'equal']],
};

/** The differences between a create request and an object the server shows; empty when every field came back. */
function differences(kind: ObjectKind, sent: Json, shown: Json): string[] {
  const found: string[] = [];
  for (const [from, to, compare] of ECHOES[kind]) {
    const value = at(sent, from);
    if (value === undefined) continue;
    const back = at(shown, to);
    const digits = (text: unknown) => (typeof text === 'string' ? text.replace(/\D/g, '').slice(-4) : undefined);
    const equal = compare === 'amount' ? units(back) !== undefined && units(back) === units(value) : compare === 'last4' ? digits(back) === digits(value) : isDeepStrictEqual(value, back);
    if (!equal) found.push(`${to} is ${JSON.stringify(back)}, sent ${from} ${JSON.stringify(value)}`);
  }
  if (typeof sent.expires_in === 'number') {
    const lifetime = (Date.parse(String(shown.expires_at)) - Date.parse(String(shown.created_at))) / 1000;
    if (lifetime !== sent.expires_in) found.push(`expires_at ${JSON.stringify(shown.expires_at)} is ${lifetime} s after created_at ${JSON.stringify(shown.created_at)}, sent expires_in ${sent.expires_in}`);
  }
  return found;
}

/** The requests and checks of one run: what the kit created, which rows it saw, and the helpers the sequences use. */
function createKit(session: Session) {
  const rows = rowsOf(session.variant);
  const exercised = new Set<string>();
  const tracked: Tracked[] = [];
  const refusals = new Map<ObjectKind, string>();
  let refunds = 0;
  const sandbox = session.control !== undefined;

  const record = (subject: string, check: Check, passed: boolean, detail?: string, evidence?: Evidence) =>
    session.record(STAGE, subject, { check, ok: passed, rule: INVARIANT_RULES[check], ...(passed || !detail ? {} : { detail }) }, evidence);

  const send = (operationId: string, options?: Parameters<Session['call']>[2]) => session.call(STAGE, operationId, options);

  function noteChange(object: Tracked, judged: Judged, evidence: Evidence | undefined) {
    if (judged.row) {
      exercised.add(rowName(judged.row));
      record(rowName(judged.row), 'legal_transition', true, undefined, evidence);
    } else record(object.kind, 'legal_transition', judged.ok, `${object.kind} ${object.id}: ${judged.detail ?? ''}`, evidence);
  }

  /** Judges the status an answer shows of `object` against the one last seen. */
  function observe(object: Tracked, answer: Exchanged | undefined, cause: Cause) {
    const data = dataOf(answer);
    if (!ok(answer) || !data || data.id !== object.id || typeof data.status !== 'string') return;
    if (object.kind === 'payment') refundWithin(object, data, answer.evidence);
    if (data.status !== object.status) {
      const reason = 'reason_code' in data ? (data.reason_code as string | null) : undefined;
      noteChange(object, judgeChange(rows, object.kind, object.status, data.status, cause, reason, undefined, object.moved), answer.evidence);
      object.status = data.status;
    }
    object.moved = !sandbox;
  }

  function refundWithin(object: Tracked, data: Json, evidence: Evidence | undefined) {
    const processed = units(at(data, 'processed.amount') ?? '0');
    const refunded = units(at(data, 'refunded.amount') ?? '0');
    const currency = at(data, 'requested.currency');
    const refundedIn = at(data, 'refunded.currency') ?? currency;
    const passed = processed !== undefined && refunded !== undefined && refunded <= processed && refundedIn === currency;
    const detail = `payment ${object.id} (${String(data.status)}) shows refunded ${JSON.stringify(at(data, 'refunded'))} against processed ${JSON.stringify(at(data, 'processed'))}`;
    if (refunded !== 0n) refunds += 1;
    if (refunded !== 0n || !passed) record('payment', 'refund_within_processed', passed, `${detail}: ${processed !== undefined && refunded !== undefined && refunded > processed ? `${amountOf(refunded - processed)} more than was processed` : 'not comparable'}`, evidence);
  }

  /** Retrieves the object and judges its status. */
  async function read(object: Tracked) {
    const answer = await send(OPERATIONS.retrieve[object.kind], { id: object.id });
    if (ok(answer)) observe(object, answer, 'read');
    else record(object.kind, 'retrieve_matches_create', false, `Retrieve of ${object.kind} ${object.id}, which the kit created, answered ${describe(answer)}`, evidenceOf(answer));
    return answer;
  }

  /** Creates an object, checks the answer and a retrieve against the request, and tracks it; undefined when refused. */
  async function create(kind: ObjectKind, body: Json, key?: string): Promise<Tracked | undefined> {
    const answer = await send(OPERATIONS.create[kind], { body, key });
    const data = dataOf(answer);
    if (!ok(answer) || !data || typeof data.id !== 'string' || typeof data.status !== 'string') {
      if (!refusals.has(kind)) refusals.set(kind, `Create ${kind} was answered ${describe(answer)}`);
      return undefined;
    }
    const row = rows.find((candidate) => candidate.kind === kind && candidate.from === null) as Row;
    if (data.status === row.to) {
      exercised.add(rowName(row));
      record(rowName(row), 'legal_transition', true, undefined, answer.evidence);
    } else record(kind, 'legal_transition', false, `a new ${kind} has status ${data.status}; the table creates it as ${row.to}`, answer.evidence);
    const object: Tracked = { kind, id: data.id, status: data.status, moved: !sandbox };
    tracked.push(object);
    const fromCreate = differences(kind, body, data);
    record(kind, 'retrieve_matches_create', fromCreate.length === 0, `the create answer of ${kind} ${object.id}: ${fromCreate.join('; ')}`, answer.evidence);
    const retrieved = await read(object);
    const shown = dataOf(retrieved);
    if (ok(retrieved) && shown) {
      const fromRetrieve = differences(kind, body, shown);
      record(kind, 'retrieve_matches_create', fromRetrieve.length === 0, `the retrieve of ${kind} ${object.id}: ${fromRetrieve.join('; ')}`, retrieved.evidence);
    }
    return object;
  }

  /** Cancels, confirms or refunds; a refusal is read back, since a refused operation must change nothing. */
  async function act(action: Action, object: Tracked | undefined) {
    if (!object) return undefined;
    const operationId = action === 'cancel' ? OPERATIONS.cancel[object.kind] : `${action}Payment`;
    const body = action === 'confirm' ? { reference: 'conformance-invariants' } : undefined;
    const answer = await send(operationId, { id: object.id, body });
    if (ok(answer)) observe(object, answer, `api:${action}`);
    else await read(object);
    return answer;
  }

  /** The report's view of a control request (its answer is described in the detail). */
  const controlEvidence = (method: string, path: string, query: [string, string][] = [], body?: unknown): Evidence => {
    const request = recordOf(session.baseUrl, { method, path, query, headers: {}, ...(body === undefined ? {} : { body }) }, session.credentials, true);
    return { request, curl: curlOf(request) };
  };

  /** Moves the sandbox's clock, then reads every object the kit created. */
  async function advance(seconds: number): Promise<boolean> {
    const control = session.control;
    if (!control) return false;
    // Note: response.ok, not `error`: openapi-fetch leaves `error` undefined when a refusal has no body.
    const { response } = await control.POST('/_sandbox/clock/advance', { body: { seconds } });
    record('advanceClock', 'sandbox_control', response.ok, `POST /_sandbox/clock/advance answered ${response.status}`, controlEvidence('POST', '/_sandbox/clock/advance', [], { seconds }));
    if (!response.ok) return false;
    for (const object of tracked) object.moved = true;
    for (const object of tracked) await read(object);
    return true;
  }

  /** Every status change the sandbox's event log holds for the kit's objects, each a row with its trigger. */
  async function eventLog() {
    const control = session.control;
    if (!control) return;
    for (const object of tracked) {
      const { data, response } = await control.GET('/_sandbox/events', { params: { query: { object_id: object.id, limit: 100 } } });
      const evidence = controlEvidence('GET', '/_sandbox/events', [['object_id', object.id], ['limit', '100']]);
      record('listEvents', 'sandbox_control', response.ok && data !== undefined, `GET /_sandbox/events?object_id=${object.id} answered ${response.status}`, evidence);
      if (!response.ok || !data) return;
      for (const change of [...(Array.isArray(data.data) ? data.data : [])].reverse()) {
        const reason = isObject(change.event.data) && 'reason_code' in change.event.data ? (change.event.data.reason_code as string | null) : undefined;
        const judged = judgeChange(rows, object.kind, change.from, change.to, 'control', reason, change.trigger, false);
        noteChange(object, judged, evidence);
      }
    }
  }

  /** Reads a whole list page by page and checks the pages against each other; the items, or undefined when too long to read. */
  async function list(kind: ObjectKind): Promise<Json[] | undefined> {
    const operationId = OPERATIONS.list[kind];
    const first = await send(operationId, { query: [['limit', '1'], ['offset', '0']] });
    const total = at(first?.json, 'pagination.total');
    if (!ok(first) || typeof total !== 'number') {
      record(operationId, 'list_consistent', false, `List ${kind}s answered ${describe(first)}${ok(first) ? ' without pagination.total' : ''}`, first?.evidence);
      return undefined;
    }
    // Note: about three pages, so that a list of a few items still has page boundaries to get wrong.
    const limit = Math.min(100, Math.max(1, Math.ceil(total / 3)));
    const problems: string[] = [];
    const items: Json[] = [];
    const pageOf = new Map<string, number>();
    let evidence = first.evidence;
    let offset = 0;
    for (let page = 0; page <= Math.ceil(total / limit); page += 1, offset += limit) {
      if (page === MAX_PAGES) {
        session.skip(STAGE, operationId, `the list holds ${total} ${kind}s; only the first ${MAX_PAGES * limit} were read, so completeness and the balance were not checked`);
        return undefined;
      }
      const answer = await send(operationId, { query: [['limit', String(limit)], ['offset', String(offset)]] });
      const data = answer && isObject(answer.json) ? answer.json.data : undefined;
      if (!ok(answer) || !Array.isArray(data)) {
        problems.push(`the page at offset ${offset} answered ${describe(answer)}`);
        break;
      }
      evidence = answer.evidence;
      const pagination = at(answer.json, 'pagination');
      if (at(pagination, 'total') !== total) problems.push(`pagination.total changed from ${total} to ${JSON.stringify(at(pagination, 'total'))} at offset ${offset}`);
      if (at(pagination, 'limit') !== limit || at(pagination, 'offset') !== offset) problems.push(`the page asked with limit ${limit} and offset ${offset} says limit ${JSON.stringify(at(pagination, 'limit'))} and offset ${JSON.stringify(at(pagination, 'offset'))}`);
      const expected = Math.max(0, Math.min(limit, total - offset));
      if (data.length !== expected) problems.push(`the page at offset ${offset} holds ${data.length} item${data.length === 1 ? '' : 's'} where pagination.total ${total} and limit ${limit} call for ${expected}`);
      for (const item of data.filter(isObject)) {
        const id = String(item.id);
        const previous = pageOf.get(id);
        if (previous !== undefined) problems.push(`${kind} ${id} is on the pages at offset ${previous} and ${offset}`);
        else pageOf.set(id, offset);
        const last = items.at(-1);
        if (last && Date.parse(String(item.created_at)) > Date.parse(String(last.created_at))) problems.push(`${kind} ${id} (created ${String(item.created_at)}) comes after a newer one (created ${String(last.created_at)})`);
        items.push(item);
      }
    }
    if (pageOf.size !== total) problems.push(`pagination.total is ${total}, but the pages hold ${pageOf.size} ${kind}s`);
    const missing = tracked.filter((object) => object.kind === kind && !pageOf.has(object.id));
    if (problems.length === 0 && missing.length > 0) problems.push(`created but not in the list: ${missing.map((object) => object.id).join(', ')}`);
    record(operationId, 'list_consistent', problems.length === 0, `List ${kind}s: ${problems.slice(0, 4).join('; ')}`, evidence);
    return items;
  }

  /** Lists payments, payouts and appeals, then checks the balance against what the payments and payouts add up to. */
  async function listsAndBalance() {
    const payments = await list('payment');
    for (const item of payments ?? []) {
      const object = tracked.find((candidate) => candidate.id === item.id);
      if (object) refundWithin(object, item, undefined);
    }
    const payouts = await list('payout');
    await list('appeal');
    session.progress(STAGE, 'lists');
    if (!payments || !payouts) {
      session.skip(STAGE, 'retrieveBalance', 'the payments and payouts could not all be listed, so the balance they add up to is unknown');
      return;
    }
    const answer = await send('retrieveBalance');
    const balances = at(dataOf(answer), 'balances');
    if (!ok(answer) || !Array.isArray(balances)) {
      record('retrieveBalance', 'balance_adds_up', false, `Retrieve Balance answered ${describe(answer)}`, answer?.evidence);
      return;
    }
    const { balance, unreadable } = expectedBalance(payments as Listed[], payouts as Listed[]);
    const reported = new Map(balances.filter(isObject).map((entry) => [String(entry.currency), entry]));
    const problems = unreadable.map((text) => `an object's ${text}`);
    for (const currency of new Set([...balance.keys(), ...reported.keys()])) {
      const want = balance.get(currency) ?? { available: 0n, pending: 0n };
      const got = reported.get(currency);
      for (const field of ['available', 'pending'] as const) {
        const value = got ? units(String(got[field]).replace(/^-/, '')) : 0n;
        const signed = got && String(got[field]).startsWith('-') && value !== undefined ? -value : value;
        if (signed !== want[field]) problems.push(`${currency} ${field} is ${got ? JSON.stringify(got[field]) : '(no entry)'}, the listed payments and payouts add up to ${amountOf(want[field])}`);
      }
    }
    record('retrieveBalance', 'balance_adds_up', problems.length === 0, problems.join('; '), answer.evidence);
    session.progress(STAGE, 'balance');
  }

  /** Notes every row not seen, with why, so none passes silently. */
  function skipUnexercised() {
    for (const row of rows.filter((candidate) => !exercised.has(rowName(candidate)))) {
      const refused = refusals.get(row.kind);
      const reason = sandbox
        ? `not reached: driving the sandbox's clock and outcomes did not produce this change${refused ? ` (${refused})` : ''}`
        : refused && !tracked.some((object) => object.kind === row.kind)
          ? `${refused}, so no ${row.kind} could be followed`
          : row.trigger.startsWith('clock:')
            ? `the server's clock makes this change; with --sandbox the kit moves the clock (POST /_sandbox/clock/advance) and picks the outcome`
            : `no ${row.kind} reached ${row.from ?? 'creation'} through the API alone; with --sandbox the clock takes it there`;
      session.skip(STAGE, rowName(row), reason);
    }
    if (refunds === 0) session.skip(STAGE, 'refundPayment', 'no payment the kit saw was refunded (a refund needs a succeeded payment), so no refund was compared with its processed amount');
  }

  return { send, create, act, read, advance, eventLog, listsAndBalance, skipUnexercised, record, tracked };
}
type Kit = ReturnType<typeof createKit>;

const metadata = (label: string) => ({ conformance: 'invariants', label });
const payment = (amount: string, label: string) => ({ amount, currency: CURRENCY, expires_in: LIFETIME, requisite: { type: 'card', bank: 'CONFORMANCE BANK' }, metadata: metadata(label) });
const payout = (amount: string, label: string) => ({
  amount,
  currency: CURRENCY,
  expires_in: LIFETIME,
  requisite: { type: 'card', card_number: '4111111111111111', card_holder: 'CONFORMANCE KIT', bank: 'CONFORMANCE BANK' },
  metadata: metadata(label),
});
const appeal = (transaction: string, amount: string, label: string) => ({ transaction_id: transaction, amount, currency: CURRENCY, metadata: metadata(label) });

/** Replays a create with the same key and body, then with the same key and another body. */
async function replay(session: Session, kit: Kit) {
  const key = randomUUID();
  const body = payment('25.00', 'replayed');
  const first = await kit.send(OPERATIONS.create.payment, { body, key });
  const again = await kit.send(OPERATIONS.create.payment, { body, key });
  const other = await kit.send(OPERATIONS.create.payment, { body: { ...body, amount: '26.00' }, key });
  if (!ok(first)) return;
  const ids = [dataOf(first)?.id, dataOf(again)?.id].map(String);
  const identical = again?.status === first.status && isDeepStrictEqual(again.json, first.json);
  const detail = again?.status !== first.status ? `the replay answered ${describe(again)}, the first request ${first.status}` : ids[0] !== ids[1] ? `the replay made another payment: ${ids[1]}, the first answer ${ids[0]}` : 'the replay answered another body than the first request';
  kit.record('createPayment', 'idempotent_replay', identical, `same Idempotency-Key and body: ${detail}`, again?.evidence);
  const reused = other?.status === 422 && codeOf(other) === 'idempotency_key_reused';
  kit.record('createPayment', 'idempotent_replay', reused, `same Idempotency-Key with another amount: answered ${describe(other)}${ok(other) ? ` (payment ${String(dataOf(other)?.id)})` : ''}, not 422 idempotency_key_reused`, other?.evidence);
  session.progress(STAGE, 'idempotent replay');
}

/** What the API alone can do: create, retrieve, cancel, confirm (Variant A), refuse a refund of a canceled payment. */
async function probes(session: Session, kit: Kit) {
  await replay(session, kit);
  const kept = await kit.create('payment', payment('25.00', 'kept'));
  const canceled = await kit.create('payment', payment('30.00', 'canceled'));
  await kit.act('cancel', canceled);
  // Note: a canceled payment is final: the refund must be refused, and a retrieve must still show it canceled.
  await kit.act('refund', canceled);
  if (canceled) await kit.read(canceled);
  if (session.variant === 'a') await kit.act('confirm', kept);
  session.progress(STAGE, 'payments');
  const sent = await kit.create('payout', payout('10.00', 'probe'));
  await kit.act('cancel', sent);
  session.progress(STAGE, 'payouts');
  if (kept) await kit.act('cancel', await kit.create('appeal', appeal(kept.id, '5.00', 'canceled')));
  session.progress(STAGE, 'appeals');
}

/**
 * Every row of every table, on the sandbox: outcomes picked by the amounts of docs/sandbox-values.md (9.01 to 9.07),
 * the clock moved by the documented steps (payments: pending 2 s, then 5 s; payouts: 2, 3, 5 s; appeals: 5, 10 s),
 * and every object read after each move, so each change is seen as one row.
 */
async function lifecycles(session: Session, kit: Kit): Promise<void> {
  const funds = await kit.create('payment', payment('1000.00', 'funds the payouts'));
  const refunded = await kit.create('payment', payment('50.00', 'refunded'));
  for (const [amount, label] of [['9.01', 'declined'], ['9.02', 'amount mismatch'], ['9.03', 'provider error'], ['9.04', 'requisites unavailable'], ['9.05', 'expires pending'], ['9.06', 'expires created']]) {
    await kit.create('payment', payment(amount as string, label as string));
  }
  const confirmed = await kit.create('payment', payment('9.05', 'confirmed'));
  const canceledPending = await kit.create('payment', payment('9.05', 'canceled pending'));
  await kit.act('cancel', await kit.create('payment', payment('20.00', 'canceled created')));
  if (!(await kit.advance(2))) return;
  await kit.act('cancel', canceledPending);
  if (session.variant === 'a') await kit.act('confirm', confirmed);
  await kit.advance(5);
  await kit.act('refund', refunded);
  session.progress(STAGE, 'payment lifecycle');

  await kit.create('payout', payout('10.00', 'succeeds'));
  await kit.create('payout', payout('9.01', 'fails'));
  await kit.create('payout', payout('9.05', 'expires pending'));
  const canceledPayout = await kit.create('payout', payout('9.05', 'canceled pending'));
  // Note: the table has no created → canceled for payouts, so this cancel must be refused; the payout then expires.
  await kit.act('cancel', await kit.create('payout', payout('9.06', 'expires created')));
  const target = funds?.id ?? 'pay_unknown';
  await kit.create('appeal', appeal(target, '5.00', 'accepted'));
  await kit.create('appeal', appeal(target, '9.01', 'rejected'));
  await kit.act('cancel', await kit.create('appeal', appeal(target, '5.00', 'canceled pending')));
  const underReview = await kit.create('appeal', appeal(target, '9.07', 'canceled under review'));
  await kit.advance(2);
  await kit.act('cancel', canceledPayout);
  await kit.advance(3);
  await kit.act('cancel', underReview);
  await kit.advance(5);
  await kit.advance(10);
  session.progress(STAGE, 'payout and appeal lifecycles');
  await kit.advance(LIFETIME + 300);
  session.progress(STAGE, 'expiries');
}

async function run(session: Session): Promise<void> {
  const kit = createKit(session);
  // Note: the tenant is never reset (POST /_sandbox/reset), even with --sandbox: the other stages share it (the webhooks
  // stage registers its endpoint there first), and the credentials may name a tenant someone keeps. So the balance is
  // checked against every payment and payout the server lists, not against only what this stage created.
  await probes(session, kit);
  await kit.listsAndBalance();
  if (session.control) {
    await lifecycles(session, kit);
    await kit.eventLog();
    await kit.listsAndBalance();
  }
  kit.skipUnexercised();
  session.progress(STAGE, 'transitions');
}

export const invariantsStage: Stage = { run };
