import { defineConfig } from 'vitest/config';

// Browser and sandbox tests: one file at a time, so two Chromium instances or sandboxes never
// compete for the two cores of CI.
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
