// The workspaces and where their sources are, for the tools that run them from source (vitest's aliases; tsconfig.json
// maps the same names for tsc and tsx). A package's name resolves to its built dist/ only once installed.
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
