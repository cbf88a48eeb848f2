import { describe, expect, it } from 'vitest';
import { LIFECYCLES, REASON_CODES } from '../../../packages/contract/generated/sandbox/lifecycles.js';
import {
  DEFAULT_EXPIRES_IN,
  DEFAULT_OUTCOMES,
  MAGIC_VALUES,
  pathOf,
  STEP_DELAY_SECONDS,
  type MagicValue,
  type ObjectKind,
  type StatusChange,
} from '../../../packages/sandbox/src/core/index.js';
import {
  call,
  CALLS,
  create,
  current,
  key,
  label,
  newStore,
  ok,
  pathWith,
  paymentBody,
  reach,
  T,
  TRANSITIONS,
} from './fixtures.js';

const byCall = TRANSITIONS.filter((t) => t.trigger.startsWith('api:') && t.trigger !== 'api:create');
const byClock = TRANSITIONS.filter((t) => t.trigger.startsWith('clock:'));
const kinds = ['payment', 'payout', 'appeal'] as const;
const statuses = (kind: ObjectKind): readonly string[] => LIFECYCLES[kind].statuses;
const reasonOf = (record: object) => ('reason_code' in record ? record.reason_code : null);
const summary = (c: StatusChange) => [c.from, c.to, c.trigger, reasonOf(c.event.data)];

/** The (from, to, reason_code) steps an object created with `magic` takes, its expiry included, where it can expire. */
function journey(kind: ObjectKind, magic: MagicValue | undefined): [string, string, string | null][] {
  const steps: [string, string, string | null][] = [];
  let at: string = LIFECYCLES[kind].transitions.find((r) => r.from === null)!.to;
  for (const step of pathWith(kind, magic)) {
    steps.push([at, step.to, step.reason_code]);
    at = step.to;
  }
  const expiry = LIFECYCLES[kind].transitions.find(
    (r) => r.trigger === 'clock:expires_at' && (r.from as readonly string[]).includes(at),
  );
  if (expiry) steps.push([at, expiry.to, expiry.reason_code]);
  return steps;
}

/** Creates an object with `magic` and runs its clock past every step and its expiry; returns its changes. */
function run(kind: ObjectKind, magic: MagicValue | undefined) {
  const store = newStore();
  const record = create(store, kind, magic);
  const changes = store.advance(T, DEFAULT_EXPIRES_IN + 60).filter((c) => c.object_id === record.id);
  return { store, record, changes };
}

describe('every transition by an API command', () => {
  it.each(byCall.map((t) => [label(t), t] as const))('%s', (_name, t) => {
    const store = newStore();
    const before = reach(store, t.kind, t.from);
    const result = call(store, t.kind, t.trigger, before.id);
    const after = ok(result.answer);
    expect([after.status, reasonOf(after)]).toEqual([t.to, t.kind === 'payment' ? t.reason_code : null]);
    expect(result.events.map(summary)).toEqual([
      [t.from, t.to, t.trigger, t.kind === 'payment' ? t.reason_code : null],
    ]);
    expect(current(store, t.kind, before.id)).toEqual(after);
  });
});

