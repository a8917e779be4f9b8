// Appraisal (Lazarus 1991; Scherer's component process model; OCC, Ortony, Clore & Collins 1988):
// a percept is evaluated on six dimensions, which then give a change of valence, arousal and
// dominance. Ranges used by the reference:
//   goal_relevance ∈ [0,1]   how much it matters;          goal_congruence ∈ [−1,1]  helps (+) or harms (−) goals
//   expectedness   ∈ [0,1]   predicted (1) or surprising;  controllability ∈ [0,1]   can I cope with it
//   agency         ∈ [−1,1]  caused by me (+1), by another (−1), by circumstance (0)
//   norm_compatibility ∈ [−1,1] fits (+) or violates (−) norms and standards
// Members the caller gives are honoured (clamped into range); missing ones are derived from the
// reading of the text (language.ts: whom it is about, threats, blame, losses, valence), the sender
// (trust), the persona's goals, needs and prediction model, and then coloured by the soul stage's
// appraisal_bias.
import { read, type Reading } from './language.ts';
import type { Appraisal, PersonaSnapshot, VAD } from '../../../contract/resources.ts';
import type { SoulStage } from './types.ts';
import type { Percept } from './model.ts';
import type { Traits } from './personality.ts';
import { centred } from './personality.ts';
import { goalRelevance, goalShare } from './goals.ts';
import { clamp, clamp01, fin, round, tokens, vad } from './util.ts';

export const KEYS = ['goal_relevance', 'goal_congruence', 'expectedness', 'controllability', 'agency', 'norm_compatibility'] as const;
export type Key = (typeof KEYS)[number];
export const RANGE: Record<Key, [number, number]> = {
  goal_relevance: [0, 1], goal_congruence: [-1, 1], expectedness: [0, 1],
  controllability: [0, 1], agency: [-1, 1], norm_compatibility: [-1, 1],
};
const bound = (k: Key, x: number) => clamp(x, RANGE[k][0], RANGE[k][1]);

/** What a new persona expects of a percept (its first prediction model). */
export const PRIOR: Appraisal = {
  goal_relevance: 0.4, goal_congruence: 0, expectedness: 0.6, controllability: 0.55, agency: -0.3, norm_compatibility: 0.3,
};

export const DERIVE = {
  RELEVANCE_BASE: { chat: 0.45, event: 0.35, action: 0.5 },
  RELEVANCE_SENTIMENT: 0.35,
  RELEVANCE_GOAL: 0.4,
  /** Trust colours ambiguous messages: c = s + TRUST_COLOUR·(2·trust − 1)·(1 − |s|). */
  TRUST_COLOUR: 0.35,
  TRUST_DEFAULT: 0.5,
  CONTROL_BASE: { chat: 0.6, event: 0.4, action: 0.35 },
  CONTROL_AUTONOMY: 0.3,
  CONTROL_ELSEWHERE: 0.2,
  CONTROL_HOSTILITY: 0.15,
  AGENCY_OTHER: { chat: -0.8, event: -0.5, action: -0.7 },
  /** Norm compatibility without a matching norm: NORM_DEFAULT + NORM_HOSTILITY·min(0, s). */
  NORM_DEFAULT: 0.3,
  NORM_HOSTILITY: 0.9,
  /** Expectedness = 1 − EXPECT_GAIN · prediction error. */
  EXPECT_GAIN: 2,
  /** Learning rate of the prediction model (exponential average of appraisals). */
  PREDICTION_RATE: 0.2,
  /** How the parts of a reading weigh in the felt valence (see docs/engine.md, "Reading an utterance"). */
  FELT_SPEAKER: 0.9, FELT_WORLD: 0.6, FELT_THREAT: 0.9, FELT_BLAME: 0.35,
  /** The speaker's treatment of the persona (trust and intimacy follow it). */
  STANCE_THREAT: 0.9, STANCE_BLAME: 0.5, STANCE_DISCLOSURE: 0.3, STANCE_NEWS: 0.3, STANCE_COURTESY: 0.2,
  RELEVANCE_THREAT: 0.25, RELEVANCE_DEATH: 0.15,
  CONTROL_THREAT: 0.45, CONTROL_LOSS: 0.5, CONTROL_BLAME: 0.3,
  AGENCY_SELF_BLAME: 0.6,
  AGENCY_LISTENER: 2,
  NORM_THREAT: 0.6, NORM_BLAME: 0.3,
  SURPRISE: 0.5,
} as const;

