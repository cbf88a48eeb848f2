import { defineConfig } from 'vitest/config';

// Test discovery and timeouts; lint and mock tests spawn CLIs, so timeouts are generous.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
