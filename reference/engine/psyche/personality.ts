// Personality as the model reads it: Big Five (O, C, E, A, N) plus HEXACO honesty-humility (H),
// each on [0, 1] with 0.5 the population mean. Values outside are clamped when read (the config
// keeps what the client sent).
import type { PersonaConfig, VAD } from '../../../contract/resources.ts';
import { clamp01, clamp11, fin, vad } from './util.ts';

export interface Traits { O: number; C: number; E: number; A: number; N: number; H: number }

export const TRAIT_DEFAULT = 0.5;

export function traits(config: PersonaConfig): Traits {
  const p = (config.personality ?? {}) as Partial<Traits>;
  return {
    O: clamp01(fin(p.O, TRAIT_DEFAULT)), C: clamp01(fin(p.C, TRAIT_DEFAULT)), E: clamp01(fin(p.E, TRAIT_DEFAULT)),
    A: clamp01(fin(p.A, TRAIT_DEFAULT)), N: clamp01(fin(p.N, TRAIT_DEFAULT)), H: clamp01(fin(p.H, TRAIT_DEFAULT)),
  };
}

/** A trait centred on [-1, 1] (0 = average), the scale Mehrabian's equations use. */
export const centred = (x: number): number => 2 * x - 1;

/**
 * Mehrabian (1996) temperament → PAD, as used by ALMA (Gebhard 2005) for the default mood.
 * The published equations use emotional stability, so neuroticism enters with the opposite sign.
 */
export const MEHRABIAN = {
  P: { E: 0.21, A: 0.59, S: 0.19 },
  A: { O: 0.15, A: 0.3, S: -0.57 },
  D: { O: 0.25, C: 0.17, E: 0.6, A: -0.32 },
} as const;
/** The default mood is a mild version of the temperament point, so a persona starts near calm. */
export const BASELINE_SCALE = 0.5;

export function baseline(t: Traits): VAD {
  const O = centred(t.O), C = centred(t.C), E = centred(t.E), A = centred(t.A), S = -centred(t.N);
  const m = MEHRABIAN;
  return vad(
    clamp11(BASELINE_SCALE * (m.P.E * E + m.P.A * A + m.P.S * S)),
    clamp11(BASELINE_SCALE * (m.A.O * O + m.A.A * A + m.A.S * S)),
    clamp11(BASELINE_SCALE * (m.D.O * O + m.D.C * C + m.D.E * E + m.D.A * A)),
  );
}