describe('every transition by the clock', () => {
  const matches = (t: (typeof byClock)[number]) => (c: StatusChange) =>
    c.from === t.from && c.to === t.to && reasonOf(c.event.data) === (t.kind === 'payment' ? t.reason_code : null);

  it.each(byClock.filter((t) => t.trigger === 'clock:processing').map((t) => [label(t), t] as const))(
    '%s happens exactly its delay after the object reached its from status',
    (_name, t) => {
      const store = newStore();
      const magic = [...MAGIC_VALUES.filter((m) => m.kind === t.kind), undefined].find((m) =>
        journey(t.kind, m).some(([f, to, r]) => f === t.from && to === t.to && r === t.reason_code),
      );
      const record = create(store, t.kind, magic);
      let entered = t.from === record.status ? Date.parse(record.created_at) : undefined;
      let moved: StatusChange | undefined;
      for (let s = 0; s < 60 && !moved; s++) {
        for (const c of store.advance(T, 1).filter((c) => c.object_id === record.id)) {
          if (matches(t)(c)) moved = c;
          else if (c.to === t.from) entered = Date.parse(c.event.created_at);
        }
      }
      expect(moved && summary(moved)).toEqual([
        t.from,
        t.to,
        'clock:processing',
        t.kind === 'payment' ? t.reason_code : null,
      ]);
      expect(Date.parse(moved!.event.created_at) - entered!).toBe(STEP_DELAY_SECONDS[t.kind][t.to as never] * 1000);
    },
  );

  it.each(byClock.filter((t) => t.trigger === 'clock:expires_at').map((t) => [label(t), t] as const))(
    '%s happens at expires_at and not a second before',
    (_name, t) => {
      const store = newStore();
      const before = reach(store, t.kind, t.from) as { id: string; expires_at: string };
      const left = (Date.parse(before.expires_at) - store.now(T)) / 1000;
      expect(store.advance(T, left - 1).filter((c) => c.object_id === before.id)).toEqual([]);
      const changes = store.advance(T, 1).filter((c) => c.object_id === before.id);
      expect(changes.map(summary)).toEqual([
        [t.from, t.to, 'clock:expires_at', t.kind === 'payment' ? t.reason_code : null],
      ]);
      expect(changes[0]!.event.created_at).toBe(before.expires_at);
    },
  );

  it('moves nothing while a manual clock stands still, however much wall time passes', () => {
    let wall = Date.UTC(2030, 0, 1);
    const store = newStore({ wallNow: () => wall });
    const record = create(store, 'payment');
    wall += 86_400_000;
    expect(store.tick(T)).toEqual([]);
    expect(current(store, 'payment', record.id).status).toBe('created');
  });

  it('moves a real clock with the wall clock, plus what was advanced', () => {
    let wall = Date.UTC(2030, 0, 1);
    const store = newStore({ clock: 'real', wallNow: () => wall });
    const record = create(store, 'payment');
    expect(record.created_at).toBe('2030-01-01T00:00:00Z');
    wall += 2_000;
    expect(store.tick(T).map((c) => c.to)).toEqual(['pending']);
    store.advance(T, 5);
    expect(current(store, 'payment', record.id).status).toBe('succeeded');
    expect(store.now(T)).toBe(wall + 5_000);
  });
});

