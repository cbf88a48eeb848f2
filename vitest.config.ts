import { defineConfig } from 'vitest/config';

// Test discovery and timeouts; lint and mock tests spawn CLIs, so timeouts are generous.
// The global setup starts the Prism mock of each variant for the client contract tests.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/client/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
