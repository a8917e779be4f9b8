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
  /** A contingency is CONT_BASE + CONT_TRAIT·trait at home. */
  CONT_BASE: 0.3, CONT_TRAIT: 0.4,
  /** A domain that keeps being tested gains stake (Crocker & Wolfe: worth invested where it is fed back). */
  CONT_GAIN: 0.1,
  /** Time constant (seconds) of the contingencies' return to their trait home. */
  CONT_TAU: 7 * 24 * 3600,
} as const;

const contingencyHome = (t: Traits) => ({
  approval: ESTEEM.CONT_BASE + ESTEEM.CONT_TRAIT * t.N, competence: ESTEEM.CONT_BASE + ESTEEM.CONT_TRAIT * t.C,
  virtue: ESTEEM.CONT_BASE + ESTEEM.CONT_TRAIT * t.H, relationships: ESTEEM.CONT_BASE + ESTEEM.CONT_TRAIT * t.A,
});

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
  // Each domain's outcome (before its weight), in [−1, 1].
  const approval = social ? otherCaused * a.goal_congruence : 0;
  const competence = selfCaused * a.goal_congruence;
  const virtue = selfCaused * Math.min(0, a.norm_compatibility);
  const relationships = social ? 0.5 * a.goal_congruence : 0;
  const signal =
    clamp01(fin(c?.approval, ESTEEM.CONT_BASE)) * approval +
    clamp01(fin(c?.competence, ESTEEM.CONT_BASE)) * competence +
    clamp01(fin(c?.virtue, ESTEEM.CONT_BASE)) * virtue +
    clamp01(fin(c?.relationships, ESTEEM.CONT_BASE)) * relationships;
  se.global = round(clamp01(fin(se.global, 0.5) + ESTEEM.GAIN * a.goal_relevance * signal));
  if (!c || typeof c !== 'object') return;
  const invest = (w: unknown, outcome: number) => {
    const x = clamp01(fin(w, ESTEEM.CONT_BASE));
    return round(clamp01(x + ESTEEM.CONT_GAIN * a.goal_relevance * Math.abs(outcome) * (1 - x)));
  };
  c.approval = invest(c.approval, approval);
  c.competence = invest(c.competence, competence);
  c.virtue = invest(c.virtue, virtue);
  c.relationships = invest(c.relationships, relationships);
}

export function driftEsteem(se: SelfEsteem, t: Traits, dt: number): void {
  const home = homeEsteem(t);
  se.global = round(clamp01(home + (fin(se.global, home) - home) * relax(dt, ESTEEM.TAU)));
  const c = se.contingencies;
  if (!c || typeof c !== 'object') return;
  const h = contingencyHome(t), k = relax(dt, ESTEEM.CONT_TAU);
  c.approval = round(clamp01(h.approval + (fin(c.approval, h.approval) - h.approval) * k));
  c.competence = round(clamp01(h.competence + (fin(c.competence, h.competence) - h.competence) * k));
  c.virtue = round(clamp01(h.virtue + (fin(c.virtue, h.virtue) - h.virtue) * k));
  c.relationships = round(clamp01(h.relationships + (fin(c.relationships, h.relationships) - h.relationships) * k));
}
