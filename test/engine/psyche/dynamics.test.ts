// Emotion dynamics: velocity and damping, decay toward baseline, mood, body budget, overrides.
import { describe, expect, it } from 'vitest';
import { psyche } from '../../../reference/engine/psyche/index.ts';
import { baseline, traits } from '../../../reference/engine/psyche/personality.ts';
import { dist, norm } from '../../../reference/engine/psyche/util.ts';
import { chat, event, INSULT, persona, T0 } from './helpers.ts';

const QUIET = { goal_relevance: 0, goal_congruence: 0, expectedness: 1, controllability: 0.5, agency: 0, norm_compatibility: 0 };

describe('dynamics', () => {
  it('dampingOverride 0 carries the previous velocity, 1 removes it', () => {
    const run = (damping: number) => {
      const { config, snap } = persona();
      psyche.perceive(snap, config, event('push', { appraisal: QUIET, stimulus: { vadDelta: { V: -0.3, A: 0, D: 0 } } }));
      const v1 = snap.state.emotion.V;
      psyche.perceive(snap, config, event('quiet', { appraisal: QUIET, stimulus: { dampingOverride: damping } }));
      return { step: snap.state.emotion.V - v1, velocity: snap.state.velocity.V };
    };
    const free = run(0), damped = run(1);
    expect(damped.velocity).toBeCloseTo(0, 6);
    expect(damped.step).toBeCloseTo(0, 6);
    // Momentum keeps moving the emotion (adapted: the emotion already stands where it pushes).
    expect(free.velocity).toBeLessThan(-0.15);
    expect(free.step).toBeLessThan(-0.15);
  });

  it('the emotion approaches the bounds gradually (soft saturation) and never leaves [-1, 1]', () => {
    const { config, snap } = persona();
    const seen: number[] = [];
    for (let i = 0; i < 20; i++) {
      psyche.perceive(snap, config, event('push', { appraisal: QUIET, stimulus: { vadDelta: { V: -1, A: 1, D: -1 } } }));
      seen.push(snap.state.emotion.V);
    }
    expect(seen[0]).toBeGreaterThan(-1);
    for (const v of seen) expect(v).toBeGreaterThanOrEqual(-1);
    expect(Math.min(...seen)).toBeLessThan(-0.9);
  });

  it('elapse decays emotion and mood toward the personality baseline', () => {
    const { config, snap } = persona({ personality: { E: 0.9, A: 0.8, N: 0.2 } });
    const home = baseline(traits(config));
    expect(norm(home)).toBeGreaterThan(0.1);
    for (let i = 0; i < 4; i++) psyche.perceive(snap, config, chat(INSULT));
    const far = dist(snap.state.emotion, home);
    expect(far).toBeGreaterThan(0.4);
    let now = T0 + 10_000_000;
    const distances: number[] = [];
    for (const sec of [60, 600, 3600, 6 * 3600, 3 * 86400]) {
      psyche.elapse(snap, config, sec, (now += sec * 1000));
      distances.push(dist(snap.state.emotion, home));
    }
    for (let i = 1; i < distances.length; i++) expect(distances[i]).toBeLessThanOrEqual(distances[i - 1] + 1e-9);
    expect(distances[distances.length - 1]).toBeLessThan(0.05);
    expect(dist(snap.mood, home)).toBeLessThan(0.05);
    expect(norm(snap.state.velocity)).toBeLessThan(1e-3);
  });

  it('mood is a slow average: it moves toward the emotion, less than the emotion moves', () => {
    const { config, snap } = persona();
    const m0 = { ...snap.mood }, e0 = { ...snap.state.emotion };
    psyche.perceive(snap, config, chat(INSULT));
    psyche.perceive(snap, config, chat(INSULT));
    expect(snap.mood.V).toBeLessThan(m0.V);
    expect(m0.V - snap.mood.V).toBeLessThan(e0.V - snap.state.emotion.V);
    expect(snap.moodHistory.length).toBe(2);
  });

  it('body budget is spent by arousal and negativity, then recovered with time', () => {
    const { config, snap } = persona();
    expect(snap.state.body_budget).toBe(1);
    for (let i = 0; i < 6; i++) psyche.perceive(snap, config, chat(INSULT));
    const spent = snap.state.body_budget;
    expect(spent).toBeLessThan(0.8);
    psyche.perceive(snap, config, event('blow', { appraisal: QUIET, stimulus: { bodyBudgetDelta: -0.3 } }));
    expect(snap.state.body_budget).toBeLessThan(spent - 0.25);
    psyche.elapse(snap, config, 12 * 3600, T0 + 50_000_000);
    expect(snap.state.body_budget).toBeGreaterThan(0.9);
    expect(snap.state.body_budget).toBeLessThanOrEqual(1);
  });

  it('vadOverride sets the emotion and override() replaces only the members given', () => {
    const { config, snap } = persona();
    const r = psyche.perceive(snap, config, event('set', { appraisal: QUIET, stimulus: { vadOverride: { V: 0.7, A: -0.2, D: 0.1 } } }));
    expect(r.emotion.V).toBeCloseTo(0.7, 1);
    psyche.override(snap, { A: 0.9 }, T0 + 1);
    expect(snap.state.emotion.A).toBe(0.9);
    expect(snap.state.emotion.V).toBe(r.emotion.V);
    psyche.override(snap, { V: 5 }, T0 + 2);
    expect(snap.state.emotion.V).toBe(1);
    expect(snap.state.velocity).toEqual({ V: 0, A: 0, D: 0 });
  });

  it('witness moves a bystander toward the other emotion by a share', () => {
    const { config, snap } = persona();
    const e0 = { ...snap.state.emotion };
    const other = { V: -0.9, A: 0.8, D: -0.5 };
    const r = psyche.witness(snap, config, other, 0.5, T0 + 5);
    expect(dist(r.emotion, other)).toBeLessThan(dist(e0, other));
    expect(r.emotion.V).toBeLessThan(e0.V);
    const { snap: s2 } = persona();
    psyche.witness(s2, config, other, 0, T0 + 5);
    expect(s2.state.emotion).toEqual(e0);
  });
});
