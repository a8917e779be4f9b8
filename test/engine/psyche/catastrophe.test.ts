// Zeeman's cusp: equilibria, sudden jumps under load, hysteresis on the way back.
import { describe, expect, it } from 'vitest';
import { psyche } from '../../../reference/engine/psyche/index.ts';
import { equilibria, foldBound, settle } from '../../../reference/engine/psyche/catastrophe.ts';
import { event, persona, rng, T0 } from './helpers.ts';

const QUIET = { goal_relevance: 0, goal_congruence: 0, expectedness: 1, controllability: 0.5, agency: 0, norm_compatibility: 0 };

describe('cusp catastrophe', () => {
  it('equilibria solve z³ − βz − α = 0 and there are three inside the cusp', () => {
    const r = rng(3);
    for (let i = 0; i < 300; i++) {
      const alpha = 2 * r() - 1, beta = r();
      const roots = equilibria(alpha, beta);
      for (const z of roots) expect(Math.abs(z ** 3 - beta * z - alpha)).toBeLessThan(1e-9);
      const inside = 27 * alpha ** 2 < 4 * beta ** 3;
      expect(roots.length).toBe(inside ? 3 : 1);
      expect(Math.abs(alpha) < foldBound(beta)).toBe(inside);
    }
  });

  it('settle keeps the branch (delay convention) until the fold', () => {
    const beta = 0.75, b = foldBound(beta);
    let z = settle(-2, -0.5, beta);
    const path: number[] = [];
    for (let a = -0.5; a <= 0.5; a += 0.01) { z = settle(z, a, beta); path.push(z); }
    const up = path.findIndex((x) => x > 0);
    expect(-0.5 + up * 0.01).toBeGreaterThan(b - 0.011);
    const back: number[] = [];
    for (let a = 0.5; a >= -0.5; a -= 0.01) { z = settle(z, a, beta); back.push(z); }
    const down = back.findIndex((x) => x < 0);
    expect(0.5 - down * 0.01).toBeLessThan(-b + 0.011);
  });

  it('rising alpha makes the persona jump suddenly, and it comes back only past the other fold', () => {
    const { config, snap } = persona();
    const zs: number[] = [], vs: number[] = [], alphas: number[] = [];
    let jumpAt = -1;
    for (let i = 0; i < 15; i++) {
      const r = psyche.perceive(snap, config, event('pressure', { appraisal: QUIET, stimulus: { catastropheAlphaDelta: 0.05 } }));
      zs.push(snap.state.catastrophe.z); vs.push(r.emotion.V); alphas.push(snap.state.catastrophe.alpha);
      if (jumpAt < 0 && snap.state.catastrophe.z > 0) {
        jumpAt = i;
        expect(r.maskExposure?.triggers).toContain('catastrophe_jump');
      }
    }
    expect(jumpAt).toBeGreaterThan(0);
    expect(zs[jumpAt] - zs[jumpAt - 1]).toBeGreaterThan(1); // sudden
    expect(zs[jumpAt - 1] - zs[Math.max(0, jumpAt - 2)]).toBeLessThan(0.2); // smooth before
    expect(vs[jumpAt - 1] - vs[jumpAt]).toBeGreaterThan(0.2); // the emotion jumps with it
    expect(alphas[jumpAt]).toBeGreaterThanOrEqual(snap.state.catastrophe.hysteresis_bound - 0.06);
    // Hysteresis: lowering alpha below the jump point does not bring it back at once.
    let backAt = -1;
    for (let i = 0; i < 30 && backAt < 0; i++) {
      psyche.perceive(snap, config, event('relief', { appraisal: QUIET, stimulus: { catastropheAlphaDelta: -0.05 } }));
      if (snap.state.catastrophe.z < 0) backAt = i;
      else expect(snap.state.catastrophe.alpha).toBeGreaterThan(-snap.state.catastrophe.hysteresis_bound - 0.06);
    }
    expect(backAt).toBeGreaterThan(0);
    expect(snap.state.catastrophe.alpha).toBeLessThan(-snap.state.catastrophe.hysteresis_bound + 1e-9);
  });

  it('with time alpha returns to rest and the persona recovers', () => {
    const { config, snap } = persona();
    psyche.perceive(snap, config, event('shock', { appraisal: QUIET, stimulus: { catastropheAlphaDelta: 0.8 } }));
    expect(snap.state.catastrophe.z).toBeGreaterThan(0);
    psyche.elapse(snap, config, 600, T0 + 600_000);
    expect(snap.state.catastrophe.z).toBeGreaterThan(0); // still on the breakdown branch
    psyche.elapse(snap, config, 2 * 86400, T0 + 200_000_000);
    expect(snap.state.catastrophe.z).toBeLessThan(0);
    expect(snap.state.catastrophe.alpha).toBeLessThan(0);
  });
});
