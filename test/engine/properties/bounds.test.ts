// Bounds over thousands of random stimuli: every VAD member (emotion, mood, histories, responses)
// stays in [-1, 1], every intensity and importance in [0, 1], and no number anywhere in a response or
// a snapshot is NaN or infinite. Persona sequences and world sequences.
import { describe, expect, it } from 'vitest';
import { psyche } from '../../../reference/engine/psyche/index.ts';
import { exportWorld } from '../../../reference/engine/world/index.ts';
import { apply, check, config, countVads, newPersona, opsArb, violations } from './arbitraries.ts';
import { applyWorld, buildWorld, setupArb, WORLD_ID, worldOpsArb } from './world-arbitraries.ts';

describe('bounds (fast-check)', () => {
  it('persona: every response, snapshot, state view and context state is bounded and finite', () => {
    check('persona bounds', 0x5eed01, 200, [config, opsArb(20)], (cfg, ops) => {
      const p = newPersona(cfg);
      for (const [i, o] of ops.entries()) {
        const out = apply(p, o);
        const found = [
          ...violations(out, `response#${i}`),
          ...violations(p.snap, `snapshot#${i}`),
          ...violations(psyche.view(p.snap), `view#${i}`),
          ...violations(psyche.contextState(p.snap, Object.values(p.snap.relationships)[0]), `contextState#${i}`),
        ];
        if (found.length) throw new Error(`after op ${i} (${o.op}): ${found.slice(0, 5).join('; ')}`);
        expect(p.snap.state.body_budget).toBeGreaterThanOrEqual(0);
        expect(p.snap.state.body_budget).toBeLessThanOrEqual(1);
      }
      // The walk did see the emotion, velocity, mood, histories…
      expect(countVads(p.snap)).toBeGreaterThanOrEqual(6);
    });
  });

  it('world: every operation result and the exported snapshot are bounded and finite', () => {
    check('world bounds', 0x5eed02, 60, [setupArb, worldOpsArb(15)], (setup, ops) => {
      const w = buildWorld(setup);
      for (const [i, o] of ops.entries()) {
        const out = applyWorld(w, o);
        const found = violations(out, `result#${i}`);
        if (found.length) throw new Error(`after op ${i} (${o.op}): ${found.slice(0, 5).join('; ')}`);
      }
      const found = violations(exportWorld(w, WORLD_ID), 'snapshot');
      if (found.length) throw new Error(found.slice(0, 5).join('; '));
    });
  });

  it('the walker finds what it must find (NaN, Infinity, a VAD member and an intensity out of range)', () => {
    expect(violations({ a: [{ V: 0, A: 1.0001, D: 0 }], b: { intensity: -0.1 }, c: NaN, d: { x: Infinity }, e: { importance: 2 } })).toEqual([
      '$.a[0].A = 1.0001 (VAD member outside [-1, 1])', '$.b.intensity = -0.1 (outside [0, 1])', '$.c = NaN', '$.d.x = Infinity',
      '$.e.importance = 2 (outside [0, 1])',
    ]);
    expect(violations({ emotion: { V: -1, A: 1, D: 0 }, intensity: 1 })).toEqual([]);
  });
});