/** Weights of appraisal → VAD (see docs/engine.md, "Appraisal → emotion"). */
export const MAP = {
  GAIN: 0.8,
  V_CONGRUENCE: 0.6, V_NORM_VIOLATION: 0.3, V_NORM_FIT: 0.05,
  A_SURPRISE: 0.5, A_HARM: 0.35, A_GAIN: 0.1, A_NORM_VIOLATION: 0.2,
  D_CONTROL: 0.5, D_ATTRIBUTION: 0.25,
  /** Personality: N amplifies negative valence and arousal, E positive valence, A damps other-blame
   *  (anger), H amplifies norm violations, O damps surprise arousal, C raises goal relevance. */
  N_NEG: 0.8, N_AROUSAL: 0.5, E_POS: 0.6, A_BLAME: 0.5, H_NORM: 0.5, O_SURPRISE: 0.4, C_RELEVANCE: 0.2,
  /** Raw affect (the "irrational" share of the blend table): the gut response to the lexicon. */
  RAW_V: 0.5, RAW_A: 0.25,
  /** Prospect and loss (OCC): a threat raises arousal (fear), a loss lowers it (sadness). */
  A_THREAT: 0.3, A_LOSS: 0.3, A_SURPRISE_CUE: 0.5,
  /** Loss and self-blame lower dominance (sadness, shame): helplessness and the self as the cause. */
  D_LOSS: 0.3, D_BLAME: 1.25,
} as const;

/** What a reading adds to the appraisal's own dimensions (see impulseOf). */
export interface Prospect { threat: number; loss: number; blame: number; surprise: number }
const NO_PROSPECT: Prospect = { threat: 0, loss: 0, blame: 0, surprise: 0 };

/** The norm map's verdict on a percept: mean value of the norms named by its type or text. */
export function normVerdict(normMap: Record<string, number> | undefined, type: string, text: string): number | undefined {
  if (!normMap) return undefined;
  const norms = Object.entries(normMap);
  // No norm, no verdict (reading the words of two strings cannot fail, so it may be skipped).
  if (!norms.length && typeof text === 'string' && typeof type === 'string') return undefined;
  const words = new Set([...tokens(text), ...tokens(type.replace(/[_-]/g, ' ')), type.toLowerCase()]);
  const hits: number[] = [];
  for (const [key, value] of norms) {
    const kt = tokens(key.replace(/[_-]/g, ' '));
    if (typeof value === 'number' && Number.isFinite(value) && (words.has(key.toLowerCase()) || (kt.length > 0 && kt.every((w) => words.has(w))))) {
      hits.push(clamp(value, -1, 1));
    }
  }
  return hits.length ? hits.reduce((a, b) => a + b, 0) / hits.length : undefined;
}

// The loops over KEYS below are written out member by member (in KEYS order, with RANGE's bounds):
// a member read by name is much cheaper than one read by a key from a list.
const [REL, CONG, EXP, CTRL, AG, NORM] = KEYS.map((k) => RANGE[k]);

/** One member's normalised distance between appraisal and prediction. */
const gap = (a: number, p: unknown, prior: number, lo: number, hi: number): number =>
  Math.abs(clamp(a, lo, hi) - clamp(fin(p, prior), lo, hi)) / (hi - lo);

/** Mean normalised distance between an appraisal and the prediction (expectedness left out), in [0, 1]. */
export function predictionError(a: Appraisal, p: Appraisal): number {
  let sum = 0;
  sum += gap(a.goal_relevance, p.goal_relevance, PRIOR.goal_relevance, REL[0], REL[1]);
  sum += gap(a.goal_congruence, p.goal_congruence, PRIOR.goal_congruence, CONG[0], CONG[1]);
  sum += gap(a.controllability, p.controllability, PRIOR.controllability, CTRL[0], CTRL[1]);
  sum += gap(a.agency, p.agency, PRIOR.agency, AG[0], AG[1]);
  sum += gap(a.norm_compatibility, p.norm_compatibility, PRIOR.norm_compatibility, NORM[0], NORM[1]);
  return clamp01(sum / 5);
}

