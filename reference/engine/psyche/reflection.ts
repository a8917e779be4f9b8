// Reflection (after Park et al. 2023's generative agents, who reflect when accumulated importance
// passes a threshold): the persona is asked to make sense of its recent episodes when its emotion
// has moved far from where it stood at the last reflection (|ΔVAD| ≥ vadDeltaThreshold, Euclidean
// in PAD), when a percept was badly predicted (prediction error ≥ predictionErrorThreshold), or
// after turnFallback percepts without one. The prompt is returned to the caller (an LLM may answer).
import type { EntityResponse, PersonaConfig, PersonaSnapshot } from '../../../contract/resources.ts';
import { internals, restingPoint } from './internals.ts';
import { discreteOf, labelOf, octant } from './discrete.ts';
import { salient } from './memory.ts';
import { selfConceptOf } from './create.ts';
import { nameOf } from './views.ts';
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
  // A surprise is the more telling reason: it is named first when the emotion also moved far.
  if (error >= fin(r?.predictionErrorThreshold, Infinity)) return `an unexpected turn (prediction error ${f2(error)})`;
  if (moved >= fin(r?.vadDeltaThreshold, Infinity)) return `emotion moved ${f2(moved)} since the last reflection`;
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
    .map((ep) => `- ${ep.context} (from ${nameOf(s, ep.sourceEntity)}; felt ${discreteOf(ep.emotionSnapshot, home).primary}, importance ${f2(ep.importance)})`);
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

/** How far the life story must lean before the self-concept says so. */
export const SELF_STORY = { LEAN: 0.15 } as const;

/**
 * The self-concept, revised at each reflection and when a goal closes: who the persona is (the
 * configuration's sentence), then what its life story says lately (narrative tone, agency and
 * communion, McAdams 2001) and the goals it reached or gave up.
 */
export function reviseSelfConcept(s: PersonaSnapshot, config: PersonaConfig): void {
  const n = s.narrative;
  const lean = (x: unknown, pos: string, neg: string) => {
    const v = fin(x, 0);
    return v >= SELF_STORY.LEAN ? [pos] : v <= -SELF_STORY.LEAN ? [neg] : [];
  };
  const closed = (status: string, lead: string) => {
    const names = s.goals.filter((g) => g.status === status).map((g) => g.content || g.id);
    return names.length ? [`${lead} ${names.join('; ')}.`] : [];
  };
  s.selfConcept = [
    selfConceptOf(config),
    ...lean(n?.tone, 'Life has been kind to me lately.', 'Life has been hard on me lately.'),
    ...lean(n?.agency, 'I can shape what happens to me.', 'Things happen to me more than I make them happen.'),
    ...lean(n?.communion, 'People are good to me.', 'People have turned against me.'),
    ...closed('achieved', 'I achieved:'),
    ...closed('abandoned', 'I gave up on:'),
  ].join(' ');
}

/** Metacognition's sentence about the self (updated at each reflection). */
export function awareness(s: PersonaSnapshot): string {
  const d = labelOf(s);
  const hist = s.state.regulation.effectiveness_history;
  const best = [...hist].sort((x, y) => y.effectiveness - x.effectiveness)[0];
  const coping = best ? ` ${best.strategy.replace(/_/g, ' ')} has helped most (${best.effectiveness.toFixed(2)}).` : '';
  return `I notice ${d.primary} (${d.intensity.toFixed(2)}) while in ${s.state.soul_stage.name}.${coping}`;
}

