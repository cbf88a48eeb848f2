import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { parse } from 'yaml';
import { LIFECYCLES, REASON_CODES } from '../../../packages/contract/generated/sandbox/lifecycles.js';
import {
  checkLifecycle,
  lifecyclesPath,
  renderLifecycles,
  statusSchemas,
} from '../../../scripts/generate-lifecycles.mjs';
import { root } from '../../../scripts/lib/tools.mjs';
import type {
  AppealStatus,
  PaymentStatus,
  PayoutStatus,
  ReasonCode,
} from '../../../packages/contract/src/types/shared.js';

const BUNDLES = ['shared', 'variant-a', 'variant-b'];
const bundles = Object.fromEntries(
  BUNDLES.map((b) => [
    b,
    parse(readFileSync(path.join(root, 'packages/contract/generated/openapi', `${b}.yaml`), 'utf8')),
  ]),
);
/** A status schema as a bundle carries it: its description table is rendered from x-lifecycle at build time. */
const schemaOf = (name: string, bundle: string) => bundles[bundle].components.schemas[name];
const cases = Object.entries(statusSchemas).flatMap(([kind, name]) =>
  BUNDLES.map((bundle) => [kind, name, bundle] as const),
);
const ticked = (text: string) => [...text.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!);

/** The (from, to) pairs of the Markdown table in a status schema's description. */
function describedPairs(description: string): string[] {
  const rows = description.split('\n').filter((line) => /^\| `/.test(line));
  return rows.flatMap((row) => {
    const [from = '', to = ''] = row.split('|').slice(1, 3);
    return ticked(from).flatMap((f) => ticked(to).map((t) => `${f}->${t}`));
  });
}

/** The statuses the description calls final: those listed before "are final", minus the one named after "except". */
function describedFinal(description: string): string[] {
  const sentence = description.split('\n\n').find((p) => p.includes('are final'))!;
  const [listed = '', rest = ''] = sentence.split('are final');
  const excepted = /^\s*except `([a-z_]+)`/.exec(rest)?.[1];
  return ticked(listed)
    .filter((s) => s !== excepted)
    .sort();
}

describe('x-lifecycle', () => {
  it('generating again reproduces generated/sandbox/lifecycles.ts', () => {
    const committed = readFileSync(path.join(root, lifecyclesPath), 'utf8');
    expect(committed, `${lifecyclesPath} is stale: run npm run generate and commit it`).toBe(renderLifecycles());
  });

  it.each(cases)('%s (%s in %s): the rows give the same transitions as the description table', (kind, name, bundle) => {
    const schema = schemaOf(name, bundle);
    const rows = LIFECYCLES[kind as keyof typeof LIFECYCLES].transitions;
    const pairs = new Set(rows.flatMap((t) => (t.from ?? []).map((f) => `${f}->${t.to}`)));
    expect([...pairs].sort()).toEqual([...new Set(describedPairs(schema.description))].sort());
  });

  it.each(cases)(
    '%s (%s in %s): the statuses with no way out are the ones the description calls final',
    (kind, name, bundle) => {
      const { statuses, transitions } = LIFECYCLES[kind as keyof typeof LIFECYCLES];
      const final = statuses.filter((s) => !transitions.some((t) => (t.from as readonly string[] | null)?.includes(s)));
      expect([...final].sort()).toEqual(describedFinal(schemaOf(name, bundle).description));
    },
  );

  it('sets each reason_code on the transition the ReasonCode table explains', () => {
    const byCode = Object.fromEntries(
      LIFECYCLES.payment.transitions.filter((t) => t.reason_code !== null).map((t) => [t.reason_code, t.to]),
    );
    expect(byCode).toEqual({
      payment_timeout: 'expired',
      amount_mismatch: 'failed',
      canceled_by_merchant: 'canceled',
      requisites_unavailable: 'failed',
      declined: 'failed',
      provider_error: 'failed',
    });
    expect(LIFECYCLES.payout.transitions.every((t) => t.reason_code === null)).toBe(true);
    expect(LIFECYCLES.appeal.transitions.every((t) => t.reason_code === null)).toBe(true);
  });

  it('types its statuses and reason codes exactly as the contract does', () => {
    expectTypeOf<(typeof LIFECYCLES.payment.statuses)[number]>().toEqualTypeOf<PaymentStatus>();
    expectTypeOf<(typeof LIFECYCLES.payout.statuses)[number]>().toEqualTypeOf<PayoutStatus>();
    expectTypeOf<(typeof LIFECYCLES.appeal.statuses)[number]>().toEqualTypeOf<AppealStatus>();
    expectTypeOf<(typeof REASON_CODES)[number]>().toEqualTypeOf<ReasonCode>();
  });
});

describe('generate-lifecycles', () => {
  const reasonCodes = [...REASON_CODES];
  const schema = (rows: unknown[]) => ({ enum: ['a', 'b'], 'x-lifecycle': { transitions: rows } });
  const create = { from: null, to: 'a', trigger: 'api:create', reason_code: null, when: 'created' };
  const move = { from: ['a'], to: 'b', trigger: 'api:cancel', reason_code: null, when: 'canceled' };

  it('accepts a table that reaches every status', () => {
    expect(checkLifecycle('X.yaml', schema([create, move]), reasonCodes).transitions).toHaveLength(2);
  });

  it.each([
    ['a status outside the enum', [create, { ...move, to: 'c' }], /names "c", not in the enum/],
    ['an unknown trigger', [create, { ...move, trigger: 'magic' }], /trigger "magic" is not one of/],
    [
      'an unknown reason_code',
      [create, { ...move, reason_code: 'oops' }],
      /reason_code "oops" is not a ReasonCode value/,
    ],
    ['a repeated row', [create, move, move], /repeats a transition/],
    ['no creation row', [move], /only the creation row|exactly one creation row/],
    ['an unreachable status', [create], /no transition leads to b/],
  ])('rejects %s, naming the file', (_what, rows, message) => {
    expect(() => checkLifecycle('X.yaml', schema(rows), reasonCodes)).toThrow(message);
    expect(() => checkLifecycle('X.yaml', schema(rows), reasonCodes)).toThrow(/X\.yaml/);
  });
});