describe('every transition by a magic value', () => {
  it.each(byClock.map((t) => [label(t), t] as const))('%s', (_name, t) => {
    const magic = MAGIC_VALUES.filter(
      (m) =>
        m.kind === t.kind &&
        journey(t.kind, m).some(([f, to, r]) => f === t.from && to === t.to && r === t.reason_code),
    );
    const chosen = [magic.find((m) => m.field === 'amount'), magic.find((m) => m.field !== 'amount')].filter(
      (m) => m !== undefined,
    );
    // Note: a status the default outcome passes through needs no magic value (a payment succeeds unless told otherwise).
    const byDefault = journey(t.kind, undefined).some(
      ([f, to, r]) => f === t.from && to === t.to && r === t.reason_code,
    );
    expect(chosen.length > 0 || byDefault, 'no magic value leads through this transition').toBe(true);
    for (const m of chosen.length > 0 ? chosen : [undefined]) {
      const { changes } = run(t.kind, m);
      expect(changes.map(summary), `with ${m ? `${m.field} ${m.value}` : 'no magic value'}`).toContainEqual([
        t.from,
        t.to,
        t.trigger,
        t.kind === 'payment' ? t.reason_code : null,
      ]);
    }
  });

  it.each(MAGIC_VALUES.map((m) => [`${m.kind} ${m.field} ${m.value}: ${m.outcome}`, m] as const))(
    '%s takes exactly its documented path',
    (_name, m) => {
      const { changes } = run(m.kind, m);
      expect(changes.map((c) => [c.from, c.to, reasonOf(c.event.data)])).toEqual(
        journey(m.kind, m).map(([f, to, r]) => [f, to, m.kind === 'payment' ? r : null]),
      );
    },
  );

  // Note: written out by hand, as a merchant reads them in the docs, so that a change to the catalogue shows here.
  const documented: [ObjectKind, string, string, string, string | null][] = [
    ['payment', 'requisite.bank', 'SANDBOX DECLINED', 'failed', 'declined'],
    ['payment', 'requisite.bank', 'SANDBOX AMOUNT MISMATCH', 'failed', 'amount_mismatch'],
    ['payment', 'requisite.bank', 'SANDBOX PROVIDER ERROR', 'failed', 'provider_error'],
    ['payment', 'requisite.bank', 'SANDBOX REQUISITES UNAVAILABLE', 'failed', 'requisites_unavailable'],
    ['payment', 'requisite.bank', 'SANDBOX PENDING', 'pending', null],
    ['payment', 'requisite.bank', 'SANDBOX EXPIRE', 'created', null],
    ['payment', 'amount', '9.01', 'failed', 'declined'],
    ['payment', 'amount', '9.02', 'failed', 'amount_mismatch'],
    ['payment', 'amount', '9.03', 'failed', 'provider_error'],
    ['payment', 'amount', '9.04', 'failed', 'requisites_unavailable'],
    ['payment', 'amount', '9.05', 'pending', null],
    ['payment', 'amount', '9.06', 'created', null],
    ['payout', 'requisite.card_holder', 'SANDBOX FAILED', 'failed', null],
    ['payout', 'requisite.card_holder', 'SANDBOX PENDING', 'pending', null],
    ['payout', 'requisite.card_holder', 'SANDBOX EXPIRE', 'created', null],
    ['payout', 'amount', '9.01', 'failed', null],
    ['payout', 'amount', '9.05', 'pending', null],
    ['payout', 'amount', '9.06', 'created', null],
    ['appeal', 'amount', '9.01', 'rejected', null],
    ['appeal', 'amount', '9.05', 'pending', null],
    ['appeal', 'amount', '9.07', 'under_review', null],
  ];

  it('holds exactly the documented values, each leaving the object where its summary says (before any expiry)', () => {
    expect(MAGIC_VALUES.map((m) => [m.kind, m.field, m.value])).toEqual(documented.map(([k, f, v]) => [k, f, v]));
    for (const [kind, field, value, status, reason] of documented) {
      const magic = MAGIC_VALUES.find((m) => m.kind === kind && m.field === field && m.value === value)!;
      const store = newStore();
      const record = create(store, kind, magic);
      store.advance(T, 59);
      const now = current(store, kind, record.id);
      expect([now.status, reasonOf(now)], `${kind} ${field} ${value}`).toEqual([status, reason]);
      expect(magic.summary, `${kind} ${field} ${value}`).toMatch(
        status === 'created' ? /stays created/ : new RegExp(status),
      );
      if (reason) expect(magic.summary).toContain(`reason_code ${reason}`);
    }
  });

  it('compares amounts as numbers and requisite values exactly', () => {
    const store = newStore();
    const asNumber = ok(
      store.execute(T, { type: 'createPayment', idempotency_key: key(), body: paymentBody({ amount: '9.010' }) })
        .answer,
    );
    const otherCase = ok(
      store.execute(T, {
        type: 'createPayment',
        idempotency_key: key(),
        body: paymentBody({ requisite: { type: 'card', bank: 'sandbox declined' } }),
      }).answer,
    );
    store.advance(T, 59);
    expect(current(store, 'payment', asNumber.id).reason_code).toBe('declined');
    expect(current(store, 'payment', otherCase.id).status).toBe('succeeded');
  });

  it.each(kinds)('a %s without a magic value takes the default outcome', (kind) => {
    const { changes } = run(kind, undefined);
    expect(changes.map((c) => c.to)).toEqual(pathOf(kind, DEFAULT_OUTCOMES[kind]).map((s) => s.to));
  });

  it('reaches every final status and every reason_code that does not come from the merchant itself', () => {
    const merchantOnly = TRANSITIONS.filter((t) => t.trigger.startsWith('api:'));
    for (const kind of kinds) {
      const reached = new Set(
        [...MAGIC_VALUES.filter((m) => m.kind === kind), undefined].flatMap((m) =>
          journey(kind, m).map(([, to]) => to),
        ),
      );
      const onlyByCall = new Set(merchantOnly.filter((t) => t.kind === kind).map((t) => t.to));
      const final = statuses(kind).filter((s) => !TRANSITIONS.some((t) => t.kind === kind && t.from === s));
      expect(
        final.filter((s) => !reached.has(s) && !onlyByCall.has(s)),
        kind,
      ).toEqual([]);
    }
    const reasons = new Set(
      MAGIC_VALUES.filter((m) => m.kind === 'payment').flatMap((m) => journey('payment', m).map(([, , r]) => r)),
    );
    expect(REASON_CODES.filter((r) => r !== null && !reasons.has(r))).toEqual(['canceled_by_merchant']);
  });
});