export interface AppraisalContext { traits: Traits; trust?: number; autonomy: number; stage: SoulStage }

export interface Appraised {
  appraisal: Appraisal;
  /** Felt valence of the text (the raw cue), [−1, 1]. */
  sentiment: number;
  error: number;
  relevanceGiven: boolean;
  reading: Reading;
  /** How the speaker treats the persona, [−1, 1]: what trust and intimacy follow. */
  stance: number;
}

/** A member given by the caller (clamped), else the derived one coloured by the stage's bias. */
const member = (given: unknown, derived: number, bias: unknown, lo: number, hi: number): number =>
  typeof given === 'number' && Number.isFinite(given) ? clamp(given, lo, hi) : clamp(derived + fin(bias, 0), lo, hi);

/** The felt valence of a reading for the persona: its own concerns, the speaker's (by empathy), the world's. */
export function feltOf(r: Reading, t: Traits): number {
  const empathy = 0.5 + 0.5 * clamp01(t.A);
  const speaker = r.speaker < 0 ? DERIVE.FELT_SPEAKER * empathy * r.speaker : DERIVE.FELT_SPEAKER * r.speaker;
  return clamp(r.listener + r.news + speaker + DERIVE.FELT_WORLD * r.world - DERIVE.FELT_THREAT * r.threat - DERIVE.FELT_BLAME * r.blame, -1, 1);
}

export function stanceOf(r: Reading): number {
  return clamp(r.listener - DERIVE.STANCE_THREAT * r.threat - DERIVE.STANCE_BLAME * r.blame
    + DERIVE.STANCE_DISCLOSURE * Math.abs(r.speaker) + DERIVE.STANCE_NEWS * Math.max(0, r.news)
    + (r.greeting || r.thanks || r.apology ? DERIVE.STANCE_COURTESY : 0), -1, 1);
}

/**
 * Who is affected decides the family: what a message says of a third party or the world is news
 * for the persona when it names the persona's people or goals ("Lucia failed her exam", Lucia being
 * named in a goal), in the share the goal's concepts match (a name, capitalised, matches fully); bad news of its own is a loss (sadness), not
 * an offence by the teller. The reading is shared (memoised), so a changed copy is returned.
 */
export function concerning(r: Reading, goals: PersonaSnapshot['goals'], text: string): Reading {
  if (r.world === 0) return r;
  const m = goalShare(goals, r.concepts, text);
  if (m === 0) return r;
  const moved = r.world * m;
  return { ...r, world: r.world - moved, news: Math.max(-1, Math.min(1, r.news + moved)), loss: moved < 0 && r.threat === 0 ? Math.max(r.loss, 0.6 * m) : r.loss };
}

