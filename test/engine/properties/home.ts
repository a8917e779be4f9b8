// The mood's home from docs/engine.md ("Personality and the default mood", "Mood"), computed from
// the documented formulas rather than the engine's own helpers.
import type { NeedState, PersonaConfig, VAD } from '../../../contract/resources.ts';

const c = (x: number) => 2 * Math.min(1, Math.max(0, x)) - 1;
const clamp11 = (x: number) => Math.min(1, Math.max(-1, x));

/** Mehrabian's temperament mapping with emotional stability S = −c(N), scale 0.5. */
export function defaultMood(config: PersonaConfig): VAD {
  const p = config.personality;
  const O = c(p.O), C = c(p.C), E = c(p.E), A = c(p.A), S = -c(p.N);
  return {
    V: clamp11(0.5 * (0.21 * E + 0.59 * A + 0.19 * S)),
    A: clamp11(0.5 * (0.15 * O + 0.30 * A - 0.57 * S)),
    D: clamp11(0.5 * (0.25 * O + 0.17 * C + 0.60 * E - 0.32 * A)),
  };
}

/** home = default mood + (0.3·(mean need satisfaction − 0.6), 0, 0). */
export function moodHome(config: PersonaConfig, needs: NeedState): VAD {
  const base = defaultMood(config);
  const satisfaction = (needs.autonomy + needs.competence + needs.relatedness) / 3;
  return { ...base, V: clamp11(base.V + 0.3 * (satisfaction - 0.6)) };
}

export const dist = (a: VAD, b: VAD) => Math.hypot(a.V - b.V, a.A - b.A, a.D - b.D);
