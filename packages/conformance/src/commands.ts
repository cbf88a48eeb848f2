// The invariants stage's commands, for fast-check's model-based run: each runs requests through the kit, whose checks
// judge every answer against the model (the lifecycle tables and the objects it created). A journey aims a new object
// at a row of the tables not seen yet: on the sandbox it picks the outcome that leads there (docs/sandbox-values.md)
// and moves the clock step by step, so that each change is seen as one row.
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { MAGIC_VALUES } from '@merchant-payments/contract/internal/sandbox-model/magic-values.js';
import { OUTCOMES } from '@merchant-payments/contract/internal/sandbox-model/outcomes.js';
import type { ObjectKind } from '@merchant-payments/contract/internal/sandbox-model/types.js';
import {
  codeOf,
  dataOf,
  describe,
  LIFETIME,
  ok,
  OPERATIONS,
  type Action,
  type Json,
  type Kit,
  type Tracked,
} from './kit.js';
import { rowName, type Row } from './transitions.js';

/** The objects one command sequence created, and the commands it ran, as the report names them. */
export interface Model {
  objects: Tracked[];
  ran: string[];
}

/** Thrown at the end of a command that failed a check: fast-check then shrinks the sequence. */
export class SequenceFailed extends Error {}

const CURRENCY = 'USD';
/** Steps of one journey at most: a payout's longest path has three clock steps, then its goal. */
const MAX_STEPS = 6;
/** Journeys aimed at a row not seen yet before it is left to chance: a server may refuse what leads there. */
const AIMS = 3;
/** The amount a create asks for when no outcome is picked; a payment's funds a few payouts or its own refund. */
const AMOUNTS: Record<ObjectKind, string> = { payment: '50.00', payout: '10.00', appeal: '5.00' };

/** The documented amount that picks `outcome` on the sandbox; the default amount for the default outcome. */
const amountFor = (kind: ObjectKind, outcome: string | undefined) =>
  MAGIC_VALUES.find((magic) => magic.kind === kind && magic.field === 'amount' && magic.outcome === outcome)?.value ??
  AMOUNTS[kind];

/**
 * An outcome whose path passes through `goal`: its clock step, or (for an action or an expiry) a status it waits in,
 * the path's last (or its first, for an action right after the create).
 */
function outcomeFor(goal: Row, initial: string): string {
  const outcomes = Object.entries(
    OUTCOMES[goal.kind] as Record<string, readonly { to: string; reason_code: string | null }[]>,
  );
  const found = outcomes.find(([, steps]) => {
    const path = [{ to: initial, reason_code: null }, ...steps];
    if (goal.from === null) return true;
    if (goal.trigger === 'clock:processing')
      return path.some(
        (step, index) =>
          step.to === goal.from && path[index + 1]?.to === goal.to && path[index + 1]?.reason_code === goal.reason_code,
      );
    return path.at(-1)?.to === goal.from || (goal.trigger.startsWith('api:') && initial === goal.from);
  });
  return (found ?? outcomes[0])?.[0] as string;
}

const metadata = (label: string) => ({ conformance: 'invariants', label });
const bodyOf = (kind: ObjectKind, amount: string, label: string, target?: string): Json => {
  if (kind === 'appeal')
    return { transaction_id: target ?? 'pay_unknown', amount, currency: CURRENCY, metadata: metadata(label) };
  const card = kind === 'payout' ? { card_number: '4111111111111111', card_holder: 'CONFORMANCE KIT' } : {};
  return {
    amount,
    currency: CURRENCY,
    expires_in: LIFETIME,
    requisite: { type: 'card', ...card, bank: 'CONFORMANCE BANK' },
    metadata: metadata(label),
  };
};

/** The rows a journey can aim at: every row with --sandbox; without it, those the API alone causes from a new object. */
function reachable(kit: Kit): Row[] {
  if (kit.sandbox) return kit.rows;
  const statuses = new Set(kit.rows.filter((row) => row.from === null).map((row) => `${row.kind} ${row.to}`));
  return kit.rows.filter(
    (row) => row.trigger.startsWith('api:') && (row.from === null || statuses.has(`${row.kind} ${row.from}`)),
  );
}

/**
 * Creates an object aimed at `goal` and takes it there: on the sandbox it moves the clock to each step of its outcome,
 * then acts when the goal is an action. A payout first needs funds (a payment that succeeds), an appeal a payment.
 */
async function journey(kit: Kit, model: Model, goal: Row): Promise<Tracked | undefined> {
  const creation = (kind: ObjectKind) => kit.rows.find((row) => row.kind === kind && row.from === null) as Row;
  const initial = creation(goal.kind).to;
  const outcome = kit.sandbox ? outcomeFor(goal, initial) : undefined;
  if (goal.kind === 'payout' && kit.sandbox && !kit.funded)
    await journey(
      kit,
      model,
      kit.rows.find(
        (row) => row.kind === 'payment' && row.to === 'succeeded' && row.trigger === 'clock:processing',
      ) as Row,
    );
  let target: string | undefined;
  if (goal.kind === 'appeal')
    target =
      model.objects.filter((object) => object.kind === 'payment').at(-1)?.id ??
      (await journey(kit, model, creation('payment')))?.id;
  const object = await kit.create(
    goal.kind,
    bodyOf(goal.kind, amountFor(goal.kind, outcome), rowName(goal), target),
    outcome,
  );
  if (!object) return undefined;
  model.objects.push(object);
  for (let step = 0; step < MAX_STEPS && goal.from !== null && object.status !== goal.to; step += 1) {
    const from = object.status;
    const acting = from === goal.from && goal.trigger.startsWith('api:');
    if (acting) await kit.act(goal.trigger.slice('api:'.length) as Action, object);
    else if (!(await kit.tick(object, model.objects))) break;
    // Note: Variant B shows no reason_code, so which row this was is for the sandbox's event log to tell; aim no more.
    if (from === goal.from && object.status === goal.to) kit.aimed.set(rowName(goal), AIMS);
    if (acting) break;
  }
  return object;
}

