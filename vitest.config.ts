import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Two workers for the two cores of CI: the fault matrix (long, mostly waiting on loopback) runs
    // beside the other files instead of after them. Servers start per file. No test measures this
    // machine's speed (the load runner's rate and onset are bench rows, bench/load.ts), so none
    // needs to run alone.
    maxWorkers: 2,
    // Stores freeze whole bodies, so a read path that modifies a shared body throws in every test
    // (servers started by the tests inherit it). Outside tests only array items are frozen.
    env: { REFERENCE_FREEZE: 'deep' },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    include: ['test/**/*.test.ts'],
  },
});
