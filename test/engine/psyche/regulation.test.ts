// Gross's regulation strategies: start on distress, phases, attenuation, effectiveness and learning.
import { describe, expect, it } from 'vitest';
import { psyche } from '../../../reference/engine/psyche/index.ts';
import { attenuate, initialWeights, normalise, REG, STRATEGIES } from '../../../reference/engine/psyche/regulation.ts';
import { traits } from '../../../reference/engine/psyche/personality.ts';
import { chat, event, INSULT, NEUTRAL, persona, T0 } from './helpers.ts';

const sum = (w: Record<string, number>) => Object.values(w).reduce((a, b) => a + b, 0);

describe('regulation', () => {
  it('weights sum to 1 with each at least 0.05, also after a learning step left one at the floor', () => {
    // A learning step can leave the weights summing to 1.1 with one clamped at the floor: it stays at
    // 0.05 and the others share 0.95 in proportion (0.95·0.3/1.05, 0.95·0.15/1.05).
    const w = normalise({
      situation_selection: 0.05, situation_modification: 0.3, attentional_deployment: 0.3,
      cognitive_reappraisal: 0.3, response_modulation: 0.15,
    });
    expect(w).toEqual({
      situation_selection: 0.05, situation_modification: 0.271429, attentional_deployment: 0.271429,
      cognitive_reappraisal: 0.271429, response_modulation: 0.135714,
    });
    // Far below the floor and a missing member: every weight still ends at 0.05 or more.
    const odd = normalise({ situation_selection: 0, situation_modification: 5, attentional_deployment: 0.01, cognitive_reappraisal: NaN, response_modulation: 1 } as never);
    expect(Math.min(...Object.values(odd))).toBeGreaterThanOrEqual(REG.WEIGHT_MIN);
    expect(sum(odd)).toBeCloseTo(1, 5);
  });

  it('starting weights follow personality and sum to one', () => {
    const open = initialWeights(traits(psyche.normalizeConfig({ personality: { O: 1, E: 1, N: 0 } }, 'x')));
    const closed = initialWeights(traits(psyche.normalizeConfig({ personality: { O: 0, E: 0, N: 1 } }, 'x')));
    expect(sum(open)).toBeCloseTo(1, 5);
    expect(open.cognitive_reappraisal).toBeGreaterThan(closed.cognitive_reappraisal);
    expect(closed.response_modulation).toBeGreaterThan(open.response_modulation);
    expect(closed.situation_selection).toBeGreaterThan(open.situation_selection);
  });

  it('distress starts a strategy that runs through its phases, then is recorded and learnt', () => {
    const { config, snap } = persona();
    expect(snap.state.regulation.active_strategy).toBeUndefined();
    psyche.perceive(snap, config, chat(INSULT));
    psyche.perceive(snap, config, chat(INSULT));
    const act = snap.state.regulation.active_strategy!;
    expect(act).toBeDefined();
    expect(STRATEGIES).toContain(act.strategy);
    expect(act.phase).toBe('initiation');
    expect(act.target_emotion.V).toBeGreaterThan(snap.state.emotion.V); // down-regulation target
    const weightsBefore = { ...snap.state.regulation.strategy_weights };
    const phases: string[] = [];
    for (let i = 0; i < REG.DURATION && snap.state.regulation.active_strategy; i++) {
      psyche.perceive(snap, config, chat(NEUTRAL));
      if (snap.state.regulation.active_strategy) phases.push(snap.state.regulation.active_strategy.phase);
    }
    expect(new Set(phases).size).toBeGreaterThan(1);
    const hist = snap.state.regulation.effectiveness_history;
    expect(hist.length).toBe(1);
    expect(hist[0].strategy).toBe(act.strategy);
    expect(hist[0].effectiveness).toBeGreaterThanOrEqual(0);
    expect(hist[0].effectiveness).toBeLessThanOrEqual(1);
    const meta = snap.state.metacog.regulation_history[0];
    expect(meta.trigger).toBe('chat');
    expect(meta.emotionBefore.V).toBeLessThan(0);
    expect(snap.state.regulation.strategy_weights).not.toEqual(weightsBefore);
    expect(sum(snap.state.regulation.strategy_weights)).toBeCloseTo(1, 5);
  });

  it('an active strategy attenuates negative impulses only', () => {
    const { config, snap } = persona();
    psyche.perceive(snap, config, chat(INSULT));
    psyche.perceive(snap, config, chat(INSULT));
    expect(snap.state.regulation.active_strategy).toBeDefined();
    const neg = attenuate(snap.state, { V: -0.4, A: 0.3, D: 0 });
    expect(neg.V).toBeGreaterThan(-0.4);
    expect(neg.V).toBeLessThan(0);
    expect(attenuate(snap.state, { V: 0.4, A: 0.3, D: 0 })).toEqual({ V: 0.4, A: 0.3, D: 0 });
  });

  it('a strategy whose target is reached with time is closed by elapse', () => {
    const { config, snap } = persona();
    psyche.perceive(snap, config, event('loss', { appraisal: { goal_relevance: 1, goal_congruence: -1 }, stimulus: { vadDelta: { V: -0.5, A: 0.3, D: -0.2 } } }));
    expect(snap.state.regulation.active_strategy).toBeDefined();
    psyche.elapse(snap, config, 86400, T0 + 1e8);
    expect(snap.state.regulation.active_strategy).toBeUndefined();
    expect(snap.state.regulation.effectiveness_history.at(-1)!.context).toBe('resolved with time');
  });
});
