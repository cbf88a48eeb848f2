// What the invariants stage's commands do to the server and check on each answer: create (the answer and a retrieve
// show what was sent), read, act (cancel, confirm, refund), move the sandbox's clock; every status change judged by the
// lifecycle tables, every refund against the processed amount. The stage's requests go through a budget.
import { isDeepStrictEqual } from 'node:util';
import type { SandboxControlClient } from '@merchant-payments/contract/internal/sandbox-control/client.js';
import { STEP_DELAY_SECONDS, pathOf } from '@merchant-payments/contract/internal/sandbox-model/outcomes.js';
import type { ObjectKind } from '@merchant-payments/contract/internal/sandbox-model/types.js';
import type { Variant } from '@merchant-payments/contract/internal/validation/index.js';
import { amountOf, units } from './balance.js';
import type { Call, Exchanged } from './exchange.js';
import type { Draft } from './http.js';
import type { CheckName } from './registry.js';
import type { Evidence, Outcome, Recorder, Skipper } from './results.js';
import { judgeSeen, rowName, rowsOf, type Judged, type Row } from './transitions.js';

/** What the stage is given: its requests, its records, the sandbox's control API when --sandbox is on. */
export interface InvariantsOptions {
  variant: Variant;
  seed: number;
  /** The most requests the stage's command sequences send (the sandbox's control requests aside). */
  budget: number;
  call: Call;
  record: Recorder;
  skip: Skipper;
  progress: (subject: string) => void;
  /** Adds to the detail of a failed check: the shortest failing command sequence. */
  annotate: (subject: string, check: string, text: string) => void;
  control?: SandboxControlClient;
  /** What the report shows of a request sent through the control client. */
  evidence: (draft: Draft) => Evidence;
}

/** An object the kit created, with the status it last saw it in and, on the sandbox, the outcome it asked for. */
export interface Tracked {
  kind: ObjectKind;
  id: string;
  status: string;
  outcome: string | undefined;
  /** The kit's clock (seconds it moved the sandbox's) when the object was created, reached its status, was last seen. */
  born: number;
  since: number;
  seen: number;
}

export type Json = Record<string, unknown>;
export type Action = 'cancel' | 'confirm' | 'refund';

/** The lifetime the kit's payments and payouts ask for (expires_in); the sandbox's clock is moved past it. */
export const LIFETIME = 600;
export const OPERATIONS = {
  create: { payment: 'createPayment', payout: 'createPayout', appeal: 'createAppeal' },
  retrieve: { payment: 'retrievePayment', payout: 'retrievePayout', appeal: 'retrieveAppeal' },
  list: { payment: 'listPayments', payout: 'listPayouts', appeal: 'listAppeals' },
  cancel: { payment: 'cancelPayment', payout: 'cancelPayout', appeal: 'cancelAppeal' },
} as const;

/** Thrown by a request past the budget: the sequence ends there, unjudged. */
export class OutOfBudget extends Error {}

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
export const ok = (answer: Exchanged | undefined): answer is Exchanged =>
  answer !== undefined && answer.status >= 200 && answer.status < 300;
export const at = (value: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), value);
/** The object of a `{ data }` answer. */
export const dataOf = (answer: Exchanged | undefined): Json | undefined =>
  answer && isObject(answer.json) && isObject(answer.json.data) ? answer.json.data : undefined;
export const codeOf = (answer: Exchanged | undefined) =>
  answer && isObject(answer.json) ? answer.json.code : undefined;
export const describe = (answer: Exchanged | undefined) =>
  answer ? `${answer.status}${typeof codeOf(answer) === 'string' ? ` ${String(codeOf(answer))}` : ''}` : 'no answer';

/** Where each field of a create request comes back, per kind (both variants name them alike). */
const ECHOES: Record<ObjectKind, [sent: string, returned: string, compare: 'equal' | 'amount' | 'last4'][]> = {
  payment: [
    ['amount', 'requested.amount', 'amount'],
    ['currency', 'requested.currency', 'equal'],
    ['requisite.type', 'requisite.type', 'equal'],
    ['requisite.bank', 'requisite.bank', 'equal'],
    ['metadata', 'metadata', 'equal'],
  ],
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
  appeal: [
    ['amount', 'requested.amount', 'amount'],
    ['currency', 'requested.currency', 'equal'],
    ['metadata', 'metadata', 'equal'],
  ],
};

