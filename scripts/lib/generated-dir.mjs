// Writes a folder of packages/contract/generated/ whole, so that a file the generator no longer makes does not linger.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './tools.mjs';

/** Clears `dir` (relative to the repository root) and writes `files` (`{ fileName: content }`) into it; returns their paths. */
export function replaceGeneratedDir(dir, files) {
  const outDir = path.join(root, dir);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(outDir, name), content);
  return Object.keys(files).map((name) => `${dir}/${name}`);
}
