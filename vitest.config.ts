import { defineConfig } from 'vitest/config';
import LongestFirst from './test/longest-first.ts';
import { budget } from './test/budget.ts';

/** Files that mock modules (vi.mock): they run in a module cache of their own. */
const ISOLATED = ['test/engine/psyche/readable.test.ts'];

export default defineConfig({
  test: {
    // Three workers on the two cores of CI: the longest files (the self-test's matrices, the command's
    // runs against hostile targets) spend much of their time waiting on deadlines and on the processes
    // they start, and a third file uses the core they leave idle. Servers start per file. No test
    // measures this machine's speed (the load runner's rate and onset are bench rows, bench/load.ts).
    maxWorkers: 3,
    // The longest files first, on a fresh clone too (test/longest-first.ts).
    sequence: { sequencer: LongestFirst },
    // Stores freeze whole bodies, so a read path that modifies a shared body throws in every test
    // (servers started by the tests inherit it). Outside tests only array items are frozen.
    env: { REFERENCE_FREEZE: 'deep' },
    // Fails the run when a test wrote into the clone's reports/ or root (test/untouched.ts).
    globalSetup: ['./test/untouched.ts'],
    // Budgets scale with the machine's load (test/budget.ts): a busy machine slows the tests, never fails them.
    testTimeout: budget(30_000),
    hookTimeout: budget(30_000),
    // A worker runs file after file in one module cache (isolate: false): each file no longer imports
    // the reference, the suite and their packages afresh. Files that mock a module keep a fresh cache
    // of their own (a mock would reach, or miss, the files after them).
    projects: [
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: ISOLATED, isolate: false } },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
    ],
  },
});
