// `npm run bench`: client overhead, bundle size, webhook verification, pipeline time and type-check cost,
// each as medians over repeated runs with min and max, and ratios against baselines from the same run.
// Prints one table and writes it, with the command and the machine, to docs/benchmarks.md.
//   npm run bench [-- --quick] [-- --no-pipeline]
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { bundleSizes } from './bench/bundle.mjs';
import { clientOverhead } from './bench/client.mjs';
import { BundledSpecExamples } from './bench/examples.mjs';
import { loadSource, scratch } from './bench/load.mjs';
import { pipelineTimes } from './bench/pipeline.mjs';
import { markdownTable, textTable } from './bench/table.mjs';
import { typecheckCost } from './bench/typecheck.mjs';
import { webhookThroughput } from './bench/webhooks.mjs';
import { openBundle } from './lib/refs.mjs';
import { root } from './lib/tools.mjs';

const { values: flags } = parseArgs({ options: { quick: { type: 'boolean' }, 'no-pipeline': { type: 'boolean' } } });
const quick = Boolean(flags.quick);
const settings = {
  requests: quick ? 100 : 500,
  clientRuns: quick ? 3 : 15,
  verifications: quick ? 200 : 2000,
  webhookRuns: quick ? 3 : 9,
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

const pkg = await loadSource('src/index.ts');
const specB = new BundledSpecExamples(await openBundle(path.join(root, 'generated/openapi/variant-b.yaml')));

rows.push(...(await step('client overhead', () => clientOverhead({ pkg, requests: settings.requests, runs: settings.clientRuns }))));
const sizes = await step('bundle size', () => bundleSizes());
rows.push(...sizes.rows);
notes.push(...sizes.notes);
rows.push(...(await step('webhook verification', () => webhookThroughput({
  pkg, example: specB.webhookExample('onStatusChange'), runs: settings.webhookRuns, verifications: settings.verifications,
}))));
rows.push(...(await step('type-check cost', () => typecheckCost({ scratch, runs: settings.typecheckRuns }))));
if (!flags['no-pipeline']) {
  rows.push(...(await step('pipeline', () => pipelineTimes({ runs: settings.pipelineRuns, fullTest: !quick }))));
}

const table = textTable(rows);
const totalSeconds = (performance.now() - started) / 1000;
console.log(table);
console.log('');
for (const note of notes) console.log(note);
console.log(`\nbench took ${totalSeconds.toFixed(0)} s`);

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
