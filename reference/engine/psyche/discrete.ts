// Discrete emotion from VAD: the nearest prototype by angle among the OCC emotions placed in PAD
// space by ALMA (Gebhard 2005, after Mehrabian), plus surprise and calm. The emotion is read
// relative to the persona's resting point (its default mood): a persona at rest is neutral, whatever
// its temperament. Direction names the emotion, length its intensity. Mood is named by Mehrabian's
// PAD octants, also relative to the resting point, and "even" near it.
import type { DiscreteEmotion, VAD } from '../../../contract/resources.ts';
import type { PersonaSnapshot } from '../../../contract/resources.ts';
import { restingPoint } from './internals.ts';
import { clamp01, dot, norm, readVad, round, sub, vad, ZERO } from './util.ts';

export const PROTOTYPES: Readonly<Record<string, VAD>> = {
  admiration: vad(0.5, 0.3, -0.2), anger: vad(-0.51, 0.59, 0.25), disliking: vad(-0.4, 0.2, 0.1),
  disappointment: vad(-0.3, 0.1, -0.4), distress: vad(-0.4, -0.2, -0.5), fear: vad(-0.64, 0.6, -0.43),
  fears_confirmed: vad(-0.5, -0.3, -0.7), gloating: vad(0.3, -0.3, -0.1), gratification: vad(0.6, 0.5, 0.4),
  gratitude: vad(0.4, 0.2, -0.3), happy_for: vad(0.4, 0.2, 0.2), hate: vad(-0.6, 0.6, 0.3),
  hope: vad(0.2, 0.2, -0.1), joy: vad(0.4, 0.2, 0.1), liking: vad(0.4, 0.16, -0.24), love: vad(0.3, 0.1, 0.2),
  pride: vad(0.4, 0.3, 0.3), relief: vad(0.2, -0.3, 0.4), reproach: vad(-0.3, -0.1, 0.4),
  satisfaction: vad(0.3, -0.2, 0.4), shame: vad(-0.3, 0.1, -0.6),
  // Not OCC emotions: arousal with no valence is surprise (Russell 1980 places it there), its
  // absence calm; without them an aroused neutral persona read as anger and a sleepy one as resentment.
  surprise: vad(0.1, 0.7, 0.05), calm: vad(0, -0.6, 0),
};
// ALMA gives pity = distress and remorse = shame (same coordinates); one name each is kept.
// ALMA's resentment (−0.2, −0.3, −0.2) is left out: it sits among the quiet, helpless states
// (Mehrabian's −P−A−D octant), where it named grief and tiredness "resentment".

export const DISCRETE = {
  /** Below this length the emotion reads as neutral. */
  NEUTRAL_RADIUS: 0.07,
  /** Length of a VAD vector that counts as full intensity. */
  FULL_INTENSITY: 1,
} as const;

/** Prototype names sorted by angle to `e`, closest first (ties broken by name, for determinism). */
export function ranked(e: VAD): string[] {
  const n = norm(e) || 1;
  return Object.entries(PROTOTYPES)
    .map(([name, p]) => ({ name, cos: dot(e, p) / (n * norm(p)) }))
    .sort((a, b) => b.cos - a.cos || a.name.localeCompare(b.name))
    .map((x) => x.name);
}

// The prototypes as arrays, their lengths, and each name's place in name order (the tie-break of
// `ranked`), computed once: discreteOf needs only the two closest, found in one pass.
const NAMES = Object.keys(PROTOTYPES);
const PV = NAMES.map((k) => PROTOTYPES[k].V), PA = NAMES.map((k) => PROTOTYPES[k].A), PD = NAMES.map((k) => PROTOTYPES[k].D);
const LENGTHS = NAMES.map((k) => norm(PROTOTYPES[k]));
const BY_NAME = [...NAMES].sort((a, b) => a.localeCompare(b));
const NAME_RANK = NAMES.map((k) => BY_NAME.indexOf(k));
const COS = new Float64Array(NAMES.length);

/** Prototype i comes before j in `ranked`'s order: larger cosine first, then name order. */
const before = (i: number, j: number): boolean => COS[i] > COS[j] || (COS[i] === COS[j] && NAME_RANK[i] < NAME_RANK[j]);

/** The first two of `ranked(e)`. */
function closestTwo(e: VAD): [string, string] {
  const n = norm(e) || 1;
  for (let i = 0; i < NAMES.length; i++) {
    const c = (e.V * PV[i] + e.A * PA[i] + e.D * PD[i]) / (n * LENGTHS[i]);
    // Without a finite cosine for every prototype `ranked`'s order is its sort's own; ask it.
    if (!Number.isFinite(c)) { const r = ranked(e); return [r[0], r[1]]; }
    COS[i] = c;
  }
  let first = 0, second = 1;
  if (before(second, first)) { first = 1; second = 0; }
  for (let i = 2; i < NAMES.length; i++) {
    if (before(i, first)) { second = first; first = i; }
    else if (before(i, second)) second = i;
  }
  return [NAMES[first], NAMES[second]];
}

/** The discrete emotion of `emotion` read from the resting point `home` (neutral there). */
export function discreteOf(emotion: VAD, home: VAD = ZERO): DiscreteEmotion {
  const e = sub(emotion, home);
  const len = norm(e);
  const intensity = round(clamp01(len / DISCRETE.FULL_INTENSITY));
  if (len < 1e-9) return { primary: 'neutral', secondary: 'neutral', intensity: 0 };
  const [first, second] = closestTwo(e);
  if (len < DISCRETE.NEUTRAL_RADIUS) return { primary: 'neutral', secondary: first, intensity };
  return { primary: first, secondary: second, intensity };
}

/** The discrete emotion of a snapshot, read from its resting point. */
export function labelOf(s: PersonaSnapshot): DiscreteEmotion {
  return discreteOf(readVad(s.state?.emotion), restingPoint(s));
}

/** Below this distance from the resting point the mood is "even" (no octant). */
export const EVEN_MOOD = 0.05;

/** Mehrabian's temperament octants (+P+A+D exuberant … −P−A−D bored), read from `home`; "even" near it. */
export function octant(mood: VAD, home: VAD = ZERO): string {
  const m = sub(mood, home);
  if (norm(m) < EVEN_MOOD) return 'even';
  const key = `${m.V >= 0 ? '+' : '-'}${m.A >= 0 ? '+' : '-'}${m.D >= 0 ? '+' : '-'}`;
  return ({
    '+++': 'exuberant', '++-': 'dependent', '+-+': 'relaxed', '+--': 'docile',
    '---': 'bored', '--+': 'disdainful', '-+-': 'anxious', '-++': 'hostile',
  } as Record<string, string>)[key];
}
