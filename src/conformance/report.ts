// The report as a person reads it, and as CI reads it (JSON, JUnit XML). Credentials were masked when the checks were
// recorded, so nothing here sees a secret.
import junitModule, { type Builder } from 'junit-report-builder';
import { STAGES, type CheckResult, type ConformanceReport } from './types.js';

// Note: the package is CommonJS whose types declare an ES default; in Node the default import is the builder itself.
const junit = ((junitModule as unknown as { default?: Builder }).default ?? junitModule) as unknown as Builder;

function failureText(check: CheckResult): string {
  const lines = [`✗ ${check.stage} · ${check.operation} · ${check.check} (${check.failures} of ${check.judged} requests)`, `  rule:     ${check.rule}`];
  if (check.detail) lines.push(`  found:    ${check.detail}`);
  if (check.request) lines.push(`  request:  ${check.request.method} ${check.request.url}`);
  if (check.request?.body !== undefined) lines.push(`  body:     ${check.request.body.slice(0, 300)}`);
  if (check.response) lines.push(`  response: ${check.response.status} ${check.response.contentType ?? '(no Content-Type)'} ${check.response.bodyExcerpt.slice(0, 300)}`);
  if (check.curl) lines.push(`  curl:     ${check.curl}`);
  return lines.join('\n');
}

/** The summary: each failure with its rule, request, response and curl line, then the totals. */
export function formatText(report: ConformanceReport): string {
  const failed = report.checks.filter((check) => !check.ok).sort((x, y) => STAGES.indexOf(x.stage) - STAGES.indexOf(y.stage));
  const stages = STAGES.filter((stage) => report.checks.some((check) => check.stage === stage));
  const subjects = new Set(report.checks.map((check) => `${check.stage} ${check.operation}`)).size;
  const verdict = report.passed ? 'PASSED' : 'FAILED';
  const totals = `${verdict}: ${report.checks.length - failed.length} of ${report.checks.length} checks passed on ${subjects} subjects of ${stages.join(', ') || 'no stage'} (${report.requests} requests, seed ${report.seed}, ${(report.durationMs / 1000).toFixed(1)} s) against Variant ${report.variant.toUpperCase()} at ${report.baseUrl}`;
  const skipped = report.skipped.length === 0 ? [] : [['Not checked on this server:', ...report.skipped.map((item) => `  - ${item.stage} · ${item.subject}: ${item.reason}`)].join('\n')];
  return [...failed.map(failureText), ...skipped, totals].join('\n\n');
}

export const toJson = (report: ConformanceReport): string => `${JSON.stringify(report, null, 2)}\n`;

/** One test suite per stage, one test case per operation and check; a failure holds what the text report shows. */
export function toJunit(report: ConformanceReport): string {
  const builder = junit.newBuilder();
  for (const stage of STAGES.filter((name) => report.checks.some((check) => check.stage === name))) {
    const suite = builder.testSuite().name(`conformance ${stage} (Variant ${report.variant.toUpperCase()})`);
    for (const check of report.checks.filter((candidate) => candidate.stage === stage)) {
      const testCase = suite.testCase().className(`${stage}.${check.operation}`).name(check.check);
      if (!check.ok) testCase.failure(`${check.rule} ${check.detail ?? ''}`.trim(), check.check).standardOutput(failureText(check));
    }
  }
  return builder.build();
}