export function appraise(snap: PersonaSnapshot, percept: Percept, ctx: AppraisalContext): Appraised {
  const given = (percept.appraisal ?? {}) as Partial<Appraisal>;
  const text = percept.text ?? '';
  const reading = concerning(read(text || percept.type.replace(/[_-]/g, ' ')), snap.goals, text);
  const s = feltOf(reading, ctx.traits);
  const trust = clamp01(fin(ctx.trust, DERIVE.TRUST_DEFAULT));
  const kind = percept.kind;
  const other = percept.source !== undefined || percept.sourceId !== undefined;
  const norm = normVerdict(percept.normMap, percept.type, text);
  // Who caused what the text is about: the speaker (praise, insult, threat), the persona itself
  // (blame of its conduct), or circumstance (news, the speaker's own fortunes, the world).
  // What is said to the persona about itself weighs more than the circumstances around it.
  // Blame makes the listener part the persona's own doing.
  const byOther = other ? DERIVE.AGENCY_LISTENER * Math.abs(reading.listener) * (1 - reading.blame) + reading.threat : 0;
  const bySelf = reading.blame;
  const byNone = Math.abs(reading.news) + Math.abs(reading.speaker) + Math.abs(reading.world) + reading.loss + (other ? 0 : Math.abs(reading.listener));
  const otherAgency = DERIVE.AGENCY_OTHER[kind] ?? DERIVE.AGENCY_OTHER.event;
  // What happens elsewhere (to the persona's people, the speaker, the world) is out of the persona's
  // hands more than what is said to its face: a misfortune there is sad, not an affront.
  const parts = Math.abs(reading.listener) + Math.abs(reading.news) + Math.abs(reading.speaker) + Math.abs(reading.world);
  const elsewhere = parts > 0 ? 1 - Math.abs(reading.listener) / parts : 0;
  const causes = byOther + bySelf + byNone;
  const agency = causes > 0 ? (otherAgency * byOther + DERIVE.AGENCY_SELF_BLAME * bySelf) / causes : other ? otherAgency : 0;
  const derived: Appraisal = {
    goal_relevance: (DERIVE.RELEVANCE_BASE[kind] ?? DERIVE.RELEVANCE_BASE.event) + DERIVE.RELEVANCE_SENTIMENT * Math.abs(s)
      + DERIVE.RELEVANCE_GOAL * goalRelevance(snap.goals, reading.concepts) + DERIVE.RELEVANCE_THREAT * reading.threat
      + DERIVE.RELEVANCE_DEATH * Math.min(1, reading.deathCues),
    goal_congruence: s + DERIVE.TRUST_COLOUR * (2 * trust - 1) * (1 - Math.abs(s)),
    expectedness: 0, // filled below, from the prediction error of the other members
    controllability: (DERIVE.CONTROL_BASE[kind] ?? DERIVE.CONTROL_BASE.event) - DERIVE.CONTROL_ELSEWHERE * elsewhere + DERIVE.CONTROL_AUTONOMY * (ctx.autonomy - 0.5)
      - DERIVE.CONTROL_HOSTILITY * Math.max(0, -s) - DERIVE.CONTROL_THREAT * reading.threat - DERIVE.CONTROL_LOSS * reading.loss
      - DERIVE.CONTROL_BLAME * reading.blame,
    agency,
    norm_compatibility: norm ?? DERIVE.NORM_DEFAULT + DERIVE.NORM_HOSTILITY * Math.min(0, reading.listener)
      - DERIVE.NORM_THREAT * reading.threat - DERIVE.NORM_BLAME * reading.blame,
  };
  const bias = ctx.stage.appraisal_bias;
  const out: Appraisal = {
    goal_relevance: member(given.goal_relevance, derived.goal_relevance, bias?.goal_relevance, REL[0], REL[1]),
    goal_congruence: member(given.goal_congruence, derived.goal_congruence, bias?.goal_congruence, CONG[0], CONG[1]),
    expectedness: member(given.expectedness, derived.expectedness, bias?.expectedness, EXP[0], EXP[1]),
    controllability: member(given.controllability, derived.controllability, bias?.controllability, CTRL[0], CTRL[1]),
    agency: member(given.agency, derived.agency, bias?.agency, AG[0], AG[1]),
    norm_compatibility: member(given.norm_compatibility, derived.norm_compatibility, bias?.norm_compatibility, NORM[0], NORM[1]),
  };
  const error = predictionError(out, snap.state.prediction_model);
  if (!(typeof given.expectedness === 'number' && Number.isFinite(given.expectedness))) {
    out.expectedness = bound('expectedness', 1 - DERIVE.EXPECT_GAIN * error - DERIVE.SURPRISE * reading.surprise + fin(ctx.stage.appraisal_bias?.expectedness, 0));
  }
  out.goal_relevance = round(out.goal_relevance);
  out.goal_congruence = round(out.goal_congruence);
  out.expectedness = round(out.expectedness);
  out.controllability = round(out.controllability);
  out.agency = round(out.agency);
  out.norm_compatibility = round(out.norm_compatibility);
  const relevanceGiven = typeof given.goal_relevance === 'number' && Number.isFinite(given.goal_relevance);
  return { appraisal: out, sentiment: s, error, relevanceGiven, reading, stance: stanceOf(reading) };
}

const learnt = (m: unknown, a: number, prior: number, lo: number, hi: number): number =>
  round(clamp(fin(m, prior) + DERIVE.PREDICTION_RATE * (a - fin(m, prior)), lo, hi));

