// Terror management theory (Greenberg, Pyszczynski & Solomon 1986; dual-process model, Pyszczynski,
// Greenberg & Solomon 1999). Reminders of death (mortality cues in the text, or a grave threat:
// relevant, harmful, uncontrollable) raise mortality salience ∈ [0, 1]. Self-esteem buffers it into
// death anxiety = MS·(1 − BUFFER·selfEsteem). Just after a reminder (death thought conscious) the
// defenses are proximal: suppression, pushing the threat away (they calm arousal). Later, while MS
// stays high, they are distal: worldview defense, favouring the in-group and derogating others
// (they amplify trust changes, see relationships.ts). MS fades with time.
import type { Appraisal, PersonaSnapshot } from '../../../contract/resources.ts';
import type { Traits } from './personality.ts';
import type { Reading } from './language.ts';
import { clamp01, fin, round } from './util.ts';

export const TMT = {
  CUE_GAIN: 0.4,
  /** Threat (see remind); at or above THREAT_MIN it counts as a reminder. */
  THREAT_GAIN: 0.3,
  THREAT_MIN: 0.2,
  BUFFER: 0.7,
  /** A reminder stays conscious (proximal defenses) this long, in milliseconds. */
  PROXIMAL_WINDOW_MS: 5 * 60_000,
  /** Time constant (milliseconds) of the fading of mortality salience. */
  TAU_MS: 2 * 3600_000,
  /** Defenses engage above this death anxiety. */
  DEFENSE_MIN: 0.1,
  /** Proximal suppression lowers arousal by this much per unit of defense strength. */
  SUPPRESS_AROUSAL: 0.15,
} as const;



export type DefenseMode = 'proximal' | 'distal' | 'none';

export function defenseMode(s: PersonaSnapshot): DefenseMode {
  if (s.tmt.proximalDefense) return 'proximal';
  if (s.tmt.distalDefense) return 'distal';
  return 'none';
}

/** Recomputes anxiety, proximity and defenses at time `now` (milliseconds). */
export function settleDefenses(s: PersonaSnapshot, t: Traits, now: number): void {
  const m = s.tmt;
  const ms = clamp01(fin(m.mortalitySalience, 0));
  m.deathAnxiety = round(clamp01(ms * (1 - TMT.BUFFER * clamp01(fin(s.selfEsteem.global, 0.5)))));
  const active = m.deathAnxiety >= TMT.DEFENSE_MIN;
  const recent = m.lastReminderTime > 0 && now - m.lastReminderTime < TMT.PROXIMAL_WINDOW_MS;
  m.proximity = !active ? 'none' : recent ? 'immediate' : 'delayed';
  m.proximalDefense = active && recent;
  m.distalDefense = active && !recent;
  // Worldview defense: agreeable personae bolster their in-group, others derogate the out-group.
  m.defenseTarget = m.proximalDefense ? 'self' : t.A >= 0.5 ? 'in_group' : 'out_group';
  m.defenseStrength = round(active ? m.deathAnxiety : 0);
}

/**
 * A percept: raises mortality salience on a reminder. Returns true when it was a reminder. Cues are
 * death by meaning (the reading's mortality cues: every inflection and euphemism, idioms left out);
 * a grave threat is harm promised to the persona, or harm it cannot control (controllability < 0.5).
 */
export function remind(s: PersonaSnapshot, a: Appraisal, reading: Reading, now: number): boolean {
  const cues = Math.min(2, reading.deathCues) / 2;
  const harm = a.goal_relevance * Math.max(0, -a.goal_congruence);
  const threat = Math.max(a.goal_relevance * reading.threat, harm * Math.max(0, 1 - 2 * a.controllability));
  const push = TMT.CUE_GAIN * cues + (threat >= TMT.THREAT_MIN ? TMT.THREAT_GAIN * threat : 0);
  if (push <= 0) return false;
  const ms = clamp01(fin(s.tmt.mortalitySalience, 0));
  s.tmt.mortalitySalience = round(clamp01(ms + push * (1 - ms)));
  s.tmt.lastReminderTime = now;
  return true;
}

export function fade(s: PersonaSnapshot, dtMs: number): void {
  s.tmt.mortalitySalience = round(clamp01(fin(s.tmt.mortalitySalience, 0) * Math.exp(-Math.max(0, dtMs) / TMT.TAU_MS)));
}
