// Property-style loops over seeded random percepts: determinism, bounds, contract validity.
import { describe, expect, it } from 'vitest';
import { psyche } from '../../../reference/engine/psyche/index.ts';
import type { Percept } from '../../../reference/engine/psyche/model.ts';
import type { PersonaConfig, PersonaSnapshot } from '../../../contract/resources.ts';
import { invalid, rng, T0 } from './helpers.ts';

const WORDS = ['love', 'hate', 'kill', 'great', 'awful', 'the', 'key', 'thanks', 'idiot', 'happy', 'sad', 'death', 'friend', 'maybe', 'win', 'lose'];
type Op = { op: 'perceive'; p: Percept } | { op: 'elapse'; s: number } | { op: 'witness'; v: { V: number; A: number; D: number }; k: number } | { op: 'override'; v: { V?: number } };

function script(seed: number, n: number): { config: PersonaConfig; ops: Op[] } {
  const r = rng(seed);
  const u = () => 2 * r() - 1;
  const config = psyche.normalizeConfig({
    personality: { O: r(), C: r(), E: r(), A: r(), N: r(), H: r() },
    identity: { speakingStyle: ['formal', 'casual', 'terse', 'poetic', 'warm', 'plain'][Math.floor(r() * 6)] },
    goals: [{ id: 'g1', content: 'win the friend key', priority: r() }, { id: 'g2', content: 'avoid death', mutable: false }],
    reflection: { vadDeltaThreshold: 0.2 + r(), predictionErrorThreshold: 0.2 + r() / 2, turnFallback: Math.floor(r() * 6) },
  }, 'p');
  const ops: Op[] = [];
  let t = T0;
  for (let i = 0; i < n; i++) {
    const x = r();
    t += Math.floor(r() * 5000);
    if (x < 0.7) {
      const text = Array.from({ length: Math.floor(r() * 6) }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' ');
      const p: Percept = {
        kind: (['chat', 'event', 'action'] as const)[Math.floor(r() * 3)], type: ['chat', 'storm', 'gift', 'theft'][Math.floor(r() * 4)],
        source: r() < 0.7 ? ['bob', 'eve', 'sam'][Math.floor(r() * 3)] : undefined, text: text || undefined, timestamp: t,
        worldTrust: r() < 0.3 ? r() : undefined, normMap: r() < 0.3 ? { theft: -0.8, gift: 0.7 } : undefined,
      };
      if (r() < 0.4) p.appraisal = { goal_relevance: r(), goal_congruence: u(), agency: u() };
      if (r() < 0.4) {
        p.stimulus = {};
        if (r() < 0.3) p.stimulus.vadDelta = { V: u(), A: u(), D: u() };
        if (r() < 0.2) p.stimulus.vadOverride = { V: u(), A: u(), D: u() };
        if (r() < 0.2) p.stimulus.bodyBudgetDelta = u() * 2;
        if (r() < 0.2) p.stimulus.needsDelta = { autonomy: u(), competence: u(), relatedness: u() };
        if (r() < 0.1) p.stimulus.soulStageForce = Math.floor(r() * 7) - 1;
        if (r() < 0.3) p.stimulus.catastropheAlphaDelta = u();
        if (r() < 0.2) p.stimulus.dampingOverride = r() * 1.4 - 0.2;
      }
      ops.push({ op: 'perceive', p });
    } else if (x < 0.85) ops.push({ op: 'elapse', s: Math.floor(r() ** 3 * 200_000) });
    else if (x < 0.95) ops.push({ op: 'witness', v: { V: u(), A: u(), D: u() }, k: r() });
    else ops.push({ op: 'override', v: { V: u() } });
  }
  return { config, ops };
}

function run(seed: number, n: number, check?: (snap: PersonaSnapshot, out: unknown) => void, roundTrip = false) {
  const { config, ops } = script(seed, n);
  let snap = psyche.create(config, `seed-${seed}`, T0);
  const outs: unknown[] = [];
  let now = T0;
  for (const o of ops) {
    if (roundTrip) snap = JSON.parse(JSON.stringify(snap));
    let out: unknown;
    if (o.op === 'perceive') { out = psyche.perceive(snap, config, o.p); now = Math.max(now, o.p.timestamp); }
    else if (o.op === 'elapse') { now += o.s * 1000; psyche.elapse(snap, config, o.s, now); }
    else if (o.op === 'witness') out = psyche.witness(snap, config, o.v, o.k, now);
    else psyche.override(snap, o.v, now);
    outs.push(out);
    check?.(snap, out);
  }
  return { snap, outs };
}

const inRange = (x: number, lo: number, hi: number) => Number.isFinite(x) && x >= lo && x <= hi;

