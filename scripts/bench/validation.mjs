// What contract validation costs: loading packages/contract/src/validation with its generated validators in a fresh process, against
// compiling the same schemas with Ajv at start-up; and validations per second for typical requests and responses.
//   node scripts/bench/validation.mjs [--quick]
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { openBundle } from '../lib/refs.mjs';
import { root } from '../lib/tools.mjs';
import { BundledSpecExamples } from './examples.mjs';
import { bundleSource } from './load.mjs';
import { interleaved, summarize, timeMs } from './stats.mjs';
import { textTable } from './table.mjs';

const SECTION = 'contract validation';

/** packages/contract/src/validation bundled into one ESM file, as the package's build would ship it. */
const bundleValidation = () => bundleSource('packages/contract/src/validation/index.ts');

/** Runs an ES module script in a fresh Node process and reads the number it prints. */
const freshProcess = (script) =>
  Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' }));

/** Milliseconds a fresh Node process takes to import the module. */
const importMs = (file) =>
  freshProcess(
    `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); process.stdout.write(String(performance.now() - t));`,
  );

/**
 * Milliseconds a fresh Node process takes to compile, at run time, every schema the generated module holds
 * precompiled: the bundles already read and Ajv already imported, so this is Ajv's compilation alone.
 */
const compileMs = () =>
  freshProcess(`
  const { compileOperationSchemas } = await import(${JSON.stringify(pathToFileURL(path.join(root, 'scripts/generate-operation-validators.mjs')).href)});
  const { ajv, exportsMap } = await compileOperationSchemas();
  const t = performance.now();
  for (const ref of Object.values(exportsMap)) ajv.getSchema(ref);
  process.stdout.write(String(performance.now() - t));`);

/** Rows of start-up cost: load time of the generated validators, and run-time compilation of the same schemas. */
export async function validationStartup({ runs }) {
  const file = await bundleValidation();
  const load = [];
  const compile = [];
  for (let i = 0; i < runs; i++) {
    load.push(importMs(file));
    compile.push(compileMs());
  }
  const loaded = summarize(load);
  const compiled = summarize(compile);
  return [
    {
      section: SECTION,
      name: 'import the validation entry (generated validators), fresh process',
      unit: 'ms',
      ...loaded,
      ratio: loaded.median / compiled.median,
      baseline: 'Ajv compile',
    },
    { section: SECTION, name: 'Ajv compile of the same schemas, fresh process (baseline)', unit: 'ms', ...compiled },
  ];
}

/** Rows of validations per second for typical inputs, built from the contract's examples. */
export async function validationThroughput({ runs, iterations }) {
  const validation = await import(pathToFileURL(await bundleValidation()).href);
  const spec = new BundledSpecExamples(
    await openBundle(path.join(root, 'packages/contract/generated/openapi/variant-b.yaml')),
  );
  const example = (operationId) =>
    spec.firstExample(
      spec.doc.paths[spec.operations().find((op) => op.operationId === operationId).path].get?.responses['200'] ??
        spec.doc.paths[spec.operations().find((op) => op.operationId === operationId).path].post.responses['200'],
    );
  const payment = {
    amount: '42.50',
    currency: 'EUR',
    requisite: { type: 'card', bank: 'Example Bank' },
    metadata: { order_id: 'order-1' },
  };
  const headers = new Headers({ 'Idempotency-Key': 'key_1', 'Content-Type': 'application/json' });
  const json = new Headers({ 'Content-Type': 'application/json' });
  const rawPayment = JSON.stringify(payment);
  const badPayment = JSON.stringify({ ...payment, amount: '42,50', foo: 1, currency: 'eur' });
  const retrieved = example('retrievePayment');
  const page = example('listPayments');
  const contenders = {
    'matchOperation GET /merchant/v1/payments/{paymentId}': () =>
      validation.matchOperation('b', 'GET', '/merchant/v1/payments/pay_8f3k2m9q4w7x'),
    'validateRequest createPayment, valid raw JSON': () =>
      validation.validateRequest('b', 'createPayment', { headers, rawBody: rawPayment }),
    'validateRequest createPayment, 3 violations': () =>
      validation.validateRequest('b', 'createPayment', { headers, rawBody: badPayment }),
    'validateRequest listPayments ?limit=50&status=pending': () =>
      validation.validateRequest('b', 'listPayments', { query: new URLSearchParams('limit=50&status=pending') }),
    'validateResponse retrievePayment 200 (parsed body)': () =>
      validation.validateResponse('b', 'retrievePayment', { status: 200, headers: json, body: retrieved }),
    'validateResponse listPayments 200 page (parsed body)': () =>
      validation.validateResponse('b', 'listPayments', { status: 200, headers: json, body: page }),
  };
  const expectations = [true, true, false, true, [], []];
  Object.values(contenders).forEach((run, i) => {
    const result = run();
    const fine = Array.isArray(expectations[i])
      ? result.length === 0
      : (result.ok ?? result.kind === 'operation') === expectations[i];
    if (!fine) throw new Error(`${Object.keys(contenders)[i]} gave ${JSON.stringify(result)}`);
  });
  const batch = Object.fromEntries(
    Object.entries(contenders).map(([name, run]) => [
      name,
      async () => {
        const ms = await timeMs(() => {
          for (let i = 0; i < iterations; i++) run();
        });
        return (iterations / ms) * 1000;
      },
    ]),
  );
  const results = await interleaved(batch, { runs, warmup: 1 });
  return Object.entries(results).map(([name, s]) => ({ section: SECTION, name, unit: 'ops/s', ...s }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { quick: { type: 'boolean' } } });
  const runs = values.quick ? 3 : 9;
  const rows = [
    ...(await validationStartup({ runs })),
    ...(await validationThroughput({ runs, iterations: values.quick ? 2000 : 20000 })),
  ];
  console.log(textTable(rows));
  for (const row of rows.filter((r) => r.unit === 'ops/s'))
    console.log(`${row.name}: ${(1e6 / row.median).toFixed(2)} µs per call`);
}
