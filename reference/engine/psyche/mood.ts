// Mood after ALMA (Gebhard 2005): a slow PAD point that emotions pull toward themselves (the
// stronger the emotion, the stronger the pull) and that, with time and no emotion, returns to the
// default mood given by personality (Mehrabian 1996, see personality.ts). Frustrated needs (SDT)
// lower the valence of the mood's home.
import type { NeedState, PersonaSnapshot, VAD } from '../../../contract/resources.ts';
import { add, boundVad, lerp, mean, norm, pushCapped, relax, round, scale, sub, vad, clamp01, fin } from './util.ts';

export const MOOD = {
  /** Share of the emotion–mood gap closed by one percept, times the emotion's intensity. */
  PULL: 0.06,
  /** Time constant (seconds) of the mood during elapse. */
  TAU: 4 * 3600,
  /** While time passes, the mood's target keeps this share of the current emotion. */
  EMOTION_WEIGHT: 0.3,
  /** Valence shift of the mood's home per unit of mean need satisfaction away from NEEDS.SET_POINT. */
  NEED_V: 0.3,
  NEED_SET_POINT: 0.6,
  HISTORY: 50,
} as const;

/** The mood's home: personality baseline, lowered by frustrated needs. */
export function moodHome(base: VAD, needs: NeedState): VAD {
  const satisfaction = mean([fin(needs.autonomy, 0.6), fin(needs.competence, 0.6), fin(needs.relatedness, 0.6)]);
  return boundVad(add(base, vad(MOOD.NEED_V * (satisfaction - MOOD.NEED_SET_POINT), 0, 0)));
}

export function pullMood(s: PersonaSnapshot): void {
  const e = s.state.emotion;
  const k = clamp01(MOOD.PULL * Math.min(1, norm(e)));
  s.mood = boundVad(lerp(s.mood, e, k));
}

/**
 * While time passes the mood moves toward its home, tinted by the lingering emotion; SPEC.md: time
 * "decays mood", so a step never takes the mood further from home than it was (then it decays
 * straight toward home instead).
 */
export function relaxMood(s: PersonaSnapshot, home: VAD, dt: number): void {
  const k = relax(dt, MOOD.TAU);
  const target = add(home, scale(sub(s.state.emotion, home), MOOD.EMOTION_WEIGHT));
  const tinted = add(target, scale(sub(s.mood, target), k));
  const straight = add(home, scale(sub(s.mood, home), k));
  s.mood = boundVad(norm(sub(tinted, home)) <= norm(sub(s.mood, home)) ? tinted : straight);
}

export function recordMood(s: PersonaSnapshot): void {
  pushCapped(s.moodHistory, { emotion: { ...s.mood }, intensity: round(clamp01(norm(s.mood))) }, MOOD.HISTORY);
}
