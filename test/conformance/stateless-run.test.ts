// A run with `stateless` (--stateless) judges only what a server without state can pass, names everything it leaves
// out, and still fails a server whose single answers break the contract. In-process: the forgetful server answers every
// request from a sandbox made for that request alone; test/conformance/mock-stateless.test.ts runs it against the mock.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { formatText, runConformance, toJunit, type ConformanceOptions } from '../../packages/conformance/src/index.js';
import { CHECKS } from '../../packages/conformance/src/registry.js';
import { STATELESS_WORKFLOWS } from '../../packages/conformance/src/stateless.js';
import { root } from '../../scripts/lib/tools.mjs';
import { defects, forgetful, type Fetch } from './broken-servers.js';

const credentials = { publicKey: 'pk_stateless_Public_B1', secretKey: 'sk_stateless_Secret_B1' };

const run = (fetch: Fetch, options: Partial<ConformanceOptions> = {}) =>
  runConformance({
    variant: 'b',
    baseUrl: 'http://server.test',
    credentials,
    only: ['fuzz', 'invariants', 'webhooks'],
    requests: 2,
    stateless: true,
    fetch,
    ...options,
  });

const stateful = Object.entries(CHECKS)
  .filter(([, info]) => 'needsState' in info && info.stage === 'invariants')
  .map(([name]) => name);

describe('a stateless run', () => {
  it('passes a server that keeps no state, judging no check that needs state and naming each one it left out', async () => {
    const report = await run(forgetful);
    expect(report.statelessOnly).toBe(true);
    expect(report.passed).toBe(true);
    expect(report.checks.filter((check) => stateful.includes(check.check))).toEqual([]);
    expect(report.checks.some((check) => check.stage === 'invariants')).toBe(true);
    const left = (stage: string) => report.skipped.filter((item) => item.stage === stage).map((item) => item.subject);
    expect(left('invariants').sort()).toEqual([...stateful].sort());
    expect(left('webhooks')).toEqual(['the whole stage']);
    for (const item of report.skipped)
      expect(item.reason).toMatch(/^needs a server that keeps state \(left out by --stateless\)/);
    const text = formatText(report);
    expect(text.startsWith('Judged only what a server that keeps no state can pass (--stateless)')).toBe(true);
    expect(text).toContain(`The ${report.skipped.length} things that need a server that keeps state`);
    const junit = toJunit(report);
    for (const name of stateful)
      expect(junit).toMatch(
        new RegExp(
          `<testcase classname="invariants\\.${name}" name="not judged \\(--stateless\\)"[^>]*>\\s*<skipped/>`,
        ),
      );
    expect(text.split('\n').at(-1)).toMatch(
      new RegExp(
        `^PASSED: .*judging only what a server without state can pass \\(--stateless; ${report.skipped.length} things that need state not judged\\); not run: webhooks$`,
      ),
    );
  });

  it.each([
    ['wrongType', 'response_schema_conformance'],
    ['wrongContentType', 'content_type_conformance'],
    ['ignoredCredentials', 'ignored_auth'],
  ])('still fails a server without state whose answers break the contract (%s fails %s)', async (defect, check) => {
    const report = await run(defects[defect]!(forgetful));
    expect(report.passed).toBe(false);
    expect(report.checks.filter((result) => !result.ok).map((result) => result.check)).toContain(check);
    expect(formatText(report)).not.toContain('· needs a server that keeps state');
  });

  it('is refused with sandbox, and when it would run no stage', async () => {
    await expect(run(forgetful, { sandbox: true })).rejects.toThrow(/stateless and sandbox contradict each other/);
    await expect(run(forgetful, { only: ['webhooks'] })).rejects.toThrow(/runs none of the stages chosen/);
  });

  it('names only workflows the shipped Arazzo files hold', () => {
    for (const variant of ['a', 'b'] as const) {
      const file = path.join(root, `packages/contract/openapi/arazzo/variant-${variant}.arazzo.yaml`);
      const ids = (parse(readFileSync(file, 'utf8')) as { workflows: { workflowId: string }[] }).workflows.map(
        (workflow) => workflow.workflowId,
      );
      expect(ids).toEqual(expect.arrayContaining(Object.keys(STATELESS_WORKFLOWS[variant])));
    }
  });
});
