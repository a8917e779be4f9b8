// A small type check of imported state against the shapes SPEC gives (present members only: which are
// required is not shown). 'n' number, 's' string, 'b' boolean, 'o' any object, [X] array of X,
// { k: X } an object whose member k is X (others allowed), { '*': X } a map of X.
import { invalid, isObject } from './errors.ts';

export type Shape = 'n' | 's' | 'b' | 'o' | [Shape] | { [member: string]: Shape };

export function check(value: unknown, shape: Shape, where: string): void {
  if (shape === 'n') { if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(`${where} must be a number`); return; }
  if (shape === 's') { if (typeof value !== 'string') throw invalid(`${where} must be a string`); return; }
  if (shape === 'b') { if (typeof value !== 'boolean') throw invalid(`${where} must be a boolean`); return; }
  if (shape === 'o') { if (!isObject(value)) throw invalid(`${where} must be an object`); return; }
  if (Array.isArray(shape)) {
    if (!Array.isArray(value)) throw invalid(`${where} must be an array`);
    value.forEach((v, i) => check(v, shape[0], `${where}[${i}]`));
    return;
  }
  if (!isObject(value)) throw invalid(`${where} must be an object`);
  if ('*' in shape) { for (const [k, v] of Object.entries(value)) check(v, shape['*'], `${where}.${k}`); return; }
  for (const [k, s] of Object.entries(shape)) if (value[k] !== undefined) check(value[k], s, `${where}.${k}`);
}

/** Keeps only the members a closed shape lists (SPEC: only objects marked open return other members). */
export function closedCopy(value: Record<string, unknown>, members: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([k]) => members.includes(k)));
}

const vad: Shape = { V: 'n', A: 'n', D: 'n' };
const appraisal: Shape = { goal_relevance: 'n', goal_congruence: 'n', expectedness: 'n', controllability: 'n', agency: 'n', norm_compatibility: 'n' };
const needs: Shape = { autonomy: 'n', competence: 'n', relatedness: 'n' };
export const GOAL: Shape = { id: 's', content: 's', priority: 'n', mutable: 'b', status: 's' };
export const VAD: Shape = vad;

/** PersonaState, as SPEC types it for a world entity's personaSnapshot. */
const personaState: Shape = {
  emotion: vad, velocity: vad, emotion_history: [{ V: 'n', A: 'n', D: 'n', timestamp: 'n' }], body_budget: 'n',
  soul_stage: { id: 'n', name: 's', tolerance: 'n', stress_modifier: 'n', appraisal_bias: appraisal, avoidance_mod: 'n', blend_table: { rational: 'n', irrational: 'n' }, cumulative_load: 'n', turns_in_stage: 'n' },
  prediction_model: appraisal, prev_emotion_delta: vad, need_state: needs, lastUpdated: 'n',
  catastrophe: { alpha: 'n', beta: 'n', z: 'n', hysteresis_bound: 'n' },
  metacog: { turns_since_check: 'n', regulation_history: [{ timestamp: 'n', strategy: 's', trigger: 's', effectiveness: 'n', emotionBefore: vad, emotionAfter: vad }], self_awareness: 's' },
  affect_dynamics: { variability: 'n', instability: 'n', inertia_observed: 'n' },
  interpersonal: { dominance: 'n', affiliation: 'n' },
  regulation: {
    strategy_weights: { situation_selection: 'n', situation_modification: 'n', attentional_deployment: 'n', cognitive_reappraisal: 'n', response_modulation: 'n' },
    effectiveness_history: [{ timestamp: 'n', strategy: 's', effectiveness: 'n', context: 's' }],
    active_strategy: { strategy: 's', started_at: 'n', target_emotion: vad, progress: 'n', phase: 's', turns_active: 'n', cumulative_effect: 'n' },
  },
  prevMaskIntegrity: 'n',
};

/** The personaSnapshot of a world snapshot entity (fully typed by SPEC). */
export const WORLD_PERSONA_SNAPSHOT: Shape = {
  state: personaState,
  relationships: { '*': { entityId: 's', trust: 'n', intimacy: 'n', interactionCount: 'n', attachmentStyle: 's', lastInteraction: 'n' } },
  goals: [GOAL], selfConcept: 's', mood: vad, moodHistory: [{ emotion: vad, intensity: 'n' }],
  somatic: { regions: { head: 'n', neck: 'n', chest: 'n', stomach: 'n', upperBack: 'n', hands: 'n', legs: 'n' }, interoception: 'n' },
  narrative: { tone: 'n', coherence: { temporal: 'n', causal: 'n', thematic: 'n' }, agency: 'n', communion: 'n', arcs: [{ id: 's', type: 's', strength: 'n', episodeIds: ['s'], theme: 's' }] },
  tmt: { mortalitySalience: 'n', deathAnxiety: 'n', proximity: 's', proximalDefense: 'b', distalDefense: 'b', defenseTarget: 's', defenseStrength: 'n', lastReminderTime: 'n' },
  selfEsteem: { global: 'n', contingencies: { '*': 'n' } },
  motivationContexts: { '*': { autonomy: 'n', locus: 's', freedomThreat: 'n', controlSource: 's' } },
  maskIntegrity: 'n', maskState: 's', lastReflectionVAD: vad,
};

/** The standalone persona snapshot: SPEC leaves state, relationships, somatic, narrative, tmt and motivationContexts open objects. */
export const STANDALONE_SNAPSHOT: Shape = {
  state: 'o', relationships: 'o', goals: [GOAL], selfConcept: 's', mood: vad, moodHistory: [{ emotion: vad, intensity: 'n' }],
  somatic: 'o', narrative: 'o', tmt: 'o', selfEsteem: { global: 'n', contingencies: { '*': 'n' } }, motivationContexts: 'o', maskIntegrity: 'n', maskState: 's',
};

export const EVENT: Shape = {
  type: 's', spaceId: 's', timestamp: 'n', sourceEntity: 's', targetEntity: 's', payload: 'o', appraisal,
  stimulus: { bodyBudgetDelta: 'n', vadOverride: vad, vadDelta: vad, needsDelta: needs, soulStageForce: 'n', catastropheAlphaDelta: 'n', dampingOverride: 'n' },
};

export const PROGRESSION: Shape = {
  currentPhase: 's', elapsedTime: 'n', eventCounts: { '*': 'n' },
  phaseHistory: [{ phase: 's', enteredAt: 'n', exitedAt: 'n', triggerId: 's' }], firedTriggerIds: ['s'],
  triggers: [{ id: 's', condition: { type: 's', eventType: 's', threshold: 'n' }, targetPhase: 's', oneShot: 'b' }],
  phases: { '*': { description: 's', normMapOverride: { '*': 'n' } } },
};

export const KNOWLEDGE: Shape = { facts: [{ id: 's', content: 's', visibility: 's', knownBy: ['s'] }], defaultVisibility: 's' };
export const INTERACTION: Shape = { groupAwareness: 'b', emotionalContagion: 'b', propagation: 's' };
