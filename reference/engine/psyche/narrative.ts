// The self-narrative (McAdams 2001, life story model). Each episode colours the story by its
// importance: tone ∈ [−1, 1] (emotional tone, the valence of remembered episodes), agency ∈ [−1, 1]
// (mastery: controllability and self-caused success) and communion ∈ [−1, 1] (warmth of social
// episodes), McAdams' two great themes. Coherence ∈ [0, 1] has the three kinds of Habermas & Bluck
// (2000), computed over recent episodes: temporal (regular sequencing: 1/(1 + CV of the intervals)),
// causal (share of episodes with an attributed cause: mean |agency|) and thematic (1 − normalised
// entropy of episode themes). Arcs are trends over the last ARC_WINDOW episodes: redemption and
// contamination sequences (McAdams et al. 2001), otherwise growth or decline by the slope.
import type { PersonaSnapshot } from '../../../contract/resources.ts';
import type { MemoryEpisode } from './types.ts';
import { internals } from './internals.ts';
import { clamp01, clamp11, fin, mean, round } from './util.ts';

export const NARRATIVE = {
  RATE: 0.5,
  COHERENCE_WINDOW: 12,
  ARC_WINDOW: 5,
  ARC_MIN_EPISODES: 4,
  /** Half means beyond ±SWING make a redemption/contamination; a slope beyond ±SLOPE per episode a growth/decline. */
  SWING: 0.15,
  SLOPE: 0.05,
  ARCS: 10,
  ARC_EPISODES: 12,
} as const;

export const THEMES = ['routine', 'conflict', 'failure', 'misfortune', 'connection', 'achievement', 'fortune'] as const;

export function themeOf(ep: MemoryEpisode): string {
  const a = ep.appraisal;
  if (ep.importance < 0.2 && Math.abs(a.goal_congruence) < 0.2) return 'routine';
  if (a.goal_congruence < 0) return a.agency < -0.3 ? 'conflict' : a.agency > 0.3 ? 'failure' : 'misfortune';
  return a.agency < -0.3 ? 'connection' : a.agency > 0.3 ? 'achievement' : 'fortune';
}

/** Coherence of the episodes from index `from` on (sums in episode order). */
function coherence(all: MemoryEpisode[], from: number, prev: PersonaSnapshot['narrative']['coherence']) {
  const n = all.length - from;
  if (n < 3) return prev;
  let ordered = 0, sum = 0;
  for (let i = from + 1; i < all.length; i++) {
    const gap = all[i].timestamp - all[i - 1].timestamp;
    if (gap >= 0) ordered++;
    sum += Math.abs(gap);
  }
  const m = sum / (n - 1);
  let spread = 0;
  for (let i = from + 1; i < all.length; i++) spread += (Math.abs(all[i].timestamp - all[i - 1].timestamp) - m) ** 2;
  const cv = m > 0 ? Math.sqrt(spread / (n - 1)) / m : 0;
  const counts = new Map<string, number>();
  for (let i = from; i < all.length; i++) {
    const theme = themeOf(all[i]);
    counts.set(theme, (counts.get(theme) ?? 0) + 1);
  }
  let h = 0;
  for (const c of counts.values()) { const p = c / n; h -= p * Math.log(p); }
  let agency = 0;
  for (let i = from; i < all.length; i++) agency += Math.abs(all[i].appraisal.agency);
  return {
    temporal: round(clamp01(ordered / (n - 1) / (1 + cv))),
    causal: round(clamp01(agency / n)),
    thematic: round(clamp01(1 - h / Math.log(THEMES.length))),
  };
}

function trend(eps: MemoryEpisode[]): { type: string; strength: number } | undefined {
  if (eps.length < NARRATIVE.ARC_MIN_EPISODES) return undefined;
  const v = eps.map((e) => e.emotionSnapshot.V);
  const half = Math.floor(v.length / 2);
  const first = mean(v.slice(0, half)), last = mean(v.slice(v.length - half));
  const xm = (v.length - 1) / 2, ym = mean(v);
  let num = 0, den = 0;
  v.forEach((y, x) => { num += (x - xm) * (y - ym); den += (x - xm) ** 2; });
  const slope = den ? num / den : 0;
  const strength = round(clamp01(Math.abs(last - first)));
  if (first < -NARRATIVE.SWING && last > NARRATIVE.SWING) return { type: 'redemption', strength };
  if (first > NARRATIVE.SWING && last < -NARRATIVE.SWING) return { type: 'contamination', strength };
  if (slope < -NARRATIVE.SLOPE) return { type: 'decline', strength };
  if (slope > NARRATIVE.SLOPE) return { type: 'growth', strength };
  return undefined;
}

export function tell(s: PersonaSnapshot, ep: MemoryEpisode, social: boolean): void {
  const n = s.narrative;
  const w = NARRATIVE.RATE * ep.importance;
  const a = ep.appraisal;
  n.tone = round(clamp11(fin(n.tone, 0) + w * (ep.emotionSnapshot.V - fin(n.tone, 0))));
  const mastery = clamp11(2 * a.controllability - 1 + 0.5 * Math.max(0, a.agency) * a.goal_congruence);
  n.agency = round(clamp11(fin(n.agency, 0) + w * (mastery - fin(n.agency, 0))));
  if (social) n.communion = round(clamp11(fin(n.communion, 0) + w * (a.goal_congruence - fin(n.communion, 0))));
  const eps = internals(s).episodes;
  n.coherence = coherence(eps, Math.max(0, eps.length - NARRATIVE.COHERENCE_WINDOW), n.coherence);
  const window = eps.slice(-NARRATIVE.ARC_WINDOW);
  const arc = trend(window);
  if (!arc) return;
  const counts = new Map<string, number>();
  for (const e of window) { const th = themeOf(e); counts.set(th, (counts.get(th) ?? 0) + 1); }
  const theme = [...counts.entries()].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))[0][0];
  const lastArc = n.arcs[n.arcs.length - 1];
  const ids = window.map((e) => e.id);
  if (lastArc && lastArc.type === arc.type && ids.slice(0, -1).some((id) => lastArc.episodeIds.includes(id))) {
    // A changed copy replaces the arc (array elements are never written to).
    n.arcs[n.arcs.length - 1] = {
      ...lastArc,
      episodeIds: [...new Set([...lastArc.episodeIds, ...ids])].slice(-NARRATIVE.ARC_EPISODES),
      strength: round(Math.max(lastArc.strength, arc.strength)),
      theme,
    };
  } else {
    n.arcs.push({ id: `arc-${internals(s).turn}`, type: arc.type, strength: arc.strength, episodeIds: ids, theme });
    if (n.arcs.length > NARRATIVE.ARCS) n.arcs.splice(0, n.arcs.length - NARRATIVE.ARCS);
  }
}

export const coherenceOf = (n: PersonaSnapshot['narrative']): number =>
  round(mean([fin(n.coherence?.temporal, 0.5), fin(n.coherence?.causal, 0.5), fin(n.coherence?.thematic, 0.5)]));
