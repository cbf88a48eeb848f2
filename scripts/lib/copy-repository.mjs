// A copy of the repository to pack from, as `npm publish` would pack it: a build deletes dist/ first, so two packs in
// one folder (two test runs, or a test run and the bench) would each pack half of the other's build.
import { cpSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { root } from './tools.mjs';

/** What the copy leaves out: git's data, the dependencies (linked instead) and build output. */
const NOT_COPIED = new Set(['.git', 'node_modules', 'dist', path.join('docs', 'site')]);

/** Copies the repository into `destination`/package, linking node_modules; the copy's folder. */
export function copyRepository(destination) {
  const copy = path.join(destination, 'package');
  cpSync(root, copy, { recursive: true, filter: (source) => !NOT_COPIED.has(path.relative(root, source)) });
  symlinkSync(path.join(root, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
  return copy;
}
