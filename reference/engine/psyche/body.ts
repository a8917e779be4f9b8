// Body budget (Barrett 2017, "How emotions are made"; allostasis, Sterling 2012): a reserve in
// [0, 1] that arousal and unpleasantness spend and rest refills. A drained budget feeds back:
// it raises the catastrophe's resting α, drains the mask and heightens interoception.
import type { PersonaState, VAD } from '../../../contract/resources.ts';
import { clamp01, fin, norm, relax, round } from './util.ts';

export const BODY = {
  REST: 1,
  /** Spent by one percept: per unit of arousal, of negative valence, and of impulse size. */
  COST_AROUSAL: 0.05,
  COST_NEGATIVE: 0.05,
  COST_IMPULSE: 0.04,
  /** Spent per hour of time at full arousal / full negative valence. */
  COST_PER_HOUR: 0.15,
  /** Time constant (seconds) of recovery toward REST. */
  TAU_RECOVERY: 2 * 3600,
} as const;

const load = (e: VAD) => Math.max(0, e.A) + Math.max(0, -e.V);

export function spend(s: PersonaState, impulse: VAD, delta: number | undefined): void {
  const cost = BODY.COST_AROUSAL * Math.max(0, s.emotion.A) + BODY.COST_NEGATIVE * Math.max(0, -s.emotion.V) + BODY.COST_IMPULSE * norm(impulse);
  s.body_budget = round(clamp01(fin(s.body_budget, BODY.REST) - cost + fin(delta, 0)));
}

/**
 * `dt` seconds: exponential recovery toward REST minus the running cost of the emotion, integrated
 * over its own exponential decay (time constant `tauEmotion`): cost·τ(1 − e^{−dt/τ}). SPEC.md: time
 * "recovers the body", so a lingering emotion slows recovery but time alone never lowers the budget
 * (percepts pay their cost when they happen, in `spend`).
 */
export function recover(s: PersonaState, dt: number, tauEmotion: number): void {
  const b = fin(s.body_budget, BODY.REST);
  const recovered = BODY.REST - (BODY.REST - b) * relax(dt, BODY.TAU_RECOVERY);
  const exposure = tauEmotion * (1 - relax(dt, tauEmotion));
  s.body_budget = round(clamp01(Math.max(b, recovered - BODY.COST_PER_HOUR * load(s.emotion) * (exposure / 3600))));
}
