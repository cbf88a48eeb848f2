import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Test discovery and timeouts; lint and mock tests spawn CLIs, so timeouts are generous.
// The global setups start the Prism mock of each variant for the client contract tests, and make the folder the
// packed tarball is shared in.
// The alias lets examples/ import the package by its name, as a user would (tsconfig.json maps it too).
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@merchant-payments\/contract\/webhooks$/, replacement: fileURLToPath(new URL('./src/webhooks/index.ts', import.meta.url)) },
      { find: /^@merchant-payments\/contract\/sandbox$/, replacement: fileURLToPath(new URL('./src/sandbox/index.ts', import.meta.url)) },
      { find: /^@merchant-payments\/contract\/conformance$/, replacement: fileURLToPath(new URL('./src/conformance/index.ts', import.meta.url)) },
      { find: /^@merchant-payments\/contract$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/client/global-setup.ts', 'test/package/global-setup.ts'],
    // Note: the slowest files mostly wait on child processes (Prism, npm, Chromium); on two cores a third worker
    // runs other files in that time (measured: 141 s with two, 106 s with three, 114 s with four).
    maxWorkers: 3,
    // Note: a worker keeps its modules from one file to the next rather than loading the package again for each
    // (measured: 172 s isolated, 147 s not); a file that changes a global puts it back in afterAll.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
