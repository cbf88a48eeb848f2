// `npm run build`: compiles src/ (and the generated types and validators it imports) to dist/ with tsc; quiet on success.
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { requireFile, root, runTool } from './lib/tools.mjs';

/** The files the package's exports and its bin point at; the build fails if any is missing afterwards. */
export const entries = [
  'dist/src/index.js',
  'dist/src/index.d.ts',
  'dist/src/webhooks/index.js',
  'dist/src/webhooks/index.d.ts',
  'dist/src/sandbox/index.js',
  'dist/src/sandbox/index.d.ts',
  'dist/src/sandbox/cli/command.js',
  'dist/src/conformance/index.js',
  'dist/src/conformance/index.d.ts',
  'dist/src/conformance/command.js',
  'dist/src/cli/main.js',
  'dist/src/cli/entry.js',
  'dist/src/mock/command.js',
  // Note: child processes run these by path (the process groups', Prism's and Respect's preloads), so no import would
  // report them missing.
  'dist/src/shared/exit-with-parent.js',
  'dist/src/shared/run-in-group.js',
  'dist/src/shared/group-leader.js',
  'dist/src/mock/prism-timeouts.js',
  'dist/src/conformance/respect-guard.js',
];

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    requireFile('tsconfig.build.json');
    for (const dir of ['generated/types', 'generated/validators', 'generated/operations'])
      requireFile(dir, 'run npm run regenerate first');
    rmSync(path.join(root, 'dist'), { recursive: true, force: true });
    const { status } = runTool('typescript', 'tsc', ['-p', 'tsconfig.build.json']);
    if (status !== 0) throw new Error('tsc failed; see the errors above.');
    const missing = entries.filter((file) => !existsSync(path.join(root, file)));
    if (missing.length > 0) throw new Error(`The build did not produce ${missing.join(', ')}.`);
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
