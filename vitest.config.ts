import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Two workers for the two cores of CI: the fault matrix (long, mostly waiting on loopback) runs
    // beside the other files instead of after them (4 min → 2.5 min). Servers start per file.
    maxWorkers: 2,
    // Stores freeze whole bodies, so a read path that modifies a shared body throws in every test
    // (servers started by the tests inherit it). Outside tests only array items are frozen.
    env: { REFERENCE_FREEZE: 'deep' },
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
