// Bodily maps of emotion (Nummenmaa, Glerean, Hari & Hietanen 2014): each region's activation in
// [−1, 1] (negative = deactivation) follows the emotion through a linear map read off their maps:
// arousal warms head and chest; anger adds upper back and hands; anxiety and disgust the stomach
// and throat; happiness the whole body including the legs; sadness deactivates the limbs.
// Interoception ∈ [0, 1] (awareness of the body, Craig 2002; Barrett's interoceptive prediction)
// rises with neuroticism, a drained body budget and arousal.
import type { PersonaSnapshot, VAD } from '../../../contract/resources.ts';
import type { Traits } from './personality.ts';
import { centred } from './personality.ts';
import { clamp01, clamp11, fin, readVad, relax, round } from './util.ts';

export const REGIONS = ['head', 'neck', 'chest', 'stomach', 'upperBack', 'hands', 'legs'] as const;
export type Region = (typeof REGIONS)[number];

/** Weights per region on the features [arousal, pleasant, unpleasant, dominant, submissive]. */
export const SOMATIC_MAP: Record<Region, [number, number, number, number, number]> = {
  head: [0.45, 0.25, 0.25, 0, 0.1],
  neck: [0.2, 0, 0.35, 0, 0.15],
  chest: [0.45, 0.35, 0.3, 0, 0],
  stomach: [0.15, 0, 0.4, 0, 0.25],
  upperBack: [0.25, 0, 0.2, 0.35, 0],
  hands: [0.35, 0.2, 0, 0.35, 0],
  legs: [0.2, 0.4, -0.35, 0, -0.1],
};

export const SOMATIC = {
  /** Share of the gap to the target closed by one percept. */
  RATE: 0.5,
  /** Time constant (seconds) of the body following the emotion. */
  TAU: 300,
  INTERO_BASE: 0.45, INTERO_N: 0.15, INTERO_BODY: 0.3, INTERO_AROUSAL: 0.15,
  /** A region is felt (listed in the state) past this magnitude. */
  SALIENT: 0.3,
} as const;

export function targetOf(e: VAD): Record<Region, number> {
  const f0 = e.A, f1 = Math.max(0, e.V), f2 = Math.max(0, -e.V), f3 = Math.max(0, e.D), f4 = Math.max(0, -e.D);
  const out = {} as Record<Region, number>;
  for (const r of REGIONS) {
    const w = SOMATIC_MAP[r];
    out[r] = clamp11(0 + w[0] * f0 + w[1] * f1 + w[2] * f2 + w[3] * f3 + w[4] * f4);
  }
  return out;
}

const interoceptionOf = (s: PersonaSnapshot, t: Traits) => clamp01(
  SOMATIC.INTERO_BASE + SOMATIC.INTERO_N * centred(t.N) + SOMATIC.INTERO_BODY * (1 - fin(s.state.body_budget, 1))
  + SOMATIC.INTERO_AROUSAL * Math.abs(s.state.emotion.A),
);

/** A region's value moved a share `k` of the way to `target`. */
const toward = (cur: unknown, target: number, k: number): number => {
  const x = fin(cur, 0);
  return round(clamp11(x + k * (target - x)));
};

/** Moves the regions a share `k` ∈ [0, 1] of the way to the emotion's map. */
function follow(s: PersonaSnapshot, t: Traits, k: number): void {
  const target = targetOf(s.state.emotion);
  const regions = s.somatic.regions;
  // Region by region in REGIONS order, by name.
  regions.head = toward(regions.head, target.head, k);
  regions.neck = toward(regions.neck, target.neck, k);
  regions.chest = toward(regions.chest, target.chest, k);
  regions.stomach = toward(regions.stomach, target.stomach, k);
  regions.upperBack = toward(regions.upperBack, target.upperBack, k);
  regions.hands = toward(regions.hands, target.hands, k);
  regions.legs = toward(regions.legs, target.legs, k);
  const io = interoceptionOf(s, t);
  s.somatic.interoception = round(clamp01(fin(s.somatic.interoception, io) + k * (io - fin(s.somatic.interoception, io))));
}

export const feel = (s: PersonaSnapshot, t: Traits) => follow(s, t, SOMATIC.RATE);

/** The regions set to the emotion's map at once (an override: the emotion jumped there). */
export function embody(s: PersonaSnapshot): void {
  if (!s.somatic?.regions || typeof s.somatic.regions !== 'object') return;
  const target = targetOf(readVad(s.state.emotion));
  for (const r of REGIONS) s.somatic.regions[r] = round(target[r]);
}
export const settleBody = (s: PersonaSnapshot, t: Traits, dt: number) => follow(s, t, 1 - relax(dt, SOMATIC.TAU));

export const initialSomatic = (t: Traits): PersonaSnapshot['somatic'] => ({
  regions: { head: 0, neck: 0, chest: 0, stomach: 0, upperBack: 0, hands: 0, legs: 0 },
  interoception: round(clamp01(SOMATIC.INTERO_BASE + SOMATIC.INTERO_N * centred(t.N))),
});

const WORDS: Record<Region, [string, string]> = {
  head: ['pressure in the head', 'foggy head'], neck: ['tight throat', 'slack neck'],
  chest: ['pounding chest', 'hollow chest'], stomach: ['knotted stomach', 'settled stomach'],
  upperBack: ['tense shoulders', 'sagging shoulders'], hands: ['restless hands', 'limp hands'],
  legs: ['energised legs', 'heavy legs'],
};

/** The felt regions as words, strongest first (the state's `somatic` list). */
export function sensations(s: PersonaSnapshot): string[] {
  return REGIONS.map((r) => ({ r, v: fin(s.somatic?.regions?.[r], 0) }))
    .filter((x) => Math.abs(x.v) >= SOMATIC.SALIENT)
    .sort((a, b) => Math.abs(b.v) - Math.abs(a.v) || a.r.localeCompare(b.r))
    .map((x) => WORDS[x.r][x.v > 0 ? 0 : 1]);
}
