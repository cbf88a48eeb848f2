// The compiler options the guides' TypeScript examples are checked with, as tsconfig.json holds them: strict, Node's
// module resolution, and the package's own names resolved to its sources so the examples are checked before any build.
import path from 'node:path';
import { root } from '../../scripts/lib/tools.mjs';
import { sourcePaths } from '../../scripts/lib/workspaces.mjs';

export const snippetCompilerOptions = {
  target: 'ES2022',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  lib: ['ES2022', 'DOM'],
  types: ['node'],
  typeRoots: [path.join(root, 'node_modules/@types')],
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  paths: {
    ...sourcePaths,
    // Note: the testing guide's vitest file imports vitest, which the examples' folder outside the repository cannot reach.
    vitest: [path.join(root, 'node_modules/vitest/dist/index.d.ts')],
  },
  allowImportingTsExtensions: true,
  // Note: packages/contract/src/shared/server-timeouts.js is plain JavaScript (a bare `node` preload imports it), typed by its JSDoc.
  allowJs: true,
  checkJs: false,
};
