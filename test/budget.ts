// Time budgets of the tests that start processes (the command, a server, npm) or run a matrix: each
// is what the step needs on a quiet 2-core machine with room to spare, scaled by how busy this machine
// is when the test is collected (its load average per core, as measured; at least 1, at most 8). On a
// CI machine at a load of 8 on 2 cores a CLI start takes 4-15 s instead of 2: the budgets grow with it,
// so a busy machine makes the tests slower, never red. No test asserts on speed.
import { availableParallelism, loadavg } from 'node:os';

/** How much slower than a quiet machine this one runs now: 1 minute's load average per core, from 1 to 8. */
export function slowness(load = loadavg()[0], cores = availableParallelism()): number {
  // TEST_SLOWNESS overrides the measure (a machine whose load average says nothing, e.g. Windows: 0).
  const given = Number(process.env.TEST_SLOWNESS);
  if (given > 0) return given;
  return Math.min(8, Math.max(1, load / Math.max(1, cores)));
}

/** A budget of `ms` on a quiet machine, as this machine needs it now. */
export const budget = (ms: number): number => Math.round(ms * slowness());
