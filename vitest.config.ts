import { defineConfig } from 'vitest/config';

/** Tests that measure time on this machine (an arrival rate held within 2%, a 429 onset within 10%):
 *  they run after everything else, alone, so that the fault matrix's CPU does not skew them. */
const TIMING = ['test/load/runner.test.ts', 'test/load/slow-target.test.ts'];

export default defineConfig({
  test: {
    // Two workers for the two cores of CI: the fault matrix (long, mostly waiting on loopback) runs
    // beside the other files instead of after them. Servers start per file.
    maxWorkers: 2,
    // Stores freeze whole bodies, so a read path that modifies a shared body throws in every test
    // (servers started by the tests inherit it). Outside tests only array items are frozen.
    env: { REFERENCE_FREEZE: 'deep' },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      { extends: true, test: { name: 'project', include: ['test/**/*.test.ts'], exclude: TIMING, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'timing', include: TIMING, sequence: { groupOrder: 1 } } },
    ],
  },
});
