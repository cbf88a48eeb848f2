import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundles, root } from './workspace.js';

// Redocly's recommended-strict ruleset, stricter than the project's own lint and independent of its
// rule choices, must find nothing in either bundle.

const config = path.join(root, 'test/tools/fixtures/recommended-strict.redocly.yaml');
const laxFixture = path.join(root, 'test/tools/fixtures/lax.openapi.yaml');

interface Problem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { source: { ref: string }; pointer?: string; start?: { line: number; col: number } }[];
}

/** The Redocly CLI's JS entry, run with this Node so no shell or npx stands in between. */
function redoclyEntry(): string {
  const manifest = createRequire(import.meta.url).resolve('@redocly/cli/package.json');
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> };
  return path.join(path.dirname(manifest), bin['redocly'] ?? 'bin/cli.js');
}

/** Lints one file with recommended-strict and returns the problems from Redocly's JSON report. */
function lint(file: string): Problem[] {
  const run = spawnSync(process.execPath, [redoclyEntry(), 'lint', file, '--config', config, '--format=json'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', DO_NOT_TRACK: '1' },
    maxBuffer: 32 * 1024 * 1024,
    timeout: 30_000,
  });
  // Redocly exits 1 when it reports errors; anything else, or no JSON, means it did not lint.
  if (run.status !== 0 && run.status !== 1) throw new Error(`redocly exited with ${run.status}: ${run.stderr}`);
  const report = JSON.parse(run.stdout) as { totals: { errors: number; warnings: number }; problems: Problem[] };
  expect(report.problems.length).toBe(report.totals.errors + report.totals.warnings);
  return report.problems;
}

/** One line per problem: `rule severity pointer (line:col): message`. */
const describeProblem = (p: Problem): string => {
  const at = p.location[0];
  const where = at?.start ? ` (${path.relative(root, at.source.ref)}:${at.start.line}:${at.start.col})` : '';
  return `${p.ruleId} ${p.severity} ${at?.pointer ?? ''}${where}: ${p.message}`;
};

describe('Redocly recommended-strict', () => {
  it('turns the warnings of recommended into errors (the check can fail)', () => {
    const problems = lint(laxFixture);
    expect(problems.map((p) => `${p.ruleId} ${p.severity}`).sort()).toEqual([
      'no-server-example.com error',
      'operation-4xx-response error',
    ]);
  });

  it.each(bundles)('finds no problem in $variant', ({ file }) => {
    const problems = lint(file);
    expect(problems.map(describeProblem), `recommended-strict problems in ${path.relative(root, file)}`).toEqual([]);
  });
});
