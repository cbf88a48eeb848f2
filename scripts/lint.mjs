// Lints every API in redocly.yaml: `redocly lint` on the split sources, then Spectral (spectral:oas, OWASP, house rules)
// on Redocly bundles written to a temporary directory, then spectral:arazzo on packages/contract/openapi/arazzo/*.arazzo.yaml; then checks
// that src/ has no import cycle, type-only imports included (dpdm); then lints the code with ESLint (eslint.config.js).
// Exits 1 on any error, 2 on a missing input.
// Usage: node scripts/lint.mjs [--keep-bundles]
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { root, runTool } from './lib/tools.mjs';
import { wallViolations } from './lib/package-walls.mjs';
import { declaredWorkspaces } from './lib/workspaces.mjs';

const keepBundles = process.argv.includes('--keep-bundles');
/** Where ESLint keeps what it linted, by content, between runs (node_modules is never committed). */
const ESLINT_CACHE = path.join(root, 'node_modules/.cache/eslint/');
/** The files whose import cycles are only warned about, for now (see step 5). */

/**
 * Spectral over `files` with `ruleset`, its findings printed and counted into `tally` (a crash, an invalid ruleset say,
 * counts as one error).
 */
function spectralLint(files, ruleset, json, tally) {
  const args = ['lint', ...files, '--ruleset', ruleset, '--fail-severity', 'error', '-f', 'stylish', '-f', 'json'];
  const res = runTool('@stoplight/spectral-cli', 'spectral', [...args, '--output.json', json]);
  const results = existsSync(json) ? JSON.parse(readFileSync(json, 'utf8')) : [];
  const errors = results.filter((r) => r.severity === 0).length;
  tally.errors += errors + (res.status !== 0 && errors === 0 ? 1 : 0);
  tally.warnings += results.filter((r) => r.severity === 1).length;
}

/** Stops with exit code 2 and a message naming the missing input. */
function missing(what) {
  console.error(`lint: missing input: ${what}`);
  process.exit(2);
}

for (const file of [
  'redocly.yaml',
  '.spectral.yaml',
  'scripts/lint-rules/payments.spectral.yaml',
  'scripts/lint-rules/arazzo.spectral.yaml',
  'eslint.config.js',
]) {
  if (!existsSync(path.join(root, file))) missing(file);
}
const { apis } = await import('./lib/apis.mjs');
const { bundle } = await import('./bundle.mjs');
const names = Object.keys(apis ?? {});
if (names.length === 0) missing('no `apis:` entries in redocly.yaml');
for (const name of names) {
  const specRoot = apis[name]?.root;
  if (!specRoot || !existsSync(path.join(root, specRoot)))
    missing(`${specRoot ?? 'root'} (root of API "${name}" in redocly.yaml)`);
  const ruleset = apis[name]['x-spectral-ruleset'];
  if (ruleset && !existsSync(path.join(root, ruleset)))
    missing(`${ruleset} (x-spectral-ruleset of API "${name}" in redocly.yaml)`);
}
const summary = [];

// 1. redocly lint on the split sources, one API per run: with several, its JSON output is one object per API, back to back.
const redoclyLint = { tool: 'redocly lint', errors: 0, warnings: 0 };
for (const name of names) {
  console.log(`\n== redocly lint ${name}`);
  const { status, stdout, stderr } = runTool('@redocly/cli', 'redocly', ['lint', name, '--format=json'], {
    capture: true,
  });
  let report;
  try {
    report = JSON.parse(stdout);
  } catch {
    console.log(stderr.trim()); // crashed before it could report, e.g. on an invalid redocly.yaml
    redoclyLint.errors += 1;
    continue;
  }
  for (const {
    location: [at],
    severity,
    ruleId,
    message,
  } of report.problems) {
    console.log(
      `${at?.source.ref}:${at?.start?.line ?? 0}:${at?.start?.col ?? 0} ${severity} ${ruleId} ${message} (${at?.pointer})`,
    );
  }
  redoclyLint.errors += report.totals.errors + (status !== 0 && report.totals.errors === 0 ? 1 : 0);
  redoclyLint.warnings += report.totals.warnings;
}
summary.push(redoclyLint);

