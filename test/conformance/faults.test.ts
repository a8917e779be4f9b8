// Proving the suite (docs/self-test.md): every faulty deployment of the catalogue (suite/self-test/faults.ts)
// must make the suite fail on a requirement that names its fault, and the correct deployment must
// pass, directly and through a pass-through proxy, with the same verdict for every check. The matrix
// runs in two shards side by side (test/conformance/fault-shard.ts): this file checks the catalogue,
// runs the first and the correct runs; faults-2.test.ts runs the second.
import { describe, expect, it } from 'vitest';
import { REQUIREMENTS, requirementById } from '../../contract/requirements.ts';
import { AREAS } from '../../contract/requirements.ts';
import { FAULTS } from '../../suite/self-test/faults.ts';
import { CLEAN_RUNS_COST, faultCost, faultShards, homeShard } from '../../suite/self-test/matrix.ts';
import { faultShard, SHARDS } from './fault-shard.ts';

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

describe('the shards', () => {
  it('hold every fault once, in shards of about equal cost, the first carrying the correct runs', () => {
    const shards = faultShards(FAULTS, SHARDS);
    expect(shards.flat().map((f) => f.id).sort()).toEqual(FAULTS.map((f) => f.id).sort());
    const costs = shards.map((s, i) => s.reduce((n, f) => n + faultCost(f), i === 0 ? CLEAN_RUNS_COST : 0));
    const total = costs.reduce((a, b) => a + b, 0);
    expect(Math.max(...costs) - Math.min(...costs), `costs ${costs.join(', ')}`).toBeLessThanOrEqual(Math.ceil(total / 10));
  });

  it('give every requirement a home shard whose faults expect it', () => {
    const shards = faultShards(FAULTS, SHARDS);
    for (const r of REQUIREMENTS) {
      const home = homeShard(shards, r.id);
      expect(home, r.id).toBeGreaterThanOrEqual(0);
      expect(shards[home].some((f) => f.expected.includes(r.id) && !f.expectedLabel), r.id).toBe(true);
    }
  });
});

faultShard(0, { cleanRuns: true });
