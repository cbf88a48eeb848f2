// A server that keeps no state, as the contract mock (Prism) does: the report says so first, with what showed it, and
// marks the failed checks that only a server with state can pass; a stateful server (the sandbox) is never taken for
// one. In-process: the forgetful server answers every request from a sandbox made for that request alone.
import { afterEach, describe, expect, it } from 'vitest';
import {
  formatText,
  needsState,
  runConformance,
  toJunit,
  type ConformanceReport,
} from '../../packages/conformance/src/index.js';
import { createStateWatch } from '../../packages/conformance/src/state.js';
import { createSandbox, type Sandbox } from '../../packages/sandbox/src/index.js';
import { operationsOf } from '../../packages/contract/src/validation/index.js';
import { forgetful } from './broken-servers.js';

const credentials = { publicKey: 'pk_conformance_Public_B1', secretKey: 'sk_conformance_Secret_B1' };
const open: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((sandbox) => sandbox.close()));
});

const run = (fetch: (request: Request) => Promise<Response>): Promise<ConformanceReport> =>
  runConformance({
    variant: 'b',
    baseUrl: 'http://server.test',
    credentials,
    only: ['fuzz', 'invariants'],
    requests: 2,
    fetch,
  });

describe('a server that keeps no state', () => {
  it('is named as one in the report, with what showed it, and its stateful failures are marked and listed last', async () => {
    const report = await run(forgetful);
    expect(report.passed).toBe(false);
    expect(report.stateless).toMatch(
      /^two Create requests with different Idempotency-Keys were both answered with (payment|payout|appeal) \w+$/,
    );
    const text = formatText(report);
    expect(text.startsWith(`This server keeps no state: ${report.stateless!.slice(0, 40)}`)).toBe(true);
    const failed = report.checks.filter((check) => !check.ok);
    const stateful = failed.filter(needsState);
    expect(stateful.map((check) => check.check)).toContain('retrieve_matches_create');
    expect(text).toMatch(new RegExp(`${stateful.length} of the ${failed.length} failed checks cannot pass on it`));
    const headers = text.split('\n').filter((line) => line.startsWith('✗ '));
    expect(headers).toHaveLength(failed.length);
    // The failures any server can cause come first; those that need state follow, each marked.
    const marked = headers.map((line) => line.endsWith(' · needs a server that keeps state'));
    expect(marked).toEqual([
      ...Array(failed.length - stateful.length).fill(false),
      ...Array(stateful.length).fill(true),
    ]);
    expect(text.split('\n').at(-1)).toMatch(
      new RegExp(
        `which keeps no state: ${stateful.length} of the ${failed.length} failures needs? a server that does$`,
      ),
    );
    expect(toJunit(report)).toContain('(needs a server that keeps state)');
  });

  it('is told by a retrieve answered with another object than the one asked for', () => {
    const retrieve = operationsOf('b').find((operation) => operation.operationId === 'retrievePayment')!;
    const watch = createStateWatch();
    const answer = { status: 200, headers: new Headers(), text: '', json: undefined };
    watch.observe(
      retrieve,
      { method: 'GET', path: '/merchant/v1/payments/pay_asked', query: [], headers: {} },
      answer,
      { id: 'pay_asked' },
    );
    expect(watch.sign()).toBeUndefined();
    watch.observe(
      retrieve,
      { method: 'GET', path: '/merchant/v1/payments/pay_unknown', query: [], headers: {} },
      answer,
      { id: 'pay_8f3k2m9q4w7x' },
    );
    expect(watch.sign()).toBe(
      'GET /merchant/v1/payments/pay_unknown answered payment pay_8f3k2m9q4w7x, not the payment asked for',
    );
  });
});

describe('a server that keeps state', () => {
  it('is not taken for one, and its report says nothing of state', async () => {
    const sandbox = createSandbox();
    open.push(sandbox);
    const report = await run((request) => sandbox.fetch(request));
    expect(report.stateless).toBeUndefined();
    expect(formatText(report)).not.toMatch(/keeps no state|needs a server that keeps state/);
  });
});
