// Self-esteem as a sociometer (Leary & Baumeister 2000) with contingencies of self-worth (Crocker &
// Wolfe 2001): global ∈ [0, 1] moves with outcomes in the domains it is staked on, each domain
// weighted by its contingency ∈ [0, 1]. Others' regard feeds "approval", outcomes one caused feed
// "competence", one's own norm conduct feeds "virtue", closeness feeds "relationships".
import type { Appraisal } from '../../../contract/resources.ts';
import type { SelfEsteem } from './types.ts';
import type { Traits } from './personality.ts';
import { centred } from './personality.ts';
import { clamp01, fin, relax, round } from './util.ts';

export const ESTEEM = {
  GAIN: 0.08,
  /** Trait home of global self-esteem: BASE + E·c(E) − N·c(N). */
  BASE: 0.55, E: 0.1, N: 0.15,
  /** Time constant (seconds) of the return to the trait home. */
  TAU: 24 * 3600,
  /** A contingency is CONT_BASE + CONT_TRAIT·trait. */
  CONT_BASE: 0.3, CONT_TRAIT: 0.4,
} as const;

export const homeEsteem = (t: Traits): number => clamp01(ESTEEM.BASE + ESTEEM.E * centred(t.E) - ESTEEM.N * centred(t.N));

export function initialEsteem(t: Traits): SelfEsteem {
  const c = (x: number) => round(ESTEEM.CONT_BASE + ESTEEM.CONT_TRAIT * x);
  return {
    global: round(homeEsteem(t)),
    contingencies: { approval: c(t.N), competence: c(t.C), virtue: c(t.H), relationships: c(t.A) },
  };
}

export function appraiseEsteem(se: SelfEsteem, a: Appraisal, social: boolean): void {
  const c = se.contingencies;
  const selfCaused = Math.max(0, a.agency);
  const otherCaused = Math.max(0, -a.agency);
  const signal =
    clamp01(fin(c?.approval, ESTEEM.CONT_BASE)) * (social ? otherCaused * a.goal_congruence : 0) +
    clamp01(fin(c?.competence, ESTEEM.CONT_BASE)) * selfCaused * a.goal_congruence +
    clamp01(fin(c?.virtue, ESTEEM.CONT_BASE)) * selfCaused * Math.min(0, a.norm_compatibility) +
    clamp01(fin(c?.relationships, ESTEEM.CONT_BASE)) * (social ? 0.5 * a.goal_congruence : 0);
  se.global = round(clamp01(fin(se.global, 0.5) + ESTEEM.GAIN * a.goal_relevance * signal));
}

export function driftEsteem(se: SelfEsteem, t: Traits, dt: number): void {
  const home = homeEsteem(t);
  se.global = round(clamp01(home + (fin(se.global, home) - home) * relax(dt, ESTEEM.TAU)));
}
