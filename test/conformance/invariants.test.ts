// The invariants stage against the sandbox, with and without its control API (it must pass; with it every row of the
// lifecycle tables happens, without it the rows it cannot reach are listed), and against servers with one seeded
// defect each (it must fail on the one check that names the defect), in-process through the sandbox's fetch.
import { afterEach, describe, expect, it } from 'vitest';
import { runConformance, type ConformanceReport } from '../../packages/conformance/src/index.js';
import { rowName, rowsOf } from '../../packages/conformance/src/transitions.js';
import type { Sandbox } from '../../packages/sandbox/src/index.js';
import { server } from './broken-servers.js';

const credentials = {
  a: { accessToken: 'tok_conformance_Secret_A1' },
  b: { publicKey: 'pk_conformance_Public_B1', secretKey: 'sk_conformance_Secret_B1' },
} as const;
const open: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((sandbox) => sandbox.close()));
});

async function invariants(
  variant: 'a' | 'b',
  sandbox: boolean,
  defect?: Parameters<typeof server>[0],
  options: { seed?: number; requests?: number } = {},
): Promise<ConformanceReport> {
  const { sandbox: running, fetch } = server(defect);
  open.push(running);
  return runConformance({
    variant,
    baseUrl: 'http://sandbox.test',
    credentials: credentials[variant],
    only: ['invariants'],
    fetch,
    sandbox,
    ...options,
  });
}
const failing = (report: ConformanceReport) => report.checks.filter((check) => !check.ok);
const judged = (report: ConformanceReport, check: string) =>
  report.checks.filter((result) => result.check === check).reduce((sum, result) => sum + result.judged, 0);

/** The rows the API alone reaches on a sandbox whose clock stands still: creation and cancel of payments and appeals. */
const REACHABLE = [
  'payment (new) → created (api:create)',
  'payment created → canceled (api:cancel, canceled_by_merchant)',
  'appeal (new) → pending (api:create)',
  'appeal pending → canceled (api:cancel)',
];

