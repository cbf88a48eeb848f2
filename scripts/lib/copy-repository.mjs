// A copy of the repository to pack from, as `npm publish` would pack it: a build deletes dist/ first, so two packs in
// one folder (two test runs, or a test run and the bench) would each pack half of the other's build.
import { cpSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { root } from './tools.mjs';
import { packages } from './workspaces.mjs';

/** What the copy leaves out: git's data, the dependencies (linked instead) and build output. */
const NOT_COPIED = new Set([
  '.git',
  'node_modules',
  path.join('docs', 'site'),
  ...packages.flatMap((name) => [path.join('packages', name, 'dist'), path.join('packages', name, 'node_modules')]),
]);

/**
 * Copies the repository into `destination`/package; the copy's folder. Its node_modules links each installed package
 * of the repository's, but for the workspaces, which link the copy's own packages, so that a package's build reads
 * the types its siblings were just built with in the copy.
 */
export function copyRepository(destination) {
  const copy = path.join(destination, 'package');
  cpSync(root, copy, { recursive: true, filter: (source) => !NOT_COPIED.has(path.relative(root, source)) });
  const modules = path.join(copy, 'node_modules');
  mkdirSync(modules);
  for (const entry of readdirSync(path.join(root, 'node_modules'))) {
    if (entry === '@merchant-payments') continue;
    symlinkSync(path.join(root, 'node_modules', entry), path.join(modules, entry));
  }
  mkdirSync(path.join(modules, '@merchant-payments'));
  for (const name of packages)
    symlinkSync(path.join(copy, 'packages', name), path.join(modules, '@merchant-payments', name));
  return copy;
}

/** The arguments of `npm pack` for every workspace, its JSON report on stdout, the tarballs into `destination`. */
export const packArgs = (destination) => ['pack', '--workspaces', '--json', '--pack-destination', destination];

/** Each package's tarball and the files npm put in it, from `npm pack --json`'s stdout. */
export function packReport(stdout, destination) {
  // Note: the prepack scripts' own output comes first on stdout; the JSON report is the rest.
  const report = JSON.parse(stdout.slice(stdout.indexOf('[')));
  return Object.fromEntries(
    report.map((info) => [
      info.name.replace('@merchant-payments/', ''),
      { tarball: path.join(destination, info.filename), files: info.files.map((file) => file.path) },
    ]),
  );
}