describe('forcing a status (control)', () => {
  it.each(TRANSITIONS.map((t) => [label(t), t] as const))('%s can be forced', (_name, t) => {
    const store = newStore();
    const before = reach(store, t.kind, t.from);
    const result = store.execute(T, {
      type: 'forceStatus',
      kind: t.kind,
      id: before.id,
      status: t.to,
      reason_code: t.reason_code,
    });
    expect([ok(result.answer).status, reasonOf(ok(result.answer))]).toEqual([
      t.to,
      t.kind === 'payment' ? t.reason_code : null,
    ]);
    expect(result.events.map(summary)).toEqual([
      [t.from, t.to, 'control', t.kind === 'payment' ? t.reason_code : null],
    ]);
  });

  const illegal = kinds.flatMap((kind) =>
    statuses(kind).flatMap((from) =>
      statuses(kind)
        .filter((to) => !TRANSITIONS.some((t) => t.kind === kind && t.from === from && t.to === to))
        .map((to) => ({ kind, from, to })),
    ),
  );

  it.each(illegal.map((t) => [`${t.kind} ${t.from} -> ${t.to}`, t] as const))(
    'rejects %s with 422 invalid_state',
    (_name, t) => {
      const store = newStore();
      const before = reach(store, t.kind, t.from);
      const result = store.execute(T, { type: 'forceStatus', kind: t.kind, id: before.id, status: t.to });
      expect(result.answer.ok ? 'ok' : [result.answer.status, result.answer.problem.code]).toEqual([
        422,
        'invalid_state',
      ]);
      expect(result.events).toEqual([]);
      expect(current(store, t.kind, before.id)).toEqual(before);
    },
  );

  it('rejects a reason_code the table does not set on that transition', () => {
    const store = newStore();
    const before = reach(store, 'payment', 'pending');
    const result = store.execute(T, {
      type: 'forceStatus',
      kind: 'payment',
      id: before.id,
      status: 'failed',
      reason_code: 'payment_timeout',
    });
    expect(result.answer.ok ? 'ok' : result.answer.problem.code).toBe('invalid_state');
  });

  it('rejects a status the kind does not have with 422 validation_failed, and an unknown id with 404', () => {
    const store = newStore();
    const before = reach(store, 'appeal', 'pending');
    const bad = store.execute(T, { type: 'forceStatus', kind: 'appeal', id: before.id, status: 'refunded' }).answer;
    expect(bad.ok ? 'ok' : [bad.status, bad.problem.code, bad.problem.errors?.[0]?.pointer]).toEqual([
      422,
      'validation_failed',
      '/status',
    ]);
    const missing = store.execute(T, {
      type: 'forceStatus',
      kind: 'appeal',
      id: 'apl_nope',
      status: 'canceled',
    }).answer;
    expect(missing.ok ? 'ok' : [missing.status, missing.problem.code]).toEqual([404, 'not_found']);
  });
});

describe('illegal API commands', () => {
  const illegal = Object.entries(CALLS).flatMap(([trigger, perKind]) =>
    (Object.keys(perKind) as ObjectKind[]).flatMap((kind) =>
      statuses(kind)
        .filter((from) => !TRANSITIONS.some((t) => t.kind === kind && t.from === from && t.trigger === trigger))
        .map((from) => ({ kind, from, trigger })),
    ),
  );

  it.each(illegal.map((t) => [`${t.trigger} on a ${t.kind} in ${t.from}`, t] as const))(
    'rejects %s with 422 invalid_state',
    (_name, t) => {
      const store = newStore();
      const before = reach(store, t.kind, t.from);
      const result = call(store, t.kind, t.trigger, before.id);
      expect(result.answer.ok ? 'ok' : [result.answer.status, result.answer.problem.code]).toEqual([
        422,
        'invalid_state',
      ]);
      expect(result.events).toEqual([]);
      expect(current(store, t.kind, before.id).status).toBe(t.from);
    },
  );

  it.each(
    Object.entries(CALLS).flatMap(([trigger, perKind]) =>
      Object.keys(perKind).map((kind) => [trigger, kind as ObjectKind] as const),
    ),
  )('answers %s on an unknown %s with 404 not_found', (trigger, kind) => {
    const answer = call(newStore(), kind, trigger, 'nope_0001').answer;
    expect(answer.ok ? 'ok' : [answer.status, answer.problem.code]).toEqual([404, 'not_found']);
  });
});
