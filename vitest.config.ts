import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Two workers for the two cores of CI: the fault matrix (long, mostly waiting on loopback) runs
    // beside the other files instead of after them (4 min → 2.5 min). Servers start per file.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