// 2. bundle each API into a temporary directory, 3. Spectral on the bundles.
const outDir = mkdtempSync(path.join(tmpdir(), 'payments-lint-'));
try {
  console.log('\n== redocly bundle');
  const redoclyBundle = { tool: 'redocly bundle', errors: 0, warnings: 0 };
  const bundles = [];
  for (const name of names) {
    try {
      bundle([name], outDir);
      bundles.push({
        file: path.join(outDir, path.basename(apis[name].output)),
        ruleset: apis[name]['x-spectral-ruleset'] ?? '.spectral.yaml',
      });
    } catch (error) {
      console.log(error.message);
      redoclyBundle.errors += 1;
    }
  }
  summary.push(redoclyBundle);

  // Note: one Spectral run per ruleset; Spectral's own `overrides` match files by paths relative to the ruleset, and
  // the bundles are in a temporary directory.
  const spectral = { tool: 'spectral lint', errors: 0, warnings: 0 };
  const byRuleset = new Map();
  for (const { file, ruleset } of bundles) byRuleset.set(ruleset, [...(byRuleset.get(ruleset) ?? []), file]);
  for (const [ruleset, files] of byRuleset) {
    console.log(`\n== spectral lint (bundled) --ruleset ${ruleset}`);
    spectralLint(
      files,
      path.join(root, ruleset),
      path.join(outDir, `spectral-${path.basename(ruleset, '.yaml')}.json`),
      spectral,
    );
  }
  summary.push(spectral);

  // 4. Spectral's Arazzo rules on the workflows as shipped: they point at the bundles in packages/contract/generated/openapi.
  const arazzo = { tool: 'spectral lint (arazzo)', errors: 0, warnings: 0 };
  const workflows = readdirSync(path.join(root, 'packages/contract/openapi/arazzo'))
    .filter((f) => f.endsWith('.arazzo.yaml'))
    .map((f) => path.join(root, 'packages/contract/openapi/arazzo', f));
  if (workflows.length > 0) {
    console.log('\n== spectral lint (arazzo) --ruleset scripts/lint-rules/arazzo.spectral.yaml');
    const ruleset = path.join(root, 'scripts/lint-rules/arazzo.spectral.yaml');
    spectralLint(workflows, ruleset, path.join(outDir, 'spectral-arazzo.json'), arazzo);
  }
  summary.push(arazzo);

  // 5. No import cycle in the packages' code (and the generated code it imports), type-only imports and import()
  // included, and no import through a package's wall (scripts/lib/package-walls.mjs): dpdm reads every import with
  // TypeScript's parser, resolves it (tsconfig.json's paths too) and lists each cycle once.
  const cycles = { tool: 'dpdm (import cycles, package walls)', errors: 0, warnings: 0 };
  console.log('\n== dpdm: import cycles and package walls in packages/*/src and the dashboard');
  const json = path.join(outDir, 'dpdm.json');
  const res = runTool(
    'dpdm',
    'dpdm',
    [
      '--no-tree',
      '--no-warning',
      '--no-circular',
      '--no-progress',
      '--output',
      json,
      'packages/*/src/**/*.ts',
      'packages/*/src/**/*.js',
      'packages/*/bin/*.mjs',
      // Note: the sandbox's dashboard page too, which reaches the contract only by its name, as the sandbox does.
      'packages/sandbox/dashboard/src/**/*.ts',
      'packages/sandbox/dashboard/src/**/*.tsx',
    ],
    { capture: true },
  );
  if (res.status !== 0 || !existsSync(json)) {
    console.log(res.stderr.trim());
    cycles.errors += 1;
  }
  const { circulars = [], tree = {} } = existsSync(json) ? JSON.parse(readFileSync(json, 'utf8')) : {};
  for (const cycle of circulars) {
    console.log(`error: ${[...cycle, cycle[0]].join(' -> ')}`);
    cycles.errors += 1;
  }
  for (const violation of wallViolations(tree, declaredWorkspaces())) {
    console.log(`error: ${violation}`);
    cycles.errors += 1;
  }
  summary.push(cycles);

  // 6. ESLint over the code: every file its config (eslint.config.js) takes, with the rules and their reasons there.
  const eslint = { tool: 'eslint', errors: 0, warnings: 0 };
  console.log('\n== eslint (eslint.config.js)');
  const eslintJson = path.join(outDir, 'eslint.json');
  // Note: cached by content under node_modules/.cache (a fresh clone, and so CI, lints everything); a file whose own text
  // is unchanged keeps its result even if a type it imports changed, which `npm run typecheck` still judges.
  const linted = runTool(
    'eslint',
    'eslint',
    [
      '.',
      '--cache',
      '--cache-strategy',
      'content',
      '--cache-location',
      ESLINT_CACHE,
      '--format',
      'json',
      '--output-file',
      eslintJson,
    ],
    { capture: true },
  );
  const files = existsSync(eslintJson) ? JSON.parse(readFileSync(eslintJson, 'utf8')) : [];
  for (const { filePath, messages } of files) {
    for (const { line, column, severity, ruleId, message } of messages) {
      console.log(
        `${path.relative(root, filePath)}:${line ?? 0}:${column ?? 0} ${severity === 2 ? 'error' : 'warning'} ${ruleId ?? ''} ${message}`,
      );
    }
    eslint.errors += messages.filter((m) => m.severity === 2).length;
    eslint.warnings += messages.filter((m) => m.severity === 1).length;
  }
  if (linted.status !== 0 && eslint.errors === 0) {
    console.log(linted.stderr.trim()); // crashed, e.g. on an invalid eslint.config.js
    eslint.errors += 1;
  }
  summary.push(eslint);

  // 7. Prettier: the code's formatting (.prettierrc.json; .prettierignore says what it leaves and why).
  const prettier = { tool: 'prettier', errors: 0, warnings: 0 };
  console.log('\n== prettier --check (.prettierrc.json)');
  const formatted = runTool('prettier', 'prettier', ['--check', '--cache', '--log-level', 'warn', '.'], {
    capture: true,
  });
  const unformatted = `${formatted.stdout}${formatted.stderr}`
    .split('\n')
    .filter((l) => l.startsWith('[warn] ') && !l.includes('Code style issues'));
  for (const l of unformatted) console.log(`${l.slice('[warn] '.length)}: not formatted (npx prettier --write <file>)`);
  prettier.errors += unformatted.length + (formatted.status !== 0 && unformatted.length === 0 ? 1 : 0);
  if (formatted.status !== 0 && unformatted.length === 0) console.log(`${formatted.stdout}${formatted.stderr}`.trim());
  summary.push(prettier);
} finally {
  if (keepBundles) console.log(`\nbundles kept in ${outDir}`);
  else rmSync(outDir, { recursive: true, force: true });
}

const failed = summary.some((s) => s.errors > 0);
if (summary.some((s) => s.tool.startsWith('spectral') && s.errors > 0) && !keepBundles)
  console.log('\n(Spectral line numbers refer to the bundles; rerun with --keep-bundles to keep them.)');
const line = summary.map((s) => `${s.tool}: ${s.errors} error(s), ${s.warnings} warning(s)`).join('; ');
console.log(`\nlint ${failed ? 'FAILED' : 'passed'}: ${line}`);
process.exit(failed ? 1 : 0);
