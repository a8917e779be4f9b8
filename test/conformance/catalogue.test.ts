// The requirement catalogue is well formed. Checks name their requirements by typed ids (an unknown id
// does not compile: suite/scenario/check.ts); that every requirement is verified by some check is shown by the
// correct runs of the fault matrix (test/conformance/faults.test.ts), from the run's own results.
import { describe, expect, it } from 'vitest';
import { AREAS, PER_RESPONSE, REQUIREMENTS } from '../../contract/requirements.ts';

describe('requirement catalogue', () => {
  it('has unique ids, a level and a clause for every entry', () => {
    expect(new Set(REQUIREMENTS.map((r) => r.id)).size).toBe(REQUIREMENTS.length);
    for (const r of REQUIREMENTS) {
      expect(['MUST', 'SHOULD']).toContain(r.level);
      expect(r.clause.length).toBeGreaterThan(10);
    }
  });

  it('puts every requirement in a selectable area, or among those judged on every response', () => {
    const elsewhere = REQUIREMENTS.filter((r) => !(AREAS as readonly string[]).includes(r.area) && !PER_RESPONSE.includes(r.id));
    expect(elsewhere.map((r) => `${r.id} (${r.area})`)).toEqual([]);
    expect(PER_RESPONSE).toEqual(['ENV-1', 'ENV-2', 'ENV-3', 'CONTRACT-1', 'CONTRACT-2']);
  });
});
