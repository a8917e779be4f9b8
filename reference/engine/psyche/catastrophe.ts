// Zeeman's cusp catastrophe (Zeeman 1976, "Catastrophe theory"): behaviour z settles in a minimum of
// the potential  U(z) = z⁴/4 − β·z²/2 − α·z,  i.e. on the surface  z³ − β·z − α = 0.
//   α (normal factor)    accumulated pressure: strain of percepts, catastropheAlphaDelta, low body budget;
//   β (splitting factor) how bistable the persona is: neuroticism and current arousal.
// Inside the cusp (27α² < 4β³) two stable branches coexist; z stays on its branch (Zeeman's "delay
// convention") until the branch ends at the fold |α| = 2(β/3)^{3/2} (hysteresis_bound), then jumps.
// The lower branch (z < 0) is composure, the upper (z > 0) breakdown; a jump moves the emotion at
// once, and while z is on the upper branch the emotion's resting point is shifted (hysteresis).
import type { PersonaState, VAD } from '../../../contract/resources.ts';
import { clamp, clamp01, clamp11, fin, relax, round, vad } from './util.ts';

export const CUSP = {
  /** Resting α: slightly on the composed side. */
  ALPHA_REST: -0.2,
  /** α gained per unit of strain (see stages.strainOf) and lost per unit of relief. */
  ALPHA_STRAIN: 0.3,
  ALPHA_RELIEF: 0.15,
  /** A drained body budget raises the resting α by up to this much. */
  ALPHA_BODY: 0.3,
  /** Time constant (seconds) of α's return to rest. */
  TAU_ALPHA: 3600,
  BETA_BASE: 0.3,
  BETA_N: 0.5,
  BETA_AROUSAL: 0.2,
  /** Emotion moved per unit of jump Δz: valence down, arousal up, dominance down on breakdown. */
  JUMP: { V: -0.25, A: 0.2, D: -0.12 },
  /** Resting-point shift of the emotion per unit of z on the upper branch. */
  OFFSET: { V: -0.2, A: 0.1, D: -0.1 },
  /** A change of z larger than this between two settles is a jump. */
  JUMP_MIN: 0.5,
} as const;

export type Cusp = PersonaState['catastrophe'];

/** α at which a branch ends (the fold): 2(β/3)^{3/2}. */
export const foldBound = (beta: number): number => 2 * Math.pow(Math.max(0, beta) / 3, 1.5);

/** Real roots of z³ − βz − α = 0, ascending (Cardano / trigonometric form). */
export function equilibria(alpha: number, beta: number): number[] {
  const p = -beta, q = -alpha;
  const disc = q * q / 4 + p * p * p / 27;
  if (disc > 0 || beta <= 0) {
    const s = Math.sqrt(Math.max(0, disc));
    return [Math.cbrt(-q / 2 + s) + Math.cbrt(-q / 2 - s)];
  }
  const r = 2 * Math.sqrt(-p / 3);
  const phi = Math.acos(clamp((3 * q) / (2 * p) * Math.sqrt(-3 / p), -1, 1)) / 3;
  return [0, 1, 2].map((k) => r * Math.cos(phi - (2 * Math.PI * k) / 3)).sort((a, b) => a - b);
}

/** The stable equilibrium z reaches from `z`: with three roots, the outer one on z's side of the middle. */
export function settle(z: number, alpha: number, beta: number): number {
  const roots = equilibria(alpha, beta);
  if (roots.length === 1) return roots[0];
  return z < roots[1] ? roots[0] : roots[2];
}

export function betaOf(N: number, arousal: number): number {
  return clamp01(CUSP.BETA_BASE + CUSP.BETA_N * N + CUSP.BETA_AROUSAL * Math.max(0, arousal));
}

export function initialCusp(N: number, arousal: number): Cusp {
  const beta = betaOf(N, arousal);
  const alpha = CUSP.ALPHA_REST;
  return { alpha, beta: round(beta), z: round(settle(-2, alpha, beta)), hysteresis_bound: round(foldBound(beta)) };
}

/** Moves α by `dAlpha`, refreshes β, settles z; returns the jump Δz (0 when z stayed on its branch). */
export function step(c: Cusp, dAlpha: number, N: number, arousal: number): number {
  const alpha = clamp11(fin(c.alpha, CUSP.ALPHA_REST) + dAlpha);
  const beta = betaOf(N, arousal);
  const z0 = fin(c.z, -1);
  const z = settle(z0, alpha, beta);
  c.alpha = round(alpha);
  c.beta = round(beta);
  c.z = round(z);
  c.hysteresis_bound = round(foldBound(beta));
  const dz = z - z0;
  return Math.abs(dz) > CUSP.JUMP_MIN && Math.sign(z) !== Math.sign(z0) ? dz : 0;
}

/** The emotion change caused by a jump of Δz. */
export const jumpEffect = (dz: number): VAD => vad(CUSP.JUMP.V * dz, CUSP.JUMP.A * dz, CUSP.JUMP.D * dz);

/** Shift of the emotion's resting point while on the breakdown branch. */
export const offset = (z: number): VAD => {
  const k = Math.max(0, z);
  return vad(CUSP.OFFSET.V * k, CUSP.OFFSET.A * k, CUSP.OFFSET.D * k);
};

/** α's resting point for a given body budget. */
export const alphaRest = (bodyBudget: number): number => CUSP.ALPHA_REST + CUSP.ALPHA_BODY * (1 - clamp01(bodyBudget));

/** Relaxation of α toward rest over `dt` seconds (no jump is reported for the passage of time). */
export function relaxAlpha(c: Cusp, dt: number, bodyBudget: number): number {
  const rest = alphaRest(bodyBudget);
  const target = rest + (fin(c.alpha, rest) - rest) * relax(dt, CUSP.TAU_ALPHA);
  return target - fin(c.alpha, rest);
}
