// Soul stages: an ordered ladder of coping states (equanimity → collapse). Accumulated load
// (strain of negative percepts, scaled by the stage's stress_modifier) climbs the ladder when it
// passes the stage's tolerance; relief and rest discharge it, and an empty load steps back down.
// The idea follows allostatic load (McEwen 1998): wear accumulates across events, not per event.
import type { Appraisal, VAD } from '../../../contract/resources.ts';
import type { SoulStage } from './types.ts';
import { clamp, fin, round } from './util.ts';

interface StageDef {
  name: string;
  /** Load the stage absorbs before the persona moves one stage up. */
  tolerance: number;
  /** Multiplies negative impulses (stress reactivity grows up the ladder). */
  stress_modifier: number;
  /** Added to derived appraisal members (a strained mind reads events more darkly). */
  appraisal_bias: Appraisal;
  /** Pushes regulation toward avoidance (situation_selection) and away from approach. */
  avoidance_mod: number;
  /** Share of appraisal (rational) versus raw affect (irrational) in the emotional impulse. */
  blend_table: { rational: number; irrational: number };
}

const bias = (k: number): Appraisal => ({
  goal_relevance: 0.05 * k, goal_congruence: -0.06 * k, expectedness: -0.03 * k,
  controllability: -0.06 * k, agency: 0, norm_compatibility: -0.03 * k,
});

export const STAGES: readonly StageDef[] = [
  { name: 'equanimity', tolerance: 2.0, stress_modifier: 0.85, appraisal_bias: bias(0), avoidance_mod: 0, blend_table: { rational: 0.8, irrational: 0.2 } },
  { name: 'unease', tolerance: 2.5, stress_modifier: 1.0, appraisal_bias: bias(1), avoidance_mod: 0.1, blend_table: { rational: 0.7, irrational: 0.3 } },
  { name: 'distress', tolerance: 2.0, stress_modifier: 1.15, appraisal_bias: bias(2), avoidance_mod: 0.25, blend_table: { rational: 0.55, irrational: 0.45 } },
  { name: 'crisis', tolerance: 1.5, stress_modifier: 1.3, appraisal_bias: bias(3), avoidance_mod: 0.4, blend_table: { rational: 0.4, irrational: 0.6 } },
  { name: 'collapse', tolerance: 1.0, stress_modifier: 1.5, appraisal_bias: bias(4), avoidance_mod: 0.6, blend_table: { rational: 0.25, irrational: 0.75 } },
];
export const MAX_STAGE = STAGES.length - 1;

export const STAGE = {
  /** Load of an impulse: negative valence counts fully, rising arousal by half. */
  LOAD_V: 1.0,
  LOAD_A: 0.5,
  /** Positive valence discharges load at this rate. */
  RELIEF_V: 0.6,
  /** Load discharged per hour of rest at a full body budget: a night's sleep (8 h) takes off 0.8, a
   *  quiet day 2.4, so days of trouble pile up (allostatic load) while one good night does not erase them. */
  REST_PER_HOUR: 0.1,
  /** After stepping down, the lower stage starts with this fraction of its tolerance (hysteresis). */
  DESCENT_LOAD_FRACTION: 0.5,
} as const;

export function stageState(id: number, load = 0, turns = 0): SoulStage {
  const i = clamp(Math.round(fin(id, 0)), 0, MAX_STAGE);
  const d = STAGES[i];
  return {
    id: i, name: d.name, tolerance: d.tolerance, stress_modifier: d.stress_modifier,
    appraisal_bias: { ...d.appraisal_bias }, avoidance_mod: d.avoidance_mod,
    blend_table: { ...d.blend_table }, cumulative_load: round(Math.max(0, load)), turns_in_stage: turns,
  };
}

/** Strain of one impulse (what load and the catastrophe's alpha accumulate). */
export const strainOf = (impulse: VAD): number => STAGE.LOAD_V * Math.max(0, -impulse.V) + STAGE.LOAD_A * Math.max(0, impulse.A);
export const reliefOf = (impulse: VAD): number => STAGE.RELIEF_V * Math.max(0, impulse.V);

const label = (from: SoulStage, to: SoulStage) => `${from.name} -> ${to.name}`;

/**
 * Forces a stage (stimulus soulStageForce): the stage starts afresh (load 0, turns 0) even when it is
 * the current one; the transition is reported only when the stage changes.
 */
export function forceStage(cur: SoulStage, id: number): { stage: SoulStage; transition?: string } {
  const next = stageState(id);
  return next.id === cur.id ? { stage: next } : { stage: next, transition: label(cur, next) };
}

/**
 * Adds a percept's load (already scaled by stress_modifier) and relief; moves at most one stage.
 * `turn` counts the percept in the stage (false for the passage of time).
 */
export function accumulate(cur: SoulStage, load: number, relief: number, turn: boolean): { stage: SoulStage; transition?: string } {
  const total = Math.max(0, fin(cur.cumulative_load, 0) + load - relief);
  const turns = fin(cur.turns_in_stage, 0) + (turn ? 1 : 0);
  const id = clamp(Math.round(fin(cur.id, 0)), 0, MAX_STAGE);
  if (total > STAGES[id].tolerance && id < MAX_STAGE) {
    // The excess carries into the next stage, so a huge shock still climbs only one rung per percept.
    const next = stageState(id + 1, Math.min(total - STAGES[id].tolerance, STAGES[id + 1].tolerance * 0.99), 0);
    return { stage: next, transition: label(cur, next) };
  }
  if (total <= 0 && id > 0 && (load - relief < 0)) {
    const next = stageState(id - 1, STAGES[id - 1].tolerance * STAGE.DESCENT_LOAD_FRACTION, 0);
    return { stage: next, transition: label(cur, next) };
  }
  return { stage: stageState(id, Math.min(total, STAGES[id].tolerance), turns) };
}