/** Replays a create with the same key and body, then with the same key and another body. */
async function replay(kit: Kit) {
  const key = randomUUID();
  const body = bodyOf('payment', '25.00', 'replayed');
  const first = await kit.call(OPERATIONS.create.payment, { body, key });
  const again = await kit.call(OPERATIONS.create.payment, { body, key });
  const other = await kit.call(OPERATIONS.create.payment, { body: { ...body, amount: '26.00' }, key });
  if (!ok(first)) return;
  const ids = [dataOf(first)?.id, dataOf(again)?.id].map(String);
  const identical = again?.status === first.status && isDeepStrictEqual(again.json, first.json);
  const detail =
    again?.status !== first.status
      ? `the replay answered ${describe(again)}, the first request ${first.status}`
      : ids[0] !== ids[1]
        ? `the replay made another payment: ${ids[1]}, the first answer ${ids[0]}`
        : 'the replay answered another body than the first request';
  kit.check(
    'createPayment',
    'idempotent_replay',
    identical,
    `same Idempotency-Key and body: ${detail}`,
    again?.evidence,
  );
  const reused = other?.status === 422 && codeOf(other) === 'idempotency_key_reused';
  kit.check(
    'createPayment',
    'idempotent_replay',
    reused,
    `same Idempotency-Key with another amount: answered ${describe(other)}${ok(other) ? ` (payment ${String(dataOf(other)?.id)})` : ''}, not 422 idempotency_key_reused`,
    other?.evidence,
  );
}

/** A command: runs while the stage has budget left, and throws SequenceFailed when a check failed during it. */
abstract class Command implements fc.AsyncCommand<Model, Kit> {
  protected shown = '';
  check(_model: Readonly<Model>): boolean {
    return true;
  }
  protected abstract go(model: Model, kit: Kit): Promise<string>;
  async run(model: Model, kit: Kit): Promise<void> {
    if (!kit.live()) return;
    const failed = kit.failed.length;
    this.shown = await this.go(model, kit);
    model.ran.push(this.shown);
    kit.progress(this.shown);
    if (kit.failedSince(failed)) throw new SequenceFailed();
  }
  toString = () => this.shown || this.constructor.name;
}

/** A new object taken to a row not seen yet (`pick` chooses which), or to any row once all were seen. */
class Journey extends Command {
  constructor(readonly pick: number) {
    super();
  }
  protected async go(model: Model, kit: Kit) {
    const rows = reachable(kit);
    const unseen = rows.filter((row) => !kit.exercised.has(rowName(row)) && (kit.aimed.get(rowName(row)) ?? 0) < AIMS);
    const goal = (unseen.length > 0 ? unseen : rows)[this.pick % (unseen.length || rows.length)] as Row;
    kit.aimed.set(rowName(goal), (kit.aimed.get(rowName(goal)) ?? 0) + 1);
    const object = await journey(kit, model, goal);
    return `journey to ${rowName(goal)}${object ? ` (${object.id})` : ''}`;
  }
}

/** An action on any object of the sequence, allowed from its status or not: one the table does not allow changes nothing. */
class Act extends Command {
  constructor(
    readonly action: Action,
    readonly index: number,
  ) {
    super();
  }
  private targets = (model: Readonly<Model>) =>
    model.objects.filter((object) => this.action === 'cancel' || object.kind === 'payment');
  override check(model: Readonly<Model>) {
    return this.targets(model).length > 0;
  }
  protected async go(model: Model, kit: Kit) {
    const targets = this.targets(model);
    const object = targets[this.index % targets.length] as Tracked;
    const from = object.status;
    await kit.act(this.action, object);
    return `${this.action} ${object.kind} ${object.id} (${from})`;
  }
}

/** A retrieve of an object of the sequence: its status must be the last seen, or a change the clock could make. */
class Read extends Command {
  constructor(readonly index: number) {
    super();
  }
  override check(model: Readonly<Model>) {
    return model.objects.length > 0;
  }
  protected async go(model: Model, kit: Kit) {
    const object = model.objects[this.index % model.objects.length] as Tracked;
    await kit.read(object);
    return `read ${object.kind} ${object.id}`;
  }
}

class Replay extends Command {
  protected async go(_model: Model, kit: Kit) {
    await replay(kit);
    return 'replay a create payment';
  }
}

/** The commands fast-check draws sequences from: mostly journeys, then actions, reads and replays. */
export function commandsOf(kit: Kit) {
  const actions: Action[] = kit.variant === 'a' ? ['cancel', 'confirm', 'refund'] : ['cancel', 'refund'];
  return fc.oneof(
    { weight: 6, arbitrary: fc.nat().map((pick) => new Journey(pick)) },
    {
      weight: 2,
      arbitrary: fc.tuple(fc.constantFrom(...actions), fc.nat()).map(([action, index]) => new Act(action, index)),
    },
    { weight: 1, arbitrary: fc.nat().map((index) => new Read(index)) },
    { weight: 1, arbitrary: fc.constant(null).map(() => new Replay()) },
  );
}
