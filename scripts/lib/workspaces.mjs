// The workspaces and where their sources are, for the tools that run them from source. tsconfig.base.json's `paths`
// map the packages' names to their sources for tsc and tsx; vitest's aliases and the docs' snippet checks are made
// from the same paths here. A package's name resolves to its built dist/ only once installed.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { root } from './tools.mjs';

/** The packages, each after the ones it depends on, as the root package.json lists its workspaces. */
export const packages = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).workspaces.map((folder) =>
  path.basename(folder),
);

/** tsconfig.base.json's `paths`, each target made absolute: a name (or `name/*`) and the source it stands for. */
export const sourcePaths = Object.fromEntries(
  Object.entries(
    ts.readConfigFile(path.join(root, 'tsconfig.base.json'), (file) => ts.sys.readFile(file)).config.compilerOptions
      .paths,
  ).map(([name, targets]) => [name, targets.map((target) => path.join(root, target))]),
);

const escape = (text) => text.replace(/[/.]/g, '\\$&');

/** vitest's `resolve.alias`, from sourcePaths: `name` exactly, and `name/*` with what the star stands for. */
export const sourceAliases = Object.entries(sourcePaths).map(([name, [target]]) =>
  name.endsWith('/*')
    ? { find: new RegExp(`^${escape(name.slice(0, -1))}(.*)$`), replacement: `${target.slice(0, -1)}$1` }
    : { find: new RegExp(`^${escape(name)}$`), replacement: target },
);

/** Each package's workspace dependencies, as its package.json lists them (dependencies and peerDependencies). */
export function declaredWorkspaces() {
  return Object.fromEntries(
    packages.map((name) => {
      const manifest = JSON.parse(readFileSync(path.join(root, 'packages', name, 'package.json'), 'utf8'));
      const listed = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
      return [name, packages.filter((other) => listed.includes(`@merchant-payments/${other}`))];
    }),
  );
}

/** The package `name` and every workspace it depends on, those first: what installing it from tarballs needs. */
export function withWorkspaceDependencies(name, declared = declaredWorkspaces()) {
  const order = [];
  const visit = (current) => {
    for (const dependency of declared[current] ?? []) visit(dependency);
    if (!order.includes(current)) order.push(current);
  };
  visit(name);
  return order;
}
