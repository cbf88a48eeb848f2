// The workspaces and where their sources are, for the tools that run them from source (vitest's aliases; tsconfig.json
// maps the same names for tsc and tsx). A package's name resolves to its built dist/ only once installed.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './tools.mjs';

/** The packages, each after the ones it depends on. */
export const packages = ['contract', 'sandbox', 'conformance', 'cli'];

/** Each package name and public entry, with the source file it stands for. */
const entries = {
  '@merchant-payments/contract': 'packages/contract/src/index.ts',
  '@merchant-payments/contract/webhooks': 'packages/contract/src/webhooks/index.ts',
  '@merchant-payments/contract/validation': 'packages/contract/src/validation/index.ts',
  '@merchant-payments/sandbox': 'packages/sandbox/src/index.ts',
  '@merchant-payments/conformance': 'packages/conformance/src/index.ts',
};

const escape = (text) => text.replace(/[/.]/g, '\\$&');

/** vitest's `resolve.alias`: the public entries, `<package>/internal/*` and the contract's `packages/contract/generated/*`. */
export const sourceAliases = [
  ...Object.entries(entries).map(([name, file]) => ({
    find: new RegExp(`^${escape(name)}$`),
    replacement: path.join(root, file),
  })),
  {
    find: /^@merchant-payments\/(contract|sandbox|conformance)\/internal\/(.*)$/,
    replacement: `${root}/packages/$1/src/$2`,
  },
  { find: /^@merchant-payments\/contract\/generated\/(.*)$/, replacement: `${root}/packages/contract/generated/$1` },
];

/** Each package's workspace dependencies, as its package.json lists them (dependencies and peerDependencies). */
export function declaredWorkspaces(
  read = (name) => readFileSync(path.join(root, 'packages', name, 'package.json'), 'utf8'),
) {
  return Object.fromEntries(
    packages.map((name) => {
      const manifest = JSON.parse(read(name));
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
