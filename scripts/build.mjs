// `npm run build`: compiles each package's src/ to its dist/ with tsc, a package after those it depends on; quiet on
// success; the sandbox's dashboard page with Vite besides. `node scripts/build.mjs sandbox` builds one (each package's prepack does, for npm pack).
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { transformSync } from 'esbuild';
import { buildDashboard } from './lib/dashboard.mjs';
import { requireFile, root, runTool } from './lib/tools.mjs';
import { packages } from './lib/workspaces.mjs';

/**
 * The files each package's exports and bins point at; the build fails if any is missing afterwards. Child processes
 * run some by path (the process groups', Prism's and Respect's preloads), so no import would report them missing.
 */
export const entries = {
  contract: [
    'dist/src/index.js',
    'dist/src/index.d.ts',
    'dist/src/webhooks/index.js',
    'dist/src/webhooks/index.d.ts',
    'dist/src/validation/index.js',
    'dist/src/validation/index.d.ts',
    'dist/src/shared/entry.js',
    'dist/src/shared/exit-with-parent.js',
    'dist/src/shared/run-in-group.js',
    'dist/src/shared/group-leader.js',
    'dist/src/shared/server-timeouts-preload.js',
  ],
  sandbox: ['dist/src/index.js', 'dist/src/index.d.ts', 'dist/src/cli/command.js', 'dist/dashboard/index.html'],
  conformance: ['dist/src/index.js', 'dist/src/index.d.ts', 'dist/src/command.js', 'dist/src/respect-guard.js'],
  cli: ['dist/src/main.js', 'dist/src/mock/command.js', 'dist/src/mock/problem-preload.js'],
};

/**
 * The folders of generated validators, whose compiled JavaScript loses its whitespace: tsc prints it again indented, and
 * it is most of what the contract installs. Names are kept, so a stack trace still reads; generated/ holds the source.
 */
const compact = { contract: ['dist/generated/operations', 'dist/generated/validators'] };

function compactWhitespace(dir) {
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.js'))) {
    const where = path.join(dir, file);
    const { code } = transformSync(readFileSync(where, 'utf8'), { loader: 'js', minifyWhitespace: true });
    const source = path
      .relative(root, where)
      .replace(/^packages\/contract\/dist\//, 'packages/contract/')
      .replace(/\.js$/, '.ts');
    writeFileSync(where, `// Compiled from ${source}, without its whitespace (scripts/build.mjs).\n${code}`);
  }
}

/** Compiles one package into its dist/, replacing what was there. */
export function build(name) {
  const dir = path.join(root, 'packages', name);
  rmSync(path.join(dir, 'dist'), { recursive: true, force: true });
  const { status } = runTool('typescript', 'tsc', ['-p', path.join(dir, 'tsconfig.build.json')]);
  if (status !== 0) throw new Error(`tsc failed in packages/${name}; see the errors above.`);
  for (const folder of compact[name] ?? []) compactWhitespace(path.join(dir, folder));
  // Note: the sandbox's page is built beside its code, into dist/dashboard, which the package ships and serves.
  if (name === 'sandbox') buildDashboard(path.join(dir, 'dist', 'dashboard'));
  const missing = entries[name].filter((file) => !existsSync(path.join(dir, file)));
  if (missing.length > 0) throw new Error(`The build of packages/${name} did not produce ${missing.join(', ')}.`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const asked = process.argv.slice(2);
    const unknown = asked.filter((name) => !packages.includes(name));
    if (unknown.length > 0)
      throw new Error(`No package ${unknown.join(', ')}; the packages are ${packages.join(', ')}.`);
    for (const dir of ['types', 'validators', 'operations'])
      requireFile(`packages/contract/generated/${dir}`, 'run npm run regenerate first');
    for (const name of asked.length > 0 ? asked : packages) build(name);
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
