// A persona tick (elapse) never moves the mood away from its home and never lowers the body budget.
//
// The mood's home (docs/engine.md, "Mood") is the default mood of the personality plus
// (0.3·(mean need satisfaction − 0.6), 0, 0), computed in ./home.ts from the documented formulas.
// The needs drift toward their set point while time passes, so the home moves during an elapse. The
// property is checked in three forms:
//  (a) an elapse of one sub-step (≤ 60 s): the mood ends no farther from the home of that moment;
//  (b) needs at their set point (the home is the default mood and stays put): any elapse, of any
//      length, in any number of calls, ends no farther from it;
//  (c) any elapse, each side against its own home: |m_after − home_after| ≤ |m_before − home_before|.
// The body budget never drops in any of them.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { psyche } from '../../../reference/engine/psyche/index.ts';
import { apply, check, config, newPersona, num, opsArb, secondsArb, T0 } from './arbitraries.ts';
import { defaultMood, dist, moodHome } from './home.ts';

const TOL = 2e-6; // each VAD member is rounded to 6 decimals

describe('elapse (fast-check)', () => {
  it('the documented home at creation is the initial mood', () => {
    check('home at creation', 0xe1a00, 100, [config], (cfg) => {
      const p = newPersona(cfg);
      expect(dist(p.snap.mood, moodHome(cfg, p.snap.state.need_state))).toBeLessThan(TOL);
    });
  });

  it('(a) one sub-step (≤ 60 s) never moves the mood away from the home of that moment, nor lowers the body budget', () => {
    check('elapse one step', 0xe1a01, 200, [config, opsArb(20), fc.array(num(0, 60), { minLength: 1, maxLength: 5 })], (cfg, ops, steps) => {
      const p = newPersona(cfg);
      for (const o of ops) apply(p, o);
      for (const s of steps) {
        const b0 = p.snap.state.body_budget, m0 = { ...p.snap.mood }, home = moodHome(cfg, p.snap.state.need_state);
        apply(p, { op: 'elapse', seconds: s });
        const d0 = dist(m0, home), d1 = dist(p.snap.mood, home);
        if (d1 > d0 + TOL) throw new Error(`elapse(${s}): |m − home| ${d0} → ${d1} (home ${JSON.stringify(home)})`);
        if (p.snap.state.body_budget < b0) throw new Error(`elapse(${s}) lowered body_budget ${b0} → ${p.snap.state.body_budget}`);
      }
    });
  });

  it('(b) with the needs at their set point (a fixed home), no elapse of any length moves the mood away from it', () => {
    check('elapse fixed home', 0xe1a02, 200, [config, opsArb(15), fc.array(secondsArb, { minLength: 1, maxLength: 4 })], (cfg, ops, elapses) => {
      const p = newPersona(cfg);
      for (const o of ops) apply(p, o);
      p.snap.state.need_state = { autonomy: 0.6, competence: 0.6, relatedness: 0.6 };
      const home = defaultMood(cfg);
      for (const s of elapses) {
        const d0 = dist(p.snap.mood, home), b0 = p.snap.state.body_budget;
        apply(p, { op: 'elapse', seconds: s });
        const d1 = dist(p.snap.mood, home);
        if (d1 > d0 + TOL) throw new Error(`elapse(${s}): |m − home| ${d0} → ${d1}`);
        if (p.snap.state.body_budget < b0) throw new Error(`elapse(${s}) lowered body_budget ${b0} → ${p.snap.state.body_budget}`);
      }
    });
  });

  it('(c) any elapse within random sequences: the mood ends no farther from its home than it started from its home; the body budget never drops', () => {
    check('elapse moving home', 0xe1a03, 200, [config, opsArb(20), secondsArb], (cfg, ops, lastSeconds) => {
      const p = newPersona(cfg);
      for (const [i, o] of [...ops, { op: 'elapse' as const, seconds: lastSeconds }].entries()) {
        if (o.op !== 'elapse') { apply(p, o); continue; }
        const b0 = p.snap.state.body_budget, m0 = { ...p.snap.mood }, home0 = moodHome(cfg, p.snap.state.need_state);
        apply(p, o);
        const home1 = moodHome(cfg, p.snap.state.need_state);
        const where = `op ${i}: elapse(${o.seconds})`;
        if (p.snap.state.body_budget < b0) throw new Error(`${where} lowered body_budget ${b0} → ${p.snap.state.body_budget}`);
        const d0 = dist(m0, home0), d1 = dist(p.snap.mood, home1);
        if (d1 > d0 + TOL) {
          throw new Error(`${where} moved the mood away from its home: |m − home| ${d0} → ${d1} (mood ${JSON.stringify(m0)} → ${JSON.stringify(p.snap.mood)}, `
            + `home ${JSON.stringify(home0)} → ${JSON.stringify(home1)}, emotion ${JSON.stringify(p.snap.state.emotion)})`);
        }
      }
    });
  });

  it('time does bring the mood toward home and the body back (the properties are not vacuous)', () => {
    const cfg = psyche.normalizeConfig({ personality: { N: 0.2 } }, 'ada');
    const snap = psyche.create(cfg, 's', T0);
    for (let i = 0; i < 5; i++) psyche.perceive(snap, cfg, { kind: 'event', type: 'storm', appraisal: { goal_relevance: 1, goal_congruence: -1 }, timestamp: T0 + i });
    const d0 = dist(snap.mood, moodHome(cfg, snap.state.need_state)), b0 = snap.state.body_budget;
    expect(d0).toBeGreaterThan(0.01);
    expect(b0).toBeLessThan(0.9);
    psyche.elapse(snap, cfg, 2 * 86400, T0 + 2 * 86400 * 1000);
    expect(dist(snap.mood, moodHome(cfg, snap.state.need_state))).toBeLessThan(d0 / 2);
    expect(snap.state.body_budget).toBeGreaterThan(b0 + 0.05);
  });
});
