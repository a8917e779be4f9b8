// The social mask (Goffman 1959's presentation of self; Hochschild 1983's surface acting): the
// persona shows its habitual face (its personality baseline) while it feels something else. Keeping
// the gap hidden costs integrity ∈ [0, 1] (self-control as a depletable resource, Baumeister et al.
// 1998): drain = DRAIN·max(0, |felt − shown| − TOLERANCE)·skill, plus the costs of suppression and
// a drained body. Rest restores it. Below EXPOSED the mask no longer hides the feeling.
import type { PersonaSnapshot, VAD } from '../../../contract/resources.ts';
import type { Traits } from './personality.ts';
import { centred } from './personality.ts';
import { clamp01, dist, fin, relax, round } from './util.ts';

export const MASK = {
  TOLERANCE: 0.25,
  JOY_SHARE: 0.2,
  DRAIN: 0.15,
  /** Honest personae find pretending harder; conscientious ones are better at it. */
  SKILL_H: 0.3, SKILL_C: -0.2,
  SUPPRESSION_COST: 0.04,
  BODY_COST: 0.05,
  /** Time constant (seconds) of recovery toward 1. */
  TAU: 3600,
  EXPOSED: 0.3,
  /** maskState by integrity: intact ≥ 0.75 > strained ≥ 0.5 > cracking ≥ EXPOSED > broken. */
  INTACT: 0.75, STRAINED: 0.5,
} as const;

export function maskStateOf(integrity: number): string {
  if (integrity >= MASK.INTACT) return 'intact';
  if (integrity >= MASK.STRAINED) return 'strained';
  if (integrity >= MASK.EXPOSED) return 'cracking';
  return 'broken';
}

export interface MaskCues { provoked: boolean; normViolation: boolean; jumped: boolean; suppressing: boolean; mortality: boolean }

/** One percept. Returns the exposure report when integrity dropped or the mask is exposed. */
export function strain(s: PersonaSnapshot, t: Traits, shown: VAD, cues: MaskCues): { integrity: number; exposed: boolean; triggers: string[] } | undefined {
  const before = clamp01(fin(s.maskIntegrity, 1));
  s.state.prevMaskIntegrity = before;
  // Hiding a bad feeling strains the mask; joy is easy to wear (a persona is rarely asked to hide
  // it), so a gap above the shown valence counts JOY_SHARE of its length.
  const gap = dist(s.state.emotion, shown) * (s.state.emotion.V >= shown.V ? MASK.JOY_SHARE : 1);
  const skill = Math.max(0.2, 1 + MASK.SKILL_H * centred(t.H) + MASK.SKILL_C * centred(t.C));
  const body = fin(s.state.body_budget, 1);
  const drain = MASK.DRAIN * Math.max(0, gap - MASK.TOLERANCE) * skill
    + (cues.suppressing ? MASK.SUPPRESSION_COST : 0) + MASK.BODY_COST * (1 - body);
  const after = round(clamp01(before - drain));
  s.maskIntegrity = after;
  s.maskState = maskStateOf(after);
  const triggers: string[] = [];
  if (gap > 0.6) triggers.push('intense_emotion');
  if (cues.provoked) triggers.push('provocation');
  if (cues.normViolation) triggers.push('norm_violation');
  if (cues.jumped) triggers.push('catastrophe_jump');
  if (cues.suppressing) triggers.push('suppression');
  if (cues.mortality) triggers.push('mortality_salience');
  if (body < 0.3) triggers.push('low_body_budget');
  const exposed = after < MASK.EXPOSED;
  return after < before || exposed ? { integrity: after, exposed, triggers } : undefined;
}

export function restore(s: PersonaSnapshot, dt: number): void {
  const m = clamp01(fin(s.maskIntegrity, 1));
  s.maskIntegrity = round(clamp01(1 - (1 - m) * relax(dt, MASK.TAU)));
  s.maskState = maskStateOf(s.maskIntegrity);
}
