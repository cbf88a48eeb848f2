// The report as a person reads it, and as CI reads it (JSON, JUnit XML). Credentials were masked when the checks were
// recorded, so nothing here sees a secret.
import junitModule, { type Builder } from 'junit-report-builder';
import { needsState } from './registry.js';
import { NEEDS_STATE } from './state.js';
import { leftOut, leftOutCount } from './stateless.js';
import { STAGES, WHOLE_STAGE, type CheckResult, type ConformanceReport, type Skipped } from './types.js';

// Note: the package is CommonJS whose types declare an ES default; in Node the default import is the builder itself.
const junit = ((junitModule as unknown as { default?: Builder }).default ?? junitModule) as unknown as Builder;

/** The stages that did not run at all (the flows stage without @redocly/cli), and what else was left unchecked. */
const skippedOf = (report: ConformanceReport) => {
  const whole = (item: Skipped) => item.subject === WHOLE_STAGE;
  return { stages: report.skipped.filter(whole), items: report.skipped.filter((item) => !whole(item)) };
};

/**
 * The failed checks a server without state can never pass, when the report found it keeps none; else none. A stateless
 * run judged only checks such a server can pass, so none of its failures is one.
 */
const cannotPass = (report: ConformanceReport, check: CheckResult) =>
  report.stateless !== undefined && report.statelessOnly !== true && needsState(check);

function failureText(check: CheckResult, stateful = false): string {
  const lines = [
    `✗ ${check.stage} · ${check.operation} · ${check.check} (${check.failures} of ${check.judged} requests)${stateful ? ` · ${NEEDS_STATE}` : ''}`,
    `  rule:     ${check.rule}`,
  ];
  if (check.detail) lines.push(`  found:    ${check.detail}`);
  if (check.request) lines.push(`  request:  ${check.request.method} ${check.request.url}`);
  if (check.request?.body !== undefined) lines.push(`  body:     ${check.request.body.slice(0, 300)}`);
  if (check.response)
    lines.push(
      `  response: ${check.response.status} ${check.response.contentType ?? '(no Content-Type)'} ${check.response.bodyExcerpt.slice(0, 300)}`,
    );
  if (check.curl) lines.push(`  curl:     ${check.curl}`);
  return lines.join('\n');
}

/** What the report says first when the server keeps no state: what showed it, and what it means for the failures. */
function statelessNotice(sign: string, stateful: number, failed: number): string {
  const which =
    stateful === 0
      ? 'none of the failed checks below is one of those that need state, which follow an object from one request to the next'
      : `${stateful} of the ${failed} failed checks cannot pass on it: they follow an object from one request to the next (a create and then a retrieve, a replay, a status change, a list, the balance, a workflow's steps, the webhook a change sends). They are listed last, marked "${NEEDS_STATE}"`;
  return wrap(
    `This server keeps no state: ${sign}. It answers every request from the contract's examples, as the contract mock ` +
      `(merchant-payments mock, Prism) does, so ${which}. The other checks judge one answer at a time and hold on any ` +
      'server. To run the checks that need state, point the kit at the sandbox (merchant-payments sandbox, with --sandbox) ' +
      'or at a server of your own.',
  );
}

/** What a stateless run says first: what it judged, what it left out, and what showed the server keeps no state. */
function statelessOnlyNotice(report: ConformanceReport): string {
  const left = leftOutCount(report.skipped);
  return wrap(
    'Judged only what a server that keeps no state can pass (--stateless), such as the contract mock (merchant-payments ' +
      'mock, Prism): the checks of single answers (status, media type, headers, schema, 401 without credentials, a 4xx ' +
      `problem for a broken request) and the workflows that need no state. The ${left} things that need a server that ` +
      'keeps state (the webhooks stage, the checks that follow an object from one request to the next, the other ' +
      'workflows) are listed below, not judged, and count as neither passed nor failed' +
      `${report.stateless === undefined ? '' : `; the answers showed it: ${report.stateless}`}. To judge them, point ` +
      'the kit at the sandbox (merchant-payments sandbox, with --sandbox) or at a server of your own.',
  );
}

/** `text` in lines of at most `width` characters, broken between words. */
function wrap(text: string, width = 116): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line].join('\n');
}

/**
 * The summary: first, when the server keeps no state, a word saying so; then each failure with its rule, request,
 * response and curl line (those a server without state cannot pass last, marked); then the totals.
 */