describe('the invariants stage', () => {
  it.each(['a', 'b'] as const)(
    'passes the sandbox of Variant %s with --sandbox, every transition row exercised and none skipped',
    async (variant) => {
      const report = await invariants(variant, true);
      expect(failing(report)).toEqual([]);
      expect(report.passed).toBe(true);
      expect(report.skipped).toEqual([]);
      const rows = rowsOf(variant).map(rowName);
      // Variant B has no Confirm Payment, so its table has one row less.
      expect(rows).toHaveLength(variant === 'a' ? 27 : 26);
      const exercised = report.checks
        .filter((check) => check.check === 'legal_transition' && check.ok)
        .map((check) => check.operation);
      for (const row of rows) expect(exercised, row).toContain(row);
      for (const check of [
        'retrieve_matches_create',
        'list_consistent',
        'refund_within_processed',
        'balance_adds_up',
        'idempotent_replay',
      ]) {
        expect(judged(report, check), check).toBeGreaterThan(0);
      }
      // Every answer was also judged by the contract.
      expect(judged(report, 'response_schema_conformance')).toBe(report.requests);
    },
  );

  it.each(['a', 'b'] as const)(
    'passes the sandbox of Variant %s without --sandbox, naming each row it could not reach',
    async (variant) => {
      const report = await invariants(variant, false);
      expect(failing(report)).toEqual([]);
      const skipped = report.skipped.map((item) => item.subject);
      const unreachable = rowsOf(variant)
        .map(rowName)
        .filter((row) => !REACHABLE.includes(row));
      expect(skipped.filter((subject) => subject.includes('→')).sort()).toEqual(unreachable.sort());
      expect(skipped).toContain('refundPayment');
      expect(
        report.skipped.find((item) => item.subject === 'payment created → pending (clock:processing)')?.reason,
      ).toMatch(/--sandbox/);
      expect(report.skipped.find((item) => item.subject === 'payout (new) → created (api:create)')?.reason).toMatch(
        /422 insufficient_balance/,
      );
      for (const row of REACHABLE)
        expect(
          report.checks.some((check) => check.operation === row && check.check === 'legal_transition' && check.ok),
          row,
        ).toBe(true);
    },
  );

  it.each([
    [
      'unretrievable',
      'retrieve_matches_create',
      false,
      /Retrieve of payment pay_\w+, which the kit created, answered 404 not_found/,
    ],
    [
      'ignoredIdempotencyKey',
      'idempotent_replay',
      false,
      /the replay made another payment: pay_\w+, the first answer pay_\w+/,
    ],
    ['listTotalOffByOne', 'list_consistent', false, /pagination\.total is (\d+), but the pages hold \d+ payments/],
    [
      'illegalTransition',
      'legal_transition',
      false,
      /payment pay_\w+: payment moved from canceled to succeeded .*no row of the payment table allows/,
    ],
    // Note: a refund needs a succeeded payment, which only the sandbox's clock makes.
    [
      'refundAboveProcessed',
      'refund_within_processed',
      true,
      /refunded \{"amount":"100\.00","currency":"USD"\} against processed \{"amount":"50\.00","currency":"USD"\}: 50\.00 more than was processed/,
    ],
  ] as const)('fails a server with the defect %s on %s alone', async (defect, check, sandbox, detail) => {
    for (const variant of ['a', 'b'] as const) {
      const report = await invariants(variant, sandbox, defect);
      expect(report.passed).toBe(false);
      expect([...new Set(failing(report).map((result) => result.check))]).toEqual([check]);
      const failure = failing(report)[0];
      expect(failure?.detail).toMatch(detail);
      expect(failure?.rule).toBe(report.checks.find((result) => result.check === check)?.rule);
      expect(failure?.curl).toMatch(/^curl -i -X (GET|POST) 'http:\/\/sandbox\.test\//);
    }
  });

  it('fails --sandbox against a server without the control API on sandbox_control, and still lists the rows it missed', async () => {
    const { sandbox: running, fetch } = server();
    open.push(running);
    const withoutControl = (request: Request) =>
      new URL(request.url).pathname.startsWith('/_sandbox')
        ? Promise.resolve(new Response(null, { status: 404 }))
        : fetch(request);
    const report = await runConformance({
      variant: 'a',
      baseUrl: 'http://sandbox.test',
      credentials: credentials.a,
      only: ['invariants'],
      fetch: withoutControl,
      sandbox: true,
    });
    expect([...new Set(failing(report).map((result) => result.check))]).toEqual(['sandbox_control']);
    expect(failing(report)[0]?.detail).toBe('POST /_sandbox/clock/advance answered 404');
    expect(report.skipped.map((item) => item.subject)).toContain('payment pending → succeeded (api:confirm)');
  });

  it('reports the list total one above the items it counted', async () => {
    const report = await invariants('b', false, 'listTotalOffByOne');
    const failure = report.checks.find((check) => check.operation === 'listPayments' && !check.ok);
    const [, total, held] = /pagination\.total is (\d+), but the pages hold (\d+)/.exec(failure?.detail ?? '') ?? [];
    expect(Number(total)).toBe(Number(held) + 1);
  });

  it('sends the same command sequences for the same seed, and others for another seed that still reach every row', async () => {
    const judgedOf = (report: ConformanceReport) =>
      report.checks.map(({ operation, check, judged }) => [operation, check, judged]);
    const [first, again, other] = [
      await invariants('b', true, undefined, { seed: 7 }),
      await invariants('b', true, undefined, { seed: 7 }),
      await invariants('b', true, undefined, { seed: 8 }),
    ];
    expect(judgedOf(again)).toEqual(judgedOf(first));
    expect(judgedOf(other)).not.toEqual(judgedOf(first));
    for (const report of [first, other]) {
      expect(failing(report)).toEqual([]);
      expect(report.skipped).toEqual([]);
    }
  });

  it('sends at most --requests requests per operation, and as many again to shrink the sequences that fail', async () => {
    const operations = 14;
    expect((await invariants('b', true, undefined, { requests: 4 })).requests).toBeLessThanOrEqual(4 * operations);
    const failed = await invariants('b', true, 'refundAboveProcessed', { requests: 10 });
    expect(failed.requests).toBeGreaterThan(10 * operations);
    expect(failed.requests).toBeLessThanOrEqual(2 * 10 * operations);
  });

  it('names the shortest failing command sequence fast-check found, with the seed that runs it again', async () => {
    const report = await invariants('a', false, 'illegalTransition', { seed: 3 });
    const failure = failing(report)[0];
    expect(failure?.detail).toMatch(
      /; the shortest failing command sequence fast-check found: journey to payment created → canceled \(api:cancel, canceled_by_merchant\) \(pay_\w+\); --only invariants --seed 3 runs it again$/,
    );
  });
});