/** The differences between a create request and an object the server shows; empty when every field came back. */
function differences(kind: ObjectKind, sent: Json, shown: Json): string[] {
  const found: string[] = [];
  for (const [from, to, compare] of ECHOES[kind]) {
    const value = at(sent, from);
    if (value === undefined) continue;
    const back = at(shown, to);
    const digits = (text: unknown) => (typeof text === 'string' ? text.replace(/\D/g, '').slice(-4) : undefined);
    const equal =
      compare === 'amount'
        ? units(back) !== undefined && units(back) === units(value)
        : compare === 'last4'
          ? digits(back) === digits(value)
          : isDeepStrictEqual(value, back);
    if (!equal) found.push(`${to} is ${JSON.stringify(back)}, sent ${from} ${JSON.stringify(value)}`);
  }
  if (typeof sent.expires_in === 'number') {
    const lifetime = (Date.parse(String(shown.expires_at)) - Date.parse(String(shown.created_at))) / 1000;
    if (lifetime !== sent.expires_in)
      found.push(
        `expires_at ${JSON.stringify(shown.expires_at)} is ${lifetime} s after created_at ${JSON.stringify(shown.created_at)}, sent expires_in ${sent.expires_in}`,
      );
  }
  return found;
}

/** The stage's state across its command sequences, and what the commands do with the server. */
export function createKit(options: InvariantsOptions) {
  const { variant, budget, control } = options;
  const rows = rowsOf(variant);
  const creation = (kind: ObjectKind) => rows.find((row) => row.kind === kind && row.from === null) as Row;
  const expiring = (kind: ObjectKind): (string | null)[] =>
    rows.filter((row) => row.kind === kind && row.trigger === 'clock:expires_at').map((row) => row.from);
  const kit = {
    variant,
    sandbox: control !== undefined,
    rows,
    /** The names of the rows seen happen, each as one change. */
    exercised: new Set<string>(),
    /** Why a create of each kind was refused, the first time it was. */
    refusals: new Map<ObjectKind, string>(),
    refunds: 0,
    /** Seconds the kit moved the sandbox's clock; undefined once a move failed. */
    clock: control ? (0 as number | undefined) : undefined,
    /** Whether a payment the kit saw succeed left funds for a payout. */
    funded: false,
    created: [] as Tracked[],
    /** How often a journey aimed at each row: one that did not get there after a few tries is no longer aimed at. */
    aimed: new Map<string, number>(),
    /** Requests sent exploring; while fast-check shrinks a failing sequence, the requests it may still send. */
    spent: 0,
    shrink: undefined as number | undefined,
    /** Which failures fail the current command sequence (set by the stage); none when undefined. */
    counts: undefined as ((failure: { subject: string; check: string }) => boolean) | undefined,
    /** The checks failed so far, but sandbox_control (a server without the control API is no failing sequence). */
    failed: [] as { subject: string; check: string }[],
    /** Why the stage must stop (the server stopped answering, the deadline): no command runs after it. */
    stopped: undefined as Error | undefined,
    /** Whether a sequence still runs: the stage goes on, exploring within the budget or shrinking within its share. */
    live: () => kit.stopped === undefined && (kit.shrink === undefined ? kit.spent < budget : kit.shrink > 0),
    progress: options.progress,
    /** Whether a command or sequence failed since `mark`, in a way that counts. */
    failedSince: (mark: number) => kit.failed.slice(mark).some((failure) => kit.counts?.(failure) === true),
    record(subject: string, outcome: Outcome, evidence?: Evidence) {
      if (!outcome.ok && outcome.check !== 'sandbox_control') kit.failed.push({ subject, check: outcome.check });
      options.record(subject, outcome, evidence);
    },
    check(subject: string, check: CheckName, passed: boolean, detail?: string, evidence?: Evidence) {
      kit.record(subject, { check, ok: passed, ...(passed || !detail ? {} : { detail }) }, evidence);
    },
    async call(operationId: string, request?: Parameters<Call>[1]): Promise<Exchanged | undefined> {
      if (!kit.live()) throw new OutOfBudget();
      if (kit.shrink === undefined) kit.spent += 1;
      else kit.shrink -= 1;
      const answer = await options.call(operationId, request);
      for (const check of answer ? answer.failed : ['request_completed'])
        kit.failed.push({ subject: operationId, check });
      return answer;
    },

    noteChange(object: Tracked, judged: Judged, evidence: Evidence | undefined) {
      if (judged.row) {
        kit.exercised.add(rowName(judged.row));
        kit.check(rowName(judged.row), 'legal_transition', true, undefined, evidence);
      } else
        kit.check(
          object.kind,
          'legal_transition',
          judged.ok,
          `${object.kind} ${object.id}: ${judged.detail ?? ''}`,
          evidence,
        );
    },

    /** Judges the status an answer shows of `object` against the one last seen. */
    observe(object: Tracked, answer: Exchanged | undefined, cause: 'read' | `api:${Action}`) {
      const data = dataOf(answer);
      if (!ok(answer) || !data || data.id !== object.id || typeof data.status !== 'string') return;
      if (object.kind === 'payment') kit.refundWithin(object, data, answer.evidence);
      if (data.status !== object.status) {
        const reason = 'reason_code' in data ? (data.reason_code as string | null) : undefined;
        const clockMoved = kit.clock === undefined || object.seen !== kit.clock;
        kit.noteChange(
          object,
          judgeSeen(rows, { kind: object.kind, from: object.status, to: data.status, cause, reason, clockMoved }),
          answer.evidence,
        );
        [object.status, object.since] = [data.status, kit.clock ?? 0];
        if (object.kind === 'payment' && data.status === 'succeeded') kit.funded = true;
      }
      object.seen = kit.clock ?? 0;
    },

    refundWithin(object: Tracked, data: Json, evidence: Evidence | undefined) {
      const processed = units(at(data, 'processed.amount') ?? '0');
      const refunded = units(at(data, 'refunded.amount') ?? '0');
      const currency = at(data, 'requested.currency');
      const passed =
        processed !== undefined &&
        refunded !== undefined &&
        refunded <= processed &&
        (at(data, 'refunded.currency') ?? currency) === currency;
      if (refunded !== 0n) kit.refunds += 1;
      if (refunded === 0n && passed) return;
      const over =
        processed !== undefined && refunded !== undefined && refunded > processed
          ? `${amountOf(refunded - processed)} more than was processed`
          : 'not comparable';
      const detail = `payment ${object.id} (${String(data.status)}) shows refunded ${JSON.stringify(at(data, 'refunded'))} against processed ${JSON.stringify(at(data, 'processed'))}: ${over}`;
      kit.check('payment', 'refund_within_processed', passed, detail, evidence);
    },

    /** Retrieves the object and judges its status. */
    async read(object: Tracked) {
      const answer = await kit.call(OPERATIONS.retrieve[object.kind], { id: object.id });
      if (ok(answer)) kit.observe(object, answer, 'read');
      else
        kit.check(
          object.kind,
          'retrieve_matches_create',
          false,
          `Retrieve of ${object.kind} ${object.id}, which the kit created, answered ${describe(answer)}`,
          (answer as Exchanged | undefined)?.evidence,
        );
      return answer;
    },

    /** Creates an object, checks the answer and a retrieve against the request, and tracks it; undefined when refused. */
    async create(kind: ObjectKind, body: Json, outcome?: string): Promise<Tracked | undefined> {
      const answer = await kit.call(OPERATIONS.create[kind], { body });
      const data = dataOf(answer);
      if (!ok(answer) || !data || typeof data.id !== 'string' || typeof data.status !== 'string') {
        if (codeOf(answer) === 'insufficient_balance') kit.funded = false;
        if (!kit.refusals.has(kind)) kit.refusals.set(kind, `Create ${kind} was answered ${describe(answer)}`);
        return undefined;
      }
      const row = creation(kind);
      if (data.status === row.to) {
        kit.exercised.add(rowName(row));
        kit.check(rowName(row), 'legal_transition', true, undefined, answer.evidence);
      } else
        kit.check(
          kind,
          'legal_transition',
          false,
          `a new ${kind} has status ${data.status}; the table creates it as ${row.to}`,
          answer.evidence,
        );
      const now = kit.clock ?? 0;
      const object: Tracked = { kind, id: data.id, status: data.status, outcome, born: now, since: now, seen: now };
      kit.created.push(object);
      const fromCreate = differences(kind, body, data);
      kit.check(
        kind,
        'retrieve_matches_create',
        fromCreate.length === 0,
        `the create answer of ${kind} ${object.id}: ${fromCreate.join('; ')}`,
        answer.evidence,
      );
      const retrieved = await kit.read(object);
      const shown = dataOf(retrieved);
      if (ok(retrieved) && shown) {
        const fromRetrieve = differences(kind, body, shown);
        kit.check(
          kind,
          'retrieve_matches_create',
          fromRetrieve.length === 0,
          `the retrieve of ${kind} ${object.id}: ${fromRetrieve.join('; ')}`,
          retrieved.evidence,
        );
      }
      return object;
    },

    /**
     * Cancels, confirms or refunds, then reads the object back: the status an action answers with is the one it keeps,
     * and an action the server refused changed nothing.
     */
    async act(action: Action, object: Tracked) {
      const operationId = action === 'cancel' ? OPERATIONS.cancel[object.kind] : `${action}Payment`;
      const answer = await kit.call(operationId, {
        id: object.id,
        body: action === 'confirm' ? { reference: 'conformance-invariants' } : undefined,
      });
      if (ok(answer)) kit.observe(object, answer, `api:${action}`);
      await kit.read(object);
    },

    /**
     * When the sandbox will next move the object, on the kit's clock: its outcome's next step (docs/sandbox-values.md), or
     * its expiry; undefined when nothing will.
     */
    dueOf(object: Tracked): number | undefined {
      if (object.outcome === undefined) return undefined;
      const path: string[] = [creation(object.kind).to, ...pathOf(object.kind, object.outcome).map((step) => step.to)];
      const index = path.indexOf(object.status);
      const delay =
        index < 0 || index === path.length - 1
          ? undefined
          : (STEP_DELAY_SECONDS[object.kind] as Record<string, number>)[path[index + 1] as string];
      const due = [
        delay === undefined ? undefined : object.since + delay,
        expiring(object.kind).includes(object.status) ? object.born + LIFETIME : undefined,
      ];
      return due.every((time) => time === undefined)
        ? undefined
        : Math.min(...due.filter((time) => time !== undefined));
    },

    /** Moves the sandbox's clock to when `object` moves next, then reads every object of `objects` due by then. */
    async tick(object: Tracked, objects: readonly Tracked[]): Promise<boolean> {
      const due = kit.dueOf(object);
      if (!control || kit.clock === undefined || due === undefined) return false;
      const seconds = Math.max(0, due - kit.clock);
      const body = { seconds };
      // Note: response.ok, not `error`: openapi-fetch leaves `error` undefined when a refusal has no body.
      const { response } = await control.POST('/_sandbox/clock/advance', { body });
      const evidence = options.evidence({
        method: 'POST',
        path: '/_sandbox/clock/advance',
        query: [],
        headers: {},
        body,
      });
      kit.check(
        'advanceClock',
        'sandbox_control',
        response.ok,
        `POST /_sandbox/clock/advance answered ${response.status}`,
        evidence,
      );
      if (!response.ok) {
        kit.clock = undefined;
        return false;
      }
      kit.clock += seconds;
      for (const other of objects)
        if (other === object || (kit.dueOf(other) ?? Infinity) <= kit.clock) await kit.read(other);
      return true;
    },
  };
  return kit;
}
export type Kit = ReturnType<typeof createKit>;
