// Lints both APIs: `redocly lint` on the split sources, then Spectral (spectral:oas, OWASP, house rules)
// on Redocly bundles written to a temporary directory. Exits 1 on any error, 2 on a missing input.
// Usage: node scripts/lint.mjs [--keep-bundles]
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { root, runTool } from './lib/tools.mjs';

const keepBundles = process.argv.includes('--keep-bundles');

/** Stops with exit code 2 and a message naming the missing input. */
function missing(what) {
  console.error(`lint: missing input: ${what}`);
  process.exit(2);
}

/** Runs a package's CLI, prints its output (without the Node 20 notice box) and returns status and text. */
function run(title, pkg, bin, args) {
  console.log(`\n== ${title}`);
  const { status, stdout, stderr } = runTool(pkg, bin, args, { capture: true });
  const strip = (text) => text.split('\n').filter((l) => !/^\s*[╔║╚]/.test(l)).join('\n').trim();
  const text = [strip(stdout), strip(stderr)].filter(Boolean).join('\n');
  if (text) console.log(text);
  return { status, text };
}

for (const file of ['redocly.yaml', '.spectral.yaml', 'scripts/lint-rules/payments.spectral.yaml']) {
  if (!existsSync(path.join(root, file))) missing(file);
}
const { apis } = await import('./lib/apis.mjs');
const names = Object.keys(apis ?? {});
if (names.length === 0) missing('no `apis:` entries in redocly.yaml');
for (const name of names) {
  const specRoot = apis[name]?.root;
  if (!specRoot || !existsSync(path.join(root, specRoot))) missing(`${specRoot ?? 'root'} (root of API "${name}" in redocly.yaml)`);
}
const summary = [];

// 1. redocly lint on the split sources; counts come from its closing summary line.
const lint = run(`redocly lint ${names.join(' ')}`, '@redocly/cli', 'redocly', ['lint', ...names]);
const count = (re) => Number(re.exec(lint.text)?.[1] ?? 0);
const redoclyLint = {
  tool: 'redocly lint',
  errors: count(/Validation failed with (\d+) errors?/),
  warnings: count(/Validation failed with \d+ errors? and (\d+) warnings?/) || count(/You have (\d+) warnings?\./),
};
if (lint.status !== 0 && redoclyLint.errors === 0) redoclyLint.errors = 1; // crashed, or a summary this script cannot read
summary.push(redoclyLint);

// 2. bundle each API into a temporary directory (by root path: with an alias, redocly writes to the
//    API's `output` in redocly.yaml and ignores --output), 3. Spectral on the bundles.
const outDir = mkdtempSync(path.join(tmpdir(), 'payments-lint-'));
try {
  const bundle = { tool: 'redocly bundle', errors: 0, warnings: 0 };
  const bundles = [];
  for (const name of names) {
    const file = path.join(outDir, `${name}.yaml`);
    const res = run(`redocly bundle ${name}`, '@redocly/cli', 'redocly', ['bundle', apis[name].root, '--output', file]);
    if (res.status === 0 && existsSync(file)) bundles.push(file);
    else bundle.errors += 1;
  }
  summary.push(bundle);

  const spectral = { tool: 'spectral lint', errors: 0, warnings: 0 };
  if (bundles.length > 0) {
    const json = path.join(outDir, 'spectral.json');
    const args = ['lint', ...bundles, '--ruleset', path.join(root, '.spectral.yaml'), '--fail-severity', 'error'];
    const res = run('spectral lint (bundled)', '@stoplight/spectral-cli', 'spectral', [...args, '-f', 'stylish', '-f', 'json', '--output.json', json]);
    const results = existsSync(json) ? JSON.parse(readFileSync(json, 'utf8')) : [];
    spectral.errors = results.filter((r) => r.severity === 0).length;
    spectral.warnings = results.filter((r) => r.severity === 1).length;
    if (res.status !== 0 && spectral.errors === 0) spectral.errors = 1; // crashed, e.g. an invalid ruleset
  }
  summary.push(spectral);
} finally {
  if (keepBundles) console.log(`\nbundles kept in ${outDir}`);
  else rmSync(outDir, { recursive: true, force: true });
}

const failed = summary.some((s) => s.errors > 0);
if (failed && !keepBundles) console.log('\n(Spectral line numbers refer to the bundles; rerun with --keep-bundles to keep them.)');
const line = summary.map((s) => `${s.tool}: ${s.errors} error(s), ${s.warnings} warning(s)`).join('; ');
console.log(`\nlint ${failed ? 'FAILED' : 'passed'}: ${line}`);
process.exit(failed ? 1 : 0);
