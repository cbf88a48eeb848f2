// The flows stage where @redocly/cli, an optional peer dependency, cannot be found: module resolution from a folder
// without it, as in a project that did not install it. The stage sends nothing and is skipped, saying how to install
// it, and every report shows the stage as not run rather than passed.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/tools.mjs';
import { flows } from '../../packages/conformance/src/flows.js';
import { formatText, toJson, toJunit, type ConformanceReport } from '../../packages/conformance/src/index.js';
import { createResults } from '../../packages/conformance/src/results.js';
import { createWatch } from '../../packages/conformance/src/stop.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-no-redocly-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const range = (
  JSON.parse(readFileSync(path.join(root, 'packages/conformance/package.json'), 'utf8')) as {
    peerDependencies: Record<string, string>;
  }
).peerDependencies['@redocly/cli'];

describe('the flows stage without @redocly/cli', () => {
  it('is an optional peer dependency of the conformance package', () => {
    const manifest = JSON.parse(readFileSync(path.join(root, 'packages/conformance/package.json'), 'utf8')) as Record<
      string,
      Record<string, unknown>
    >;
    expect(range).toMatch(/^~2\.77\.\d+$/);
    expect(manifest.peerDependenciesMeta?.['@redocly/cli']).toEqual({ optional: true });
    expect(manifest.dependencies?.['@redocly/cli']).toBeUndefined();
  });

  it('is skipped, saying how to install it, and the reports show the stage as not run', async () => {
    const resolve = createRequire(path.join(dir, 'project.js')).resolve;
    expect(() => resolve('@redocly/cli/package.json')).toThrow(/Cannot find module/);
    const results = createResults((text) => text);
    let sent = 0;
    await flows({
      variant: 'a',
      baseUrl: 'http://127.0.0.1:9',
      credentials: { accessToken: 'tok_flows_without_redocly' },
      sandbox: true,
      timeoutMs: 1000,
      watch: createWatch(60_000),
      record: results.record('flows'),
      skip: results.skip('flows'),
      progress: () => {},
      countSent: (count) => void (sent += count),
      resolve,
    });
    expect(sent).toBe(0);
    expect(results.checks()).toEqual([]);
    const reason = `the workflows are run by Redocly Respect, which comes with @redocly/cli, an optional peer dependency that is not installed; install it with npm install @redocly/cli@${range}`;
    expect(results.skipped()).toEqual([{ stage: 'flows', subject: 'the whole stage', reason }]);

    const report: ConformanceReport = {
      variant: 'a',
      baseUrl: 'http://127.0.0.1:9',
      seed: 1,
      passed: true,
      tenant: { kind: 'given' },
      requests: 0,
      durationMs: 1,
      checks: results.checks(),
      skipped: results.skipped(),
    };
    const text = formatText(report);
    expect(text).toContain(`Stages not run:\n  - flows: ${reason}`);
    expect(text).not.toContain('Not checked on this server');
    expect(text.split('\n').at(-1)).toMatch(/; not run: flows$/);
    expect(toJunit(report)).toMatch(
      /<testsuite name="conformance flows \(Variant A\)"[^>]* skipped="1"[^>]*>\s*<testcase classname="flows" name="the whole stage">\s*<skipped\/>/,
    );
    expect(JSON.parse(toJson(report)).skipped).toEqual([{ stage: 'flows', subject: 'the whole stage', reason }]);
  });
});
