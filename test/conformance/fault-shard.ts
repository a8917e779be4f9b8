// One shard of the fault matrix (suite/self-test/matrix.ts, faultShards), as a test file runs it:
// npm test runs the catalogue in two files side by side (faults.test.ts and faults-2.test.ts), each
// with its own embedded reference, so that the matrix is not one long chain at the end of the run.
// Every faulty deployment of the shard must make the suite fail on a requirement that names its
// fault; each requirement whose home is this shard must be failed there by a fault that expects it;
// the shard holding the correct runs checks them (directly and through a pass-through proxy, the
// same verdict for every check).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REQUIREMENTS } from '../../contract/requirements.ts';
import { FAULTS } from '../../suite/self-test/faults.ts';
import { faultShards, homeShard, runMatrix, type MatrixResult } from '../../suite/self-test/matrix.ts';
import { budget } from '../budget.ts';

export const SHARDS = 2;

/** The tests of shard `index` (0-based) of the catalogue; `cleanRuns`: this shard also checks the correct deployment. */
export function faultShard(index: number, { cleanRuns }: { cleanRuns: boolean }): void {
  const shards = faultShards(FAULTS, SHARDS);
  const faults = shards[index];
  const dir = mkdtempSync(join(tmpdir(), `conformance-faults-${index + 1}-`));
  let matrix: MatrixResult;
  // About two minutes a shard alone on two quiet cores; a loaded machine may take several times that.
  beforeAll(async () => { matrix = await runMatrix({ workDir: dir, faults, skipCleanRuns: !cleanRuns }); }, budget(1_800_000));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const verdict = (id: string) => matrix.verdicts.find((v) => v.id === id)!;

  if (cleanRuns) {
    describe('the correct deployment', () => {
      it('passes every check, directly and through a pass-through proxy', () => {
        expect(matrix.clean.map((c) => c.label)).toHaveLength(2);
        for (const c of matrix.clean) expect({ run: c.label, exitCode: c.exitCode, notPassing: c.bad }).toEqual({ run: c.label, exitCode: 0, notPassing: [] });
      });

      it('verifies every requirement of the catalogue: each has a check that ran and passed', () => {
        for (const c of matrix.clean) {
          const unverified = REQUIREMENTS.filter((q) => c.requirements[q.id] !== 'pass').map((q) => `${q.id}: ${c.requirements[q.id] ?? 'absent'}`);
          expect(unverified, c.label).toEqual([]);
        }
      });

      it('gets the same verdict for every check in both runs', () => {
        expect(Object.keys(matrix.clean[0].outcomes).length).toBeGreaterThan(100);
        expect(matrix.unstable).toEqual([]);
      });
    });
  }

  describe(`every faulty deployment of shard ${index + 1} of ${SHARDS} is caught`, () => {
    const home = REQUIREMENTS.filter((r) => homeShard(shards, r.id) === index).map((r) => r.id);
    it(`proves the requirements at home here (${home.length}) able to fail: each is failed by a caught fault that expects it`, () => {
      const proven = new Set(matrix.verdicts.filter((v) => v.ok && !v.expectedLabel).flatMap((v) => v.caughtBy));
      expect(home.filter((id) => !proven.has(id))).toEqual([]);
    });

    for (const fault of faults) {
      const expectation = fault.expected.length ? `fails on ${fault.expectedLabel ?? fault.expected.join(' and ')}` : 'passes (control)';
      it(`${fault.id}: ${expectation}`, () => {
        const v = verdict(fault.id);
        expect(v.error, `${fault.id}: the run could not be made`).toBeUndefined();
        expect({ fault: fault.id, caught: v.ok }, `${fault.description}: exit ${v.exitCode}, failed ${v.failed.join(', ') || 'nothing'}${v.suiteErrors.length ? `; suite errors: ${v.suiteErrors.join('; ')}` : ''}`)
          .toEqual({ fault: fault.id, caught: true });
      });
    }
  });
}
