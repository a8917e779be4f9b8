// The order `npm test` starts its files in. Vitest's own puts the longest first only when it has a
// cache of earlier runs; a fresh clone (CI) has none, and then the largest files go first, which put
// the fault matrix (a small file, the longest run) near the end, where it alone made the tail of the
// run. The files below are started first, longest first; the rest keep vitest's order.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Measured longest first (a run on a quiet 2-core machine: 203 s for faults.test.ts down to 35 s), the
 * one that waits most (hostile.test.ts, on targets that stall) beside the two that use the CPU most;
 * most of the others wait on the runs they start, not on the CPU.
 */
const LONGEST = [
  'test/conformance/faults.test.ts',
  'test/conformance/hostile.test.ts',
  'test/conformance/variants.test.ts',
  'test/conformance/faults-2.test.ts',
  'test/conformance/cli.test.ts',
  'test/conformance/dialects.test.ts',
  'test/conformance/stacks.test.ts',
  'test/conformance/independent.test.ts',
  'test/reference/snapshot-limits.test.ts',
  'test/conformance/gate.test.ts',
  'test/conformance/network.test.ts',
  'test/install/pack.test.ts',
  'test/load/cli.test.ts',
  'test/conformance/rate-limit-slow.test.ts',
  'test/install/git-install.test.ts',
  'test/conformance/verdict.test.ts',
  'test/conformance/reports/junit-stable.test.ts',
  'test/install/memory-settings.test.ts',
];

const rank = (spec: TestSpecification) => {
  const i = LONGEST.findIndex((file) => spec.moduleId.endsWith(file));
  return i < 0 ? LONGEST.length : i;
};

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const order = new Map(sorted.map((spec, i) => [spec, i]));
    return [...sorted].sort((a, b) =>
      (a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder) || (rank(a) - rank(b)) || (order.get(a)! - order.get(b)!));
  }
}
