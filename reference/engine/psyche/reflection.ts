// Reflection (after Park et al. 2023's generative agents, who reflect when accumulated importance
// passes a threshold): the persona is asked to make sense of its recent episodes when its emotion
// has moved far from where it stood at the last reflection (|ΔVAD| ≥ vadDeltaThreshold, Euclidean
// in PAD), when a percept was badly predicted (prediction error ≥ predictionErrorThreshold), or
// after turnFallback percepts without one. The prompt is returned to the caller (an LLM may answer).
import type { EntityResponse, PersonaConfig, PersonaSnapshot } from '../../../contract/resources.ts';
import { internals, restingPoint } from './internals.ts';
import { discreteOf, labelOf, octant } from './discrete.ts';
import { salient } from './memory.ts';
import { dist, fin } from './util.ts';

export const REFLECTION = { EPISODES: 3 } as const;

export type ReflectionPrompt = NonNullable<EntityResponse['reflectionPrompt']>;

const f2 = (x: number) => x.toFixed(2);

/** Why the persona should reflect now, or undefined. Counts this percept as a turn. */
export function reflectionReason(s: PersonaSnapshot, config: PersonaConfig): string | undefined {
  const r = config.reflection;
  const moved = dist(s.state.emotion, s.lastReflectionVAD);
  const error = internals(s).predictionError;
  const turns = fin(s.state.metacog.turns_since_check, 0);
  if (moved >= fin(r?.vadDeltaThreshold, Infinity)) return `emotion moved ${f2(moved)} since the last reflection`;
  if (error >= fin(r?.predictionErrorThreshold, Infinity)) return `an unexpected turn (prediction error ${f2(error)})`;
  const fallback = fin(r?.turnFallback, 0);
  if (fallback > 0 && turns >= fallback) return `${turns} exchanges without reflecting`;
  return undefined;
}

export function reflect(s: PersonaSnapshot, config: PersonaConfig, reason: string): ReflectionPrompt {
  const e = s.state.emotion;
  const home = restingPoint(s);
  const d = discreteOf(e, home);
  const id = config.identity;
  s.lastReflectionVAD = { ...e };
  s.state.metacog.turns_since_check = 0;
  const moments = salient(s, REFLECTION.EPISODES)
    .map((ep) => `- ${ep.context} (from ${ep.sourceEntity}; felt ${discreteOf(ep.emotionSnapshot, home).primary}, importance ${f2(ep.importance)})`);
  return {
    system: `You are ${id.name}, ${id.role}. Reflect privately and honestly on what has happened to you. `
      + `Answer in the first person, in two to four sentences, in a ${id.speakingStyle} voice.`,
    user: [
      `Why now: ${reason}.`,
      `You feel ${d.primary} (intensity ${f2(d.intensity)}), tinged with ${d.secondary}; your mood is ${octant(s.mood, home)}.`,
      `Valence ${f2(e.V)}, arousal ${f2(e.A)}, dominance ${f2(e.D)}.`,
      ...(moments.length ? ['Moments that stay with you:', ...moments] : []),
      'What do these moments mean to you, and what will you do next?',
    ].join('\n'),
  };
}

/** Metacognition's sentence about the self (updated at each reflection). */
export function awareness(s: PersonaSnapshot): string {
  const d = labelOf(s);
  const hist = s.state.regulation.effectiveness_history;
  const best = [...hist].sort((x, y) => y.effectiveness - x.effectiveness)[0];
  const coping = best ? ` ${best.strategy.replace(/_/g, ' ')} has helped most (${best.effectiveness.toFixed(2)}).` : '';
  return `I notice ${d.primary} (${d.intensity.toFixed(2)}) while in ${s.state.soul_stage.name}.${coping}`;
}