/** Moves the prediction model toward what was just appraised. */
export function learn(model: Appraisal, a: Appraisal): void {
  model.goal_relevance = learnt(model.goal_relevance, a.goal_relevance, PRIOR.goal_relevance, REL[0], REL[1]);
  model.goal_congruence = learnt(model.goal_congruence, a.goal_congruence, PRIOR.goal_congruence, CONG[0], CONG[1]);
  model.expectedness = learnt(model.expectedness, a.expectedness, PRIOR.expectedness, EXP[0], EXP[1]);
  model.controllability = learnt(model.controllability, a.controllability, PRIOR.controllability, CTRL[0], CTRL[1]);
  model.agency = learnt(model.agency, a.agency, PRIOR.agency, AG[0], AG[1]);
  model.norm_compatibility = learnt(model.norm_compatibility, a.norm_compatibility, PRIOR.norm_compatibility, NORM[0], NORM[1]);
}

/** Appraisal → VAD impulse, modulated by personality, stress reactivity and the rational/irrational blend. */
export function impulseOf(a: Appraisal, sentiment: number, hasText: boolean, t: Traits, stage: SoulStage, prospect: Prospect = NO_PROSPECT): VAD {
  const r = clamp01(a.goal_relevance * (1 + MAP.C_RELEVANCE * centred(t.C)));
  const c = a.goal_congruence, x = a.expectedness, k = a.controllability, g = a.agency, n = a.norm_compatibility;
  const normW = 1 + MAP.H_NORM * centred(t.H);
  let V = r * (MAP.V_CONGRUENCE * c + normW * MAP.V_NORM_VIOLATION * Math.min(0, n) + MAP.V_NORM_FIT * Math.max(0, n));
  const harm = Math.max(0, -c), loss = clamp01(prospect.loss), threat = clamp01(prospect.threat);
  const selfBlame = clamp01(prospect.blame), surprise = clamp01(prospect.surprise);
  // Sadness and shame are low-arousal: loss and self-blame take the harm's arousal away.
  const calmHarm = clamp01(loss + 0.7 * selfBlame);
  let A = r * (MAP.A_SURPRISE * (0.5 - x) * (1 - MAP.O_SURPRISE * centred(t.O))
    + MAP.A_HARM * harm * (1 - calmHarm) - MAP.A_LOSS * loss * harm + MAP.A_THREAT * threat + MAP.A_SURPRISE_CUE * surprise
    + MAP.A_GAIN * Math.max(0, c) + normW * MAP.A_NORM_VIOLATION * Math.max(0, -n));
  // Other-blamed harm raises dominance (anger), self-blamed harm lowers it (shame); the same sign
  // rule gives pride (self, good) and gratitude (other, good). Agreeableness softens anger.
  const attribution = g * c;
  const blame = attribution > 0 && c < 0 ? 1 - MAP.A_BLAME * centred(t.A) : 1;
  // A threat is about what may come (fear), not who is to blame for what happened (anger).
  // Neuroticism amplifies negative valence, extraversion positive valence; the gut response (raw,
  // below) is the temperament's too, and so are the helplessness of a loss and the shame of one's
  // own fault (they grow with the valence, so sadness and shame keep their shape).
  const negative = (1 + MAP.N_NEG * centred(t.N)) * fin(stage.stress_modifier, 1), positive = 1 + MAP.E_POS * centred(t.E);
  let D = r * (MAP.D_CONTROL * (k - 0.5) + MAP.D_ATTRIBUTION * attribution * blame * (1 - threat)
    - (MAP.D_LOSS * loss * harm + MAP.D_BLAME * selfBlame * harm) * negative);
  V *= V < 0 ? negative : positive;
  A *= (1 + MAP.N_AROUSAL * centred(t.N)) * (A > 0 ? fin(stage.stress_modifier, 1) : 1);
  const cue = hasText ? sentiment : c;
  // The gut response to being blamed is to shrink (shame), not only to feel bad.
  const raw = vad(MAP.RAW_V * cue * (cue < 0 ? negative : positive), MAP.RAW_A * Math.abs(cue) * (1 - 2 * calmHarm), -MAP.RAW_V * Math.abs(cue) * selfBlame * negative);
  const rational = clamp01(fin(stage.blend_table?.rational, 0.8));
  const irrational = clamp01(fin(stage.blend_table?.irrational, 1 - rational));
  const sum = rational + irrational || 1;
  return vad(
    MAP.GAIN * (rational * V + irrational * raw.V) / sum,
    MAP.GAIN * (rational * A + irrational * raw.A) / sum,
    MAP.GAIN * (rational * D + irrational * raw.D) / sum,
  );
}
