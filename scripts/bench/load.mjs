// Builds the package's TypeScript sources into one ESM file with esbuild and imports it, as a user's bundler would.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { root } from '../lib/tools.mjs';

/** Scratch folder for benchmark builds; inside node_modules so bundles resolve the project's packages. */
export const scratch = path.join(root, 'node_modules/.cache/merchant-payments-bench');

/** Bundles `entry` (relative to the root) into one ESM file in `scratch`, dependencies left external; its path. */
export async function bundleSource(entry) {
  mkdirSync(scratch, { recursive: true });
  // Note: named by the entry's whole path, since packages/contract/src/index.ts and packages/contract/src/validation/index.ts share a base name, and
  // import() would hand back the first module imported from the same file.
  const outfile = path.join(scratch, `${entry.replace(/\.ts$/, '').replaceAll('/', '-')}-${process.pid}.mjs`);
  await build({
    entryPoints: [path.join(root, entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'error',
  });
  return outfile;
}

/** Bundles `entry` as bundleSource does and imports the result. */
export async function loadSource(entry) {
  return import(pathToFileURL(await bundleSource(entry)).href);
}
