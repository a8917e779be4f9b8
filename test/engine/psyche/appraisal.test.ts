// Appraisal → emotion: lexicon, sender trust, given members, personality and stage modulation.
import { describe, expect, it } from 'vitest';
import { psyche } from '../../../reference/engine/psyche/index.ts';
import { appraise, impulseOf, KEYS, predictionError, PRIOR, RANGE } from '../../../reference/engine/psyche/appraisal.ts';
import { read } from '../../../reference/engine/psyche/language.ts';
import { traits } from '../../../reference/engine/psyche/personality.ts';
import { stageState } from '../../../reference/engine/psyche/stages.ts';
import { chat, event, INSULT, NEUTRAL, persona, PRAISE, rng } from './helpers.ts';

describe('appraisal', () => {
  it('reads the valence of what is said to the persona from the AFINN lexicon', () => {
    expect(read(INSULT).listener).toBeLessThan(-0.8);
    expect(read(PRAISE).listener).toBeGreaterThan(0.8);
    for (const text of [NEUTRAL, '']) {
      const r = read(text);
      expect([r.listener, r.news, r.speaker, r.world, r.threat, r.blame, r.loss]).toEqual([0, 0, 0, 0, 0, 0, 0]);
    }
  });

  it('an insult lowers valence and trust; praise raises them', () => {
    const a = persona();
    const before = a.snap.state.emotion.V;
    const r = psyche.perceive(a.snap, a.config, chat(INSULT));
    expect(r.emotion.V).toBeLessThan(before - 0.1);
    const trust = r.socialUpdates.find((u) => u.field === 'trust')!;
    expect(trust.newValue).toBeLessThan(trust.oldValue);
    expect(r.memoryEpisode!.appraisal.goal_congruence).toBeLessThan(-0.5);
    expect(r.memoryEpisode!.appraisal.norm_compatibility).toBeLessThan(0);

    const b = persona();
    const p = psyche.perceive(b.snap, b.config, chat(PRAISE));
    expect(p.emotion.V).toBeGreaterThan(before + 0.1);
    const t2 = p.socialUpdates.find((u) => u.field === 'trust')!;
    expect(t2.newValue).toBeGreaterThan(t2.oldValue);
  });

  it('an insult from another reads as anger (dominance up), a self-caused failure as shame (down)', () => {
    const a = persona();
    const blame = psyche.perceive(a.snap, a.config, event('x', { appraisal: { goal_relevance: 1, goal_congruence: -1, agency: -1, controllability: 0.5, expectedness: 0.5, norm_compatibility: 0 } }));
    const b = persona();
    const shame = psyche.perceive(b.snap, b.config, event('x', { appraisal: { goal_relevance: 1, goal_congruence: -1, agency: 1, controllability: 0.5, expectedness: 0.5, norm_compatibility: 0 } }));
    expect(blame.emotion.D).toBeGreaterThan(shame.emotion.D);
    expect(blame.emotion.V).toBeLessThan(0);
    expect(shame.emotion.V).toBeLessThan(0);
  });

  it('honours given members and derives the missing ones within range', () => {
    const { config, snap } = persona();
    const r = psyche.perceive(snap, config, chat(INSULT, 'bob', { appraisal: { goal_congruence: 0.9, controllability: 0.1 } }));
    const a = r.memoryEpisode!.appraisal;
    expect(a.goal_congruence).toBe(0.9);
    expect(a.controllability).toBe(0.1);
    expect(a.norm_compatibility).toBeLessThan(0); // derived from the hostile text
    const out = psyche.perceive(snap, config, event('x', { appraisal: { goal_relevance: 7, agency: -9 } }));
    expect(out.memoryEpisode!.appraisal.goal_relevance).toBe(1);
    expect(out.memoryEpisode!.appraisal.agency).toBe(-1);
  });

  it('trust in the sender colours an ambiguous message', () => {
    const { config, snap } = persona();
    const t = traits(config);
    const ctx = (trust: number) => ({ traits: t, trust, autonomy: 0.6, stage: snap.state.soul_stage });
    const trusted = appraise(snap, chat(NEUTRAL), ctx(0.95)).appraisal.goal_congruence;
    const distrusted = appraise(snap, chat(NEUTRAL), ctx(0.05)).appraisal.goal_congruence;
    expect(trusted).toBeGreaterThan(0.2);
    expect(distrusted).toBeLessThan(-0.2);
    // worldTrust reaches the appraisal through perceive
    const lo = persona(), hi = persona();
    const rLo = psyche.perceive(lo.snap, lo.config, chat(NEUTRAL, 'eve', { worldTrust: 0 }));
    const rHi = psyche.perceive(hi.snap, hi.config, chat(NEUTRAL, 'eve', { worldTrust: 1 }));
    expect(rHi.memoryEpisode!.appraisal.goal_congruence).toBeGreaterThan(rLo.memoryEpisode!.appraisal.goal_congruence);
    // World trust is read on [-1, 1]: the world's default stranger trust 0 is neutral, -1 hostile.
    const stranger = persona(), enemy = persona();
    expect(psyche.perceive(stranger.snap, stranger.config, chat(NEUTRAL, 'eve', { worldTrust: 0 })).memoryEpisode!.appraisal.goal_congruence).toBe(0);
    expect(psyche.perceive(enemy.snap, enemy.config, chat(NEUTRAL, 'eve', { worldTrust: -1 })).memoryEpisode!.appraisal.goal_congruence).toBeLessThan(0);
  });

  it('norm map verdicts set norm compatibility', () => {
    const { config, snap } = persona();
    const r = psyche.perceive(snap, config, event('theft', { text: 'someone committed theft', normMap: { theft: -0.9, gift: 0.8 } }));
    expect(r.memoryEpisode!.appraisal.norm_compatibility).toBe(-0.9);
  });

  it('neuroticism amplifies and extraversion brightens; honesty weighs norm violations', () => {
    const a = { goal_relevance: 1, goal_congruence: -0.8, expectedness: 0.5, controllability: 0.5, agency: -1, norm_compatibility: -0.8 };
    const stage = stageState(0);
    const calm = impulseOf(a, 0, false, traits(psyche.normalizeConfig({ personality: { N: 0 } }, 'x')), stage);
    const anxious = impulseOf(a, 0, false, traits(psyche.normalizeConfig({ personality: { N: 1 } }, 'x')), stage);
    expect(anxious.V).toBeLessThan(calm.V);
    expect(anxious.A).toBeGreaterThan(calm.A);
    const honest = impulseOf(a, 0, false, traits(psyche.normalizeConfig({ personality: { H: 1 } }, 'x')), stage);
    const sly = impulseOf(a, 0, false, traits(psyche.normalizeConfig({ personality: { H: 0 } }, 'x')), stage);
    expect(honest.V).toBeLessThan(sly.V);
    const good = { ...a, goal_congruence: 0.8, norm_compatibility: 0.5 };
    const intro = impulseOf(good, 0, false, traits(psyche.normalizeConfig({ personality: { E: 0 } }, 'x')), stage);
    const extra = impulseOf(good, 0, false, traits(psyche.normalizeConfig({ personality: { E: 1 } }, 'x')), stage);
    expect(extra.V).toBeGreaterThan(intro.V);
  });

  it('a higher soul stage biases derived appraisals and amplifies negative impulses', () => {
    const { config, snap } = persona();
    const t = traits(config);
    const low = appraise(snap, chat(NEUTRAL), { traits: t, autonomy: 0.6, stage: stageState(0) }).appraisal;
    const high = appraise(snap, chat(NEUTRAL), { traits: t, autonomy: 0.6, stage: stageState(4) }).appraisal;
    expect(high.goal_congruence).toBeLessThan(low.goal_congruence);
    expect(high.controllability).toBeLessThan(low.controllability);
    const a = { goal_relevance: 1, goal_congruence: -0.8, expectedness: 0.5, controllability: 0.5, agency: -1, norm_compatibility: 0 };
    expect(impulseOf(a, -0.8, true, t, stageState(4)).V).toBeLessThan(impulseOf(a, -0.8, true, t, stageState(0)).V);
  });

  it('derived appraisals stay in range for random texts and contexts', () => {
    const r = rng(7);
    const words = ['love', 'hate', 'kill', 'great', 'awful', 'the', 'meeting', 'thanks', 'idiot', 'happy', 'sad', 'maybe'];
    const { config, snap } = persona();
    for (let i = 0; i < 200; i++) {
      const text = Array.from({ length: 1 + Math.floor(r() * 8) }, () => words[Math.floor(r() * words.length)]).join(' ');
      const out = appraise(snap, chat(text), { traits: traits(config), trust: r(), autonomy: r(), stage: stageState(Math.floor(r() * 5)) });
      for (const k of KEYS) {
        expect(out.appraisal[k]).toBeGreaterThanOrEqual(RANGE[k][0]);
        expect(out.appraisal[k]).toBeLessThanOrEqual(RANGE[k][1]);
      }
      expect(out.error).toBeGreaterThanOrEqual(0);
      expect(out.error).toBeLessThanOrEqual(1);
    }
    expect(predictionError(PRIOR, PRIOR)).toBe(0);
  });
});
