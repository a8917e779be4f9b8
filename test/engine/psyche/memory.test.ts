// Memory episodes, reflection triggers, narrative, mask exposure, body map.
import { describe, expect, it } from 'vitest';
import { psyche } from '../../../reference/engine/psyche/index.ts';
import { internals } from '../../../reference/engine/psyche/internals.ts';
import { MASK } from '../../../reference/engine/psyche/mask.ts';
import { MEMORY } from '../../../reference/engine/psyche/memory.ts';
import { chat, event, INSULT, NEUTRAL, persona, PRAISE, T0 } from './helpers.ts';

const QUIET = { goal_relevance: 0, goal_congruence: 0, expectedness: 1, controllability: 0.5, agency: 0, norm_compatibility: 0 };

describe('memory', () => {
  it('every percept leaves an episode; intense, relevant ones matter more', () => {
    const { config, snap } = persona();
    const calm = psyche.perceive(snap, config, chat(NEUTRAL)).memoryEpisode!;
    const hurt = psyche.perceive(snap, config, chat(INSULT)).memoryEpisode!;
    expect(calm.sourceEntity).toBe('id-bob');
    expect(calm.context).toBe(NEUTRAL);
    expect(hurt.importance).toBeGreaterThan(calm.importance);
    expect(hurt.intensity).toBeGreaterThan(calm.intensity);
    expect(hurt.id).not.toBe(calm.id);
    expect(hurt.emotionSnapshot).toEqual(snap.state.emotion);
    const ev = psyche.perceive(snap, config, event('storm')).memoryEpisode!;
    expect(ev.sourceEntity).toBe('world');
    expect(ev.context).toBe('event:storm');
    expect(internals(snap).episodes.length).toBe(3);
  });

  it('keeps a bounded number of episodes', () => {
    const { config, snap } = persona();
    for (let i = 0; i < MEMORY.CAPACITY + 10; i++) psyche.perceive(snap, config, event('tick', { appraisal: QUIET }));
    expect(internals(snap).episodes.length).toBe(MEMORY.CAPACITY);
  });
});

describe('reflection', () => {
  it('fires when the emotion moved past vadDeltaThreshold, and resets the reference point', () => {
    const { config, snap } = persona({ reflection: { vadDeltaThreshold: 0.3, predictionErrorThreshold: 10, turnFallback: 0 } });
    const r1 = psyche.perceive(snap, config, event('x', { appraisal: QUIET, stimulus: { vadDelta: { V: -0.1, A: 0, D: 0 } } }));
    expect(r1.reflectionPrompt).toBeUndefined();
    const r2 = psyche.perceive(snap, config, event('y', { appraisal: QUIET, stimulus: { vadDelta: { V: -0.5, A: 0.2, D: 0 }, dampingOverride: 1 } }));
    expect(r2.reflectionPrompt).toBeDefined();
    expect(r2.reflectionPrompt!.system).toContain('ada');
    expect(r2.reflectionPrompt!.user).toMatch(/emotion moved/);
    expect(snap.lastReflectionVAD).toEqual(snap.state.emotion);
    expect(snap.state.metacog.turns_since_check).toBe(0);
    expect(snap.state.metacog.self_awareness).toMatch(/I notice/);
    const r3 = psyche.perceive(snap, config, event('z', { appraisal: QUIET, stimulus: { dampingOverride: 1 } }));
    expect(r3.reflectionPrompt).toBeUndefined();
  });

  it('fires on a large prediction error', () => {
    const { config, snap } = persona({ reflection: { vadDeltaThreshold: 10, predictionErrorThreshold: 0.4, turnFallback: 0 } });
    const usual = { goal_relevance: 0.4, goal_congruence: 0, controllability: 0.55, agency: -0.3, norm_compatibility: 0.3 };
    expect(psyche.perceive(snap, config, event('usual', { appraisal: usual })).reflectionPrompt).toBeUndefined();
    const shock = { goal_relevance: 1, goal_congruence: -1, controllability: 0, agency: 1, norm_compatibility: -1 };
    const r = psyche.perceive(snap, config, event('shock', { appraisal: shock }));
    expect(r.reflectionPrompt?.user).toMatch(/prediction error/);
  });

  it('falls back to every turnFallback percepts', () => {
    const { config, snap } = persona({ reflection: { vadDeltaThreshold: 10, predictionErrorThreshold: 10, turnFallback: 3 } });
    const fired = Array.from({ length: 9 }, () => !!psyche.perceive(snap, config, event('tick', { appraisal: QUIET })).reflectionPrompt);
    expect(fired).toEqual([false, false, true, false, false, true, false, false, true]);
  });
});