export function formatText(report: ConformanceReport): string {
  const failed = report.checks
    .filter((check) => !check.ok)
    .sort((x, y) => STAGES.indexOf(x.stage) - STAGES.indexOf(y.stage));
  const stateful = failed.filter((check) => cannotPass(report, check));
  const others = failed.filter((check) => !cannotPass(report, check));
  const stages = STAGES.filter((stage) => report.checks.some((check) => check.stage === stage));
  const subjects = new Set(report.checks.map((check) => `${check.stage} ${check.operation}`)).size;
  const verdict = report.passed ? 'PASSED' : 'FAILED';
  const skipped = skippedOf(report);
  const totals = `${verdict}: ${report.checks.length - failed.length} of ${report.checks.length} checks passed on ${subjects} subjects of ${stages.join(', ') || 'no stage'} (${report.requests} requests, seed ${report.seed}, ${(report.durationMs / 1000).toFixed(1)} s) against Variant ${report.variant.toUpperCase()} at ${report.baseUrl}${
    report.statelessOnly
      ? `, judging only what a server without state can pass (--stateless; ${leftOutCount(report.skipped)} things that need state not judged)`
      : report.stateless === undefined
        ? ''
        : `, which keeps no state: ${stateful.length} of the ${failed.length} failures ${stateful.length === 1 ? 'needs' : 'need'} a server that does`
  }${report.tenant.kind === 'test' ? `, in test tenant ${report.tenant.id} (deleted after the run)` : ''}${skipped.stages.length === 0 ? '' : `; not run: ${skipped.stages.map((item) => item.stage).join(', ')}`}`;
  const notice = report.statelessOnly
    ? [statelessOnlyNotice(report)]
    : report.stateless === undefined
      ? []
      : [statelessNotice(report.stateless, stateful.length, failed.length)];
  const notRun =
    skipped.stages.length === 0
      ? []
      : [['Stages not run:', ...skipped.stages.map((item) => `  - ${item.stage}: ${item.reason}`)].join('\n')];
  const notChecked =
    skipped.items.length === 0
      ? []
      : [
          [
            'Not checked on this server:',
            ...skipped.items.map((item) => `  - ${item.stage} · ${item.subject}: ${item.reason}`),
          ].join('\n'),
        ];
  return [
    ...notice,
    ...others.map((check) => failureText(check)),
    ...stateful.map((check) => failureText(check, true)),
    ...notRun,
    ...notChecked,
    totals,
  ].join('\n\n');
}

export const toJson = (report: ConformanceReport): string => `${JSON.stringify(report, null, 2)}\n`;

/**
 * One test suite per stage, one test case per operation and check; a failure holds what the text report shows. A stage
 * that did not run is a suite with one skipped test case.
 */
export function toJunit(report: ConformanceReport): string {
  const builder = junit.newBuilder();
  const notRun = skippedOf(report).stages;
  for (const stage of STAGES.filter(
    (name) => report.checks.some((check) => check.stage === name) || notRun.some((item) => item.stage === name),
  )) {
    const suite = builder.testSuite().name(`conformance ${stage} (Variant ${report.variant.toUpperCase()})`);
    for (const item of notRun.filter((candidate) => candidate.stage === stage))
      suite.testCase().className(stage).name(WHOLE_STAGE).skipped().standardOutput(item.reason);
    // Note: in a stateless run each thing left out is a skipped test case, so CI shows it as not judged, never passed.
    for (const item of report.skipped.filter((candidate) => candidate.stage === stage && leftOut(candidate)))
      if (item.subject !== WHOLE_STAGE)
        suite
          .testCase()
          .className(`${stage}.${item.subject}`)
          .name('not judged (--stateless)')
          .skipped()
          .standardOutput(item.reason);
    for (const check of report.checks.filter((candidate) => candidate.stage === stage)) {
      const testCase = suite.testCase().className(`${stage}.${check.operation}`).name(check.check);
      const stateful = cannotPass(report, check);
      if (!check.ok)
        testCase
          .failure(`${stateful ? `(${NEEDS_STATE}) ` : ''}${check.rule} ${check.detail ?? ''}`.trim(), check.check)
          .standardOutput(failureText(check, stateful));
    }
  }
  return builder.build();
}
