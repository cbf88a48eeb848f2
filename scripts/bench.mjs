// `npm run bench`: client overhead, bundle size, webhook verification, contract validation, the sandbox against
// Prism, hosted mode's issued credentials against open mode, webhooks forwarded to a listener against an endpoint's,
// the sandbox on PostgreSQL beside its memory store,
// type-check cost and pipeline time, each as medians over repeated runs with min and max, and ratios against baselines from the same run. Prints one table and writes it, with the command and the machine, to docs/benchmarks.md.
//   npm run bench [-- --quick] [-- --no-pipeline] [-- --only <section>[,<section>...]]
// --only runs the named sections (for instance `--only sandbox`) and prints them, but leaves docs/benchmarks.md as it
// is, since its table holds every section.
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { bundleSizes } from './bench/bundle.mjs';
import { installSizes } from './bench/install.mjs';
import { clientOverhead } from './bench/client.mjs';
import { BundledSpecExamples } from './bench/examples.mjs';
import { loadSource, scratch } from './bench/load.mjs';
import { pipelineTimes } from './bench/pipeline.mjs';
import { postgresBench } from './bench/postgres.mjs';
import { forwardingBench } from './bench/forwarding.mjs';
import { hostedBench } from './bench/hosted.mjs';
import { sandboxBench } from './bench/sandbox.mjs';
import { markdownTable, textTable } from './bench/table.mjs';
import { typecheckCost } from './bench/typecheck.mjs';
import { validationStartup, validationThroughput } from './bench/validation.mjs';
import { webhookThroughput } from './bench/webhooks.mjs';
import { openBundle } from './lib/refs.mjs';
import { root } from './lib/tools.mjs';

const SECTIONS = [
  'client',
  'bundle',
  'install',
  'webhooks',
  'validation',
  'sandbox',
  'hosted',
  'forwarding',
  'postgres',
  'typecheck',
  'pipeline',
];
const { values: flags } = parseArgs({
  options: { quick: { type: 'boolean' }, 'no-pipeline': { type: 'boolean' }, only: { type: 'string' } },
});
const quick = Boolean(flags.quick);
const only = flags.only?.split(',').map((name) => name.trim());
const unknown = only?.filter((name) => !SECTIONS.includes(name)) ?? [];
if (unknown.length > 0) {
  console.error(`bench: no section ${unknown.join(', ')}; the sections are ${SECTIONS.join(', ')}`);
  process.exit(2);
}
const runs = (name) => (only ? only.includes(name) : name !== 'pipeline' || !flags['no-pipeline']);
const settings = {
  requests: quick ? 100 : 500,
  clientRuns: quick ? 3 : 15,
  verifications: quick ? 200 : 2000,
  webhookRuns: quick ? 3 : 9,
  validationRuns: quick ? 3 : 9,
  validationIterations: quick ? 2000 : 20000,
  pipelineRuns: quick ? 1 : 3,
  typecheckRuns: quick ? 1 : 5,
};

const started = performance.now();
const rows = [];
const notes = [];
const step = async (name, fn) => {
  const t = performance.now();
  process.stderr.write(`bench: ${name}...`);
  const result = await fn();
  process.stderr.write(` ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
  return result;
};

const pkg = runs('client') || runs('webhooks') ? await loadSource('packages/contract/src/index.ts') : undefined;

if (runs('client')) {
  const client = await step('client overhead', () =>
    clientOverhead({ pkg, requests: settings.requests, runs: settings.clientRuns }),
  );
  rows.push(...client.rows);
  notes.push(...client.notes);
}
if (runs('bundle')) {
  const sizes = await step('bundle size', () => bundleSizes());
  rows.push(...sizes.rows);
  notes.push(...sizes.notes);
}
if (runs('install')) {
  const sizes = await step('install size', () => installSizes());
  rows.push(...sizes.rows);
  notes.push(...sizes.notes);
}

if (runs('webhooks')) {
  const specB = new BundledSpecExamples(
    await openBundle(path.join(root, 'packages/contract/generated/openapi/variant-b.yaml')),
  );
  rows.push(
    ...(await step('webhook verification', () =>
      webhookThroughput({
        pkg,
        example: specB.webhookExample('onStatusChange'),
        runs: settings.webhookRuns,
        verifications: settings.verifications,
      }),
    )),
  );
}
if (runs('validation')) {
  rows.push(
    ...(await step('contract validation', async () => [
      ...(await validationStartup({ runs: settings.validationRuns })),
      ...(await validationThroughput({ runs: settings.validationRuns, iterations: settings.validationIterations })),
    ])),
  );
}
if (runs('sandbox')) {
  const sandbox = await step('sandbox', () => sandboxBench({ quick }));
  rows.push(...sandbox.rows);
  notes.push(...sandbox.notes);
  settings.sandbox = sandbox.settings;
}
if (runs('hosted')) {
  const hosted = await step('hosted', () => hostedBench({ quick }));
  rows.push(...hosted.rows);
  notes.push(...hosted.notes);
  settings.hosted = hosted.settings;
}
if (runs('forwarding')) {
  const forwarding = await step('forwarding', () => forwardingBench({ quick }));
  rows.push(...forwarding.rows);
  notes.push(...forwarding.notes);
  settings.forwarding = forwarding.settings;
}
if (runs('postgres')) {
  const postgres = await step('postgres', () => postgresBench({ quick }));
  rows.push(...postgres.rows);
  notes.push(...postgres.notes);
  settings.postgres = postgres.settings;
}
if (runs('typecheck'))
  rows.push(...(await step('type-check cost', () => typecheckCost({ scratch, runs: settings.typecheckRuns }))));
if (runs('pipeline'))
  rows.push(...(await step('pipeline', () => pipelineTimes({ runs: settings.pipelineRuns, fullTest: !quick }))));

const table = textTable(rows);
const totalSeconds = (performance.now() - started) / 1000;
console.log(table);
console.log('');
for (const note of notes) console.log(note);
console.log(`\nbench took ${totalSeconds.toFixed(0)} s`);
if (only) {
  console.log(`docs/benchmarks.md left as it is: --only ran ${only.join(', ')}, and its table holds every section`);
  process.exit(0);
}

const cpu = os.cpus();
const machine = `${cpu.length} x ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}, Node ${process.version}`;
const command = `npm run bench${quick ? ' -- --quick' : ''}${flags['no-pipeline'] ? ' -- --no-pipeline' : ''}`;
const doc = readFileSync(path.join(root, 'docs/benchmarks.md'), 'utf8');
const marker = '<!-- results -->';
if (!doc.includes(marker)) throw new Error(`docs/benchmarks.md has no ${marker} line to write the results under.`);
const results = [
  marker,
  '',
  `Command: \`${command}\`, ${new Date().toISOString().slice(0, 10)}, in ${totalSeconds.toFixed(0)} s.`,
  `Machine: ${machine}.`,
  `Settings: ${JSON.stringify(settings)}.`,
  '',
  markdownTable(rows),
  '',
  ...notes.map((n) => `- ${n}`),
  '',
].join('\n');
writeFileSync(path.join(root, 'docs/benchmarks.md'), `${doc.slice(0, doc.indexOf(marker))}${results}`);
console.log('wrote docs/benchmarks.md');
