// Persona-level relationships, keyed by the source's key. Trust ∈ [0, 1] follows the social
// valence of what the other does, with a negativity bias (betrayal weighs more than kindness,
// Baumeister et al. 2001); intimacy ∈ [0, 1] grows slowly with positive exchanges (social
// penetration, Altman & Taylor 1973). The attachment style of a relationship is one of the four
// categories of Bartholomew & Horowitz (1991), from attachment anxiety (neuroticism, distrust) and
// avoidance (low agreeableness and extraversion, distrust).
import type { Appraisal, EntityResponse, PersonaRelationship, PersonaSnapshot } from '../../../contract/resources.ts';
import type { Traits } from './personality.ts';
import { centred } from './personality.ts';
import { clamp01, clamp11, fin, round } from './util.ts';
import { getOwn, setOwn } from '../keyed.ts';

export const REL = {
  TRUST_DEFAULT: 0.5,
  /** Initial trust leans on agreeableness: DEFAULT + A·c(A). */
  TRUST_A: 0.1,
  TRUST_GAIN: 0.2,
  NEGATIVITY_BIAS: 1.5,
  /** Norm violations cost trust on top of harm. */
  TRUST_NORM: 0.1,
  INTIMACY_GAIN: 0.08,
  INTIMACY_LOSS: 0.05,
  /** Attachment: anxiety = AX_N·N + AX_T·(1 − trust); avoidance = AV_A·(1 − A) + AV_E·(1 − E) + AV_T·(1 − trust). */
  AX_N: 0.6, AX_T: 0.4, AV_A: 0.3, AV_E: 0.3, AV_T: 0.4,
  ATTACHMENT_CUT: 0.5,
} as const;

export function attachmentStyle(t: Traits, trust: number): string {
  const anxiety = REL.AX_N * t.N + REL.AX_T * (1 - trust);
  const avoidance = REL.AV_A * (1 - t.A) + REL.AV_E * (1 - t.E) + REL.AV_T * (1 - trust);
  const ax = anxiety > REL.ATTACHMENT_CUT, av = avoidance > REL.ATTACHMENT_CUT;
  return ax && av ? 'fearful' : ax ? 'preoccupied' : av ? 'dismissing' : 'secure';
}

/**
 * World-level trust is read on [−1, 1] with 0 neutral (the world's default "stranger" relationship
 * has trust 0) and mapped onto the persona's [0, 1] scale: (t + 1) / 2.
 */
export function unitWorldTrust(worldTrust: number | undefined): number | undefined {
  return typeof worldTrust === 'number' && Number.isFinite(worldTrust) ? (clamp11(worldTrust) + 1) / 2 : undefined;
}

export function initialTrust(t: Traits, worldTrust?: number): number {
  const own = clamp01(REL.TRUST_DEFAULT + REL.TRUST_A * centred(t.A));
  const world = unitWorldTrust(worldTrust);
  return round(world === undefined ? own : (own + world) / 2);
}

type Update = EntityResponse['socialUpdates'][number];

/**
 * Updates (or creates) the relationship with `key` after a social percept. `defense` ∈ [0, 1] is the
 * strength of a distal TMT defense: it amplifies gains toward the trusted and losses toward the rest.
 * `stance` (a text's reading: how the speaker treats the persona) replaces goal congruence when
 * given: a friend's sad news hurts but is no offence, and disclosure builds trust.
 */
export function relate(
  s: PersonaSnapshot, t: Traits, key: string, entityId: string, a: Appraisal, now: number, worldTrust: number | undefined, defense: number,
  stance?: number,
): Update[] {
  const existing = getOwn(s.relationships, key);
  const rel: PersonaRelationship = existing ?? {
    entityId, trust: initialTrust(t, worldTrust), intimacy: 0, interactionCount: 0,
    attachmentStyle: attachmentStyle(t, initialTrust(t, worldTrust)), lastInteraction: now,
  };
  const old = { trust: fin(rel.trust, REL.TRUST_DEFAULT), intimacy: fin(rel.intimacy, 0), interactionCount: fin(rel.interactionCount, 0) };
  const c = (stance ?? a.goal_congruence) * a.goal_relevance;
  let dTrust = c >= 0 ? REL.TRUST_GAIN * c * (1 - old.trust) : REL.TRUST_GAIN * REL.NEGATIVITY_BIAS * c * old.trust;
  dTrust += REL.TRUST_NORM * Math.min(0, a.norm_compatibility) * old.trust;
  const inGroup = old.trust >= 0.5;
  if ((inGroup && dTrust > 0) || (!inGroup && dTrust < 0)) dTrust *= 1 + clamp01(defense);
  const dIntimacy = c >= 0 ? REL.INTIMACY_GAIN * c * (1 - old.intimacy) : REL.INTIMACY_LOSS * c * old.intimacy;
  rel.entityId = existing?.entityId || entityId;
  rel.trust = round(clamp01(old.trust + dTrust));
  rel.intimacy = round(clamp01(old.intimacy + dIntimacy));
  rel.interactionCount = old.interactionCount + 1;
  rel.lastInteraction = now;
  rel.attachmentStyle = attachmentStyle(t, rel.trust);
  setOwn(s.relationships, key, rel);
  const out: Update[] = [];
  for (const field of ['trust', 'intimacy', 'interactionCount'] as const) {
    if (rel[field] !== old[field]) out.push({ entityId: rel.entityId, field, oldValue: old[field], newValue: rel[field] });
  }
  return out;
}

export function meanTrust(s: PersonaSnapshot): number {
  const rels = Object.values(s.relationships ?? {});
  return rels.length ? rels.reduce((x, r) => x + fin(r.trust, REL.TRUST_DEFAULT), 0) / rels.length : REL.TRUST_DEFAULT;
}