describe('narrative', () => {
  it('tone follows remembered valence and a run of setbacks makes a decline arc', () => {
    const { config, snap } = persona();
    for (let i = 0; i < 6; i++) psyche.perceive(snap, config, chat(INSULT));
    expect(snap.narrative.tone).toBeLessThan(-0.2);
    expect(snap.narrative.communion).toBeLessThan(0);
    const arc = snap.narrative.arcs.find((a) => a.type === 'decline');
    expect(arc).toBeDefined();
    expect(arc!.theme).toBe('conflict');
    expect(arc!.episodeIds.length).toBeGreaterThanOrEqual(4);
    for (let i = 0; i < 8; i++) psyche.perceive(snap, config, chat(PRAISE));
    expect(snap.narrative.tone).toBeGreaterThan(0);
    expect(snap.narrative.arcs.some((a) => a.type === 'redemption' || a.type === 'growth')).toBe(true);
    const c = snap.narrative.coherence;
    for (const v of [c.temporal, c.causal, c.thematic]) { expect(v).toBeGreaterThanOrEqual(0); expect(v).toBeLessThanOrEqual(1); }
    expect(c.causal).toBeGreaterThan(0.5); // every episode had an agent
  });
});

describe('mask', () => {
  it('a hidden gap between felt and shown drains integrity until the mask is exposed; rest restores it', () => {
    const { config, snap } = persona();
    const exposures = [];
    for (let i = 0; i < 15; i++) {
      const r = psyche.perceive(snap, config, chat(INSULT));
      if (r.maskExposure) exposures.push(r.maskExposure);
    }
    expect(exposures.length).toBeGreaterThan(0);
    const last = exposures[exposures.length - 1];
    expect(last.exposed).toBe(true);
    expect(last.integrity).toBeLessThan(MASK.EXPOSED);
    expect(last.triggers).toContain('provocation');
    expect(snap.maskState).toBe('broken');
    expect(snap.state.prevMaskIntegrity).toBeGreaterThanOrEqual(snap.maskIntegrity);
    for (let i = 1; i < exposures.length; i++) expect(exposures[i].integrity).toBeLessThanOrEqual(exposures[i - 1].integrity);
    psyche.elapse(snap, config, 6 * 3600, T0 + 1e8);
    expect(snap.maskIntegrity).toBeGreaterThan(0.9);
    expect(snap.maskState).toBe('intact');
  });

  it('calm percepts leave the mask alone', () => {
    const { config, snap } = persona();
    const r = psyche.perceive(snap, config, event('tick', { appraisal: QUIET }));
    expect(r.maskExposure).toBeUndefined();
    expect(snap.maskIntegrity).toBe(1);
  });
});

describe('somatic', () => {
  it('arousal is felt in the chest and named in the state; it settles with time', () => {
    const { config, snap } = persona();
    for (let i = 0; i < 4; i++) psyche.perceive(snap, config, chat(INSULT));
    expect(snap.somatic.regions.chest).toBeGreaterThan(0.3);
    expect(snap.somatic.regions.stomach).toBeGreaterThan(0.1);
    expect(psyche.view(snap).somatic.length).toBeGreaterThan(0);
    const intero = snap.somatic.interoception;
    psyche.elapse(snap, config, 2 * 86400, T0 + 2e8);
    expect(Math.abs(snap.somatic.regions.chest)).toBeLessThan(0.05);
    expect(snap.somatic.interoception).toBeLessThan(intero);
    expect(psyche.view(snap).somatic).toEqual([]);
  });
});
