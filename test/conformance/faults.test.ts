// Proving the suite (DESIGN.md): every faulty deployment of test/faults must make the suite fail on a
// requirement that names its fault, and the correct deployment must pass, directly and through a
// pass-through proxy, with the same verdict for every check. One embedded reference for all runs;
// each fault runs only the areas it concerns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REQUIREMENTS, requirementById } from '../../contract/requirements.ts';
import { AREAS } from '../../contract/requirements.ts';
import { FAULTS } from '../../suite/self-test/faults.ts';
import { runMatrix, type MatrixResult } from '../../suite/self-test/matrix.ts';

const dir = mkdtempSync(join(tmpdir(), 'conformance-faults-'));
let matrix: MatrixResult;
// About two minutes alone on two cores; a loaded machine may take several times that.
beforeAll(async () => { matrix = await runMatrix({ workDir: dir }); }, 1_800_000); // 118 faults: about 4 min on two quiet cores, three times that on a loaded machine
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const verdict = (id: string) => matrix.faults.find((v) => v.id === id)!;

describe('the fault catalogue', () => {
  it('holds at least 30 faults with unique ids, known areas and known requirement ids', () => {
    expect(FAULTS.length).toBeGreaterThanOrEqual(30);
    expect(new Set(FAULTS.map((f) => f.id)).size).toBe(FAULTS.length);
    for (const f of FAULTS) {
      expect(f.areas.length, f.id).toBeGreaterThan(0);
      for (const a of f.areas) expect(AREAS as readonly string[], `${f.id}: area ${a}`).toContain(a);
      for (const id of f.expected) expect(requirementById.has(id), `${f.id}: requirement ${id}`).toBe(true);
    }
    expect(FAULTS.filter((f) => !f.expected.length).length, 'a control (a slow but correct deployment) keeps the matrix honest').toBeGreaterThan(0);
  });

  it('names every requirement as the expected catch of some fault (no check is left unproven)', () => {
    const named = new Set(FAULTS.filter((f) => !f.expectedLabel).flatMap((f) => f.expected));
    expect(REQUIREMENTS.map((r) => r.id).filter((id) => !named.has(id))).toEqual([]);
  });
});

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

describe('every faulty deployment is caught', () => {
  it('proves every requirement able to fail: each is failed by a caught fault that expects it', () => {
    const proven = new Set(matrix.faults.filter((v) => v.caught && !v.expectedLabel).flatMap((v) => v.caughtBy));
    expect(REQUIREMENTS.map((r) => r.id).filter((id) => !proven.has(id))).toEqual([]);
  });

  for (const fault of FAULTS) {
    const expectation = fault.expected.length ? `fails on ${fault.expectedLabel ?? fault.expected.join(' or ')}` : 'passes (control)';
    it(`${fault.id}: ${expectation}`, () => {
      const v = verdict(fault.id);
      expect(v.error, `${fault.id}: the run could not be made`).toBeUndefined();
      expect({ fault: fault.id, caught: v.caught }, `${fault.description}: exit ${v.exitCode}, failed ${v.failed.join(', ') || 'nothing'}${v.suiteErrors.length ? `; suite errors: ${v.suiteErrors.join('; ')}` : ''}`)
        .toEqual({ fault: fault.id, caught: true });
    });
  }
});