describe('properties over random percepts', () => {
  it('the same inputs give deep-equal outputs (also across a JSON round trip of the snapshot)', () => {
    for (const seed of [1, 2, 3]) {
      const a = run(seed, 80), b = run(seed, 80), c = run(seed, 80, undefined, true);
      expect(b.outs).toEqual(a.outs);
      expect(b.snap).toEqual(a.snap);
      expect(c.outs).toEqual(a.outs);
      expect(JSON.parse(JSON.stringify(c.snap))).toEqual(JSON.parse(JSON.stringify(a.snap)));
    }
    expect(run(1, 40).snap).not.toEqual(run(2, 40).snap);
  });

  it('every output validates and every field stays in its documented bounds', () => {
    for (const seed of [11, 12, 13, 14, 15, 16]) {
      run(seed, 120, (snap, out) => {
        if (out) expect(invalid('EntityResponse', out)).toBe('');
        const st = snap.state;
        expect(invalid('PersonaSnapshot', snap)).toBe('');
        expect(invalid('StandalonePersonaState', psyche.view(snap))).toBe('');
        expect(invalid('ContextPersonaState', psyche.contextState(snap, Object.values(snap.relationships)[0]))).toBe('');
        expect(inRange(st.body_budget, 0, 1)).toBe(true);
        for (const v of Object.values(st.need_state)) expect(inRange(v, 0, 1)).toBe(true);
        expect(inRange(st.catastrophe.alpha, -1, 1) && inRange(st.catastrophe.beta, 0, 1) && inRange(st.catastrophe.z, -1.5, 1.5)).toBe(true);
        expect(inRange(st.soul_stage.id, 0, 4) && st.soul_stage.cumulative_load >= 0).toBe(true);
        expect(inRange(snap.maskIntegrity, 0, 1) && inRange(st.prevMaskIntegrity, 0, 1)).toBe(true);
        expect(inRange(snap.selfEsteem.global, 0, 1)).toBe(true);
        expect(inRange(snap.tmt.mortalitySalience, 0, 1) && inRange(snap.tmt.deathAnxiety, 0, 1)).toBe(true);
        expect(inRange(snap.narrative.tone, -1, 1) && inRange(snap.narrative.agency, -1, 1) && inRange(snap.narrative.communion, -1, 1)).toBe(true);
        for (const v of Object.values(snap.somatic.regions)) expect(inRange(v, -1, 1)).toBe(true);
        expect(inRange(snap.somatic.interoception, 0, 1)).toBe(true);
        expect(inRange(st.affect_dynamics.variability, 0, 1) && inRange(st.affect_dynamics.instability, 0, 2) && inRange(st.affect_dynamics.inertia_observed, -1, 1)).toBe(true);
        expect(inRange(st.interpersonal.dominance, -1, 1) && inRange(st.interpersonal.affiliation, -1, 1)).toBe(true);
        for (const r of Object.values(snap.relationships)) expect(inRange(r.trust, 0, 1) && inRange(r.intimacy, 0, 1)).toBe(true);
        const w = Object.values(st.regulation.strategy_weights);
        expect(Math.abs(w.reduce((a, b) => a + b, 0) - 1)).toBeLessThan(1e-4);
        expect(Math.min(...w)).toBeGreaterThanOrEqual(0.05); // the documented floor (docs/engine.md, Regulation)
        expect(st.emotion_history.length).toBeLessThanOrEqual(50);
        expect(snap.moodHistory.length).toBeLessThanOrEqual(50);
      });
    }
  });

  it('affect dynamics: a swinging history is more unstable than a steady one', () => {
    const steady = psyche.create(psyche.normalizeConfig({}, 'a'), 's', T0);
    const swing = psyche.create(psyche.normalizeConfig({}, 'a'), 's', T0);
    const c = psyche.normalizeConfig({}, 'a');
    for (let i = 0; i < 12; i++) {
      psyche.override(steady, { V: -0.5 + i * 0.02 }, T0 + i);
      psyche.override(swing, { V: i % 2 ? 0.8 : -0.8 }, T0 + i);
    }
    psyche.elapse(steady, c, 1, T0 + 100);
    psyche.elapse(swing, c, 1, T0 + 100);
    expect(swing.state.affect_dynamics.instability).toBeGreaterThan(steady.state.affect_dynamics.instability + 0.1);
    expect(steady.state.affect_dynamics.inertia_observed).toBeGreaterThan(swing.state.affect_dynamics.inertia_observed);
    expect(swing.state.affect_dynamics.variability).toBeGreaterThan(steady.state.affect_dynamics.variability);
  });

  it('an imported partial snapshot is repaired before use', () => {
    const c = psyche.normalizeConfig({}, 'a');
    const partial = { state: { emotion: { V: -0.4, A: 0.2, D: 0 } }, goals: [] } as unknown as PersonaSnapshot;
    const r = psyche.perceive(partial, c, { kind: 'chat', type: 'chat', source: 'x', text: 'hello', timestamp: T0 });
    expect(invalid('EntityResponse', r)).toBe('');
    expect(invalid('PersonaSnapshot', partial)).toBe('');
    expect(partial.state.emotion.V).toBeLessThan(0); // the given emotion was kept
  });
});
