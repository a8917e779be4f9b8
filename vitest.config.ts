import { defineConfig } from 'vitest/config';
import LongestFirst from './test/longest-first.ts';

/** Tests that measure time on this machine (an arrival rate held within 2%, a 429 onset within 10%):
 *  they run after everything else, alone, so that the fault matrix's CPU does not skew them. */
const TIMING = ['test/load/runner.test.ts', 'test/load/slow-target.test.ts'];

export default defineConfig({
  test: {
    // Three workers on the two cores of CI: the longest files (the self-test's matrices, the command's
    // runs against hostile targets) spend much of their time waiting on deadlines and on the processes
    // they start, and a third file uses the core they leave idle. Servers start per file.
    maxWorkers: 3,
    // The longest files first, on a fresh clone too (test/longest-first.ts).
    sequence: { sequencer: LongestFirst },
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
