// Shared fast-check arbitraries and runners of the property tests: persona configurations, percepts
// (chat texts from a word pool, events with partial appraisals, stimuli), sequences of persona
// operations (perceive, elapse, override, witness) and of world operations, plus walkers that check
// every number of a response or snapshot.
import fc from 'fast-check';
import { psyche } from '../../../reference/engine/psyche/index.ts';
import type { Percept } from '../../../reference/engine/psyche/model.ts';
import type { Appraisal, PersonaConfig, PersonaSnapshot, Stimulus, VAD } from '../../../contract/resources.ts';
import type { DeepPartial } from '../../../contract/input.ts';

export const T0 = Date.UTC(2025, 0, 1);

/**
 * Longest a property may run, shrinking included: a failing property can otherwise shrink for a
 * minute. Passing properties take 1–2 s here; under heavy load a run cut short passes with fewer runs.
 */
export const TIME_LIMIT_MS = 8000;

/** fast-check options: a fixed seed per property so that every run checks the same cases. */
export const opts = (seed: number, numRuns: number): fc.Parameters<unknown> => ({
  seed, numRuns, includeErrorInReport: true, plugins: [fc.interruptAfterTimeLimit(TIME_LIMIT_MS)],
});

/** Runs a property and, on failure, rethrows with the seed in front (fast-check adds seed and path too). */
export function check<Ts extends [unknown, ...unknown[]]>(
  name: string, seed: number, numRuns: number, arbs: { [K in keyof Ts]: fc.Arbitrary<Ts[K]> }, body: (...args: Ts) => void,
): void {
  try {
    fc.assert(fc.property(...arbs, body), opts(seed, numRuns) as fc.Parameters<Ts>);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new Error(`[${name}] property failed (fast-check seed ${seed}, numRuns ${numRuns}); replay with { seed: ${seed}, path: <see below> }\n${message}`);
  }
}

// ---- words ----
export const POSITIVE = ['love', 'great', 'thanks', 'wonderful', 'happy', 'friend', 'win', 'admire', 'grateful', 'brilliant', 'kind'];
export const NEGATIVE = ['hate', 'awful', 'idiot', 'stupid', 'worthless', 'sad', 'lose', 'angry', 'terrible', 'betray', 'liar'];
export const MORTAL = ['death', 'kill', 'dying', 'funeral', 'grave'];
export const NEUTRAL = ['the', 'key', 'meeting', 'noon', 'harbour', 'maybe', 'door', 'garden', 'letter', 'not', 'very'];
export const GOAL_WORDS = ['garden', 'harbour', 'letter', 'friend', 'boat', 'music'];
const ALL_WORDS = [...POSITIVE, ...NEGATIVE, ...MORTAL, ...NEUTRAL, ...GOAL_WORDS];

export const textFrom = (pool: string[], max = 8) =>
  fc.array(fc.constantFrom(...pool), { minLength: 1, maxLength: max }).map((w) => w.join(' '));
export const anyText = textFrom(ALL_WORDS);

// ---- configurations ----
/**
 * A number in [min, max]: mostly uniform on a 1/1000 grid (fc.double alone favours tiny magnitudes,
 * which leaves most percepts near zero), sometimes fc.double with its edge cases.
 */
export const num = (min: number, max: number) => fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: Math.ceil(min * 1000), max: Math.floor(max * 1000) }).map((x) => x / 1000) },
  { weight: 1, arbitrary: fc.double({ min, max, noNaN: true }) },
);
const unit = num(0, 1);
const signed = num(-1, 1);

export const personality = fc.record({ O: unit, C: unit, E: unit, A: unit, N: unit, H: unit });

const goal = fc.record({
  content: textFrom(GOAL_WORDS, 3),
  priority: unit,
  mutable: fc.boolean(),
  status: fc.constantFrom('active', 'active', 'dormant'),
}, { requiredKeys: ['content'] });

export const configInput: fc.Arbitrary<DeepPartial<PersonaConfig>> = fc.record({
  personality,
  identity: fc.record({
    role: fc.constantFrom('baker', 'guard', 'sailor'),
    speakingStyle: fc.constantFrom('plain', 'formal', 'casual', 'terse', 'poetic', 'warm', 'Terse and formal', 'gentle, poetic', 'curt casual'),
    culturalIdentity: fc.constantFrom('unspecified', 'harbour town'),
    coreValues: fc.array(fc.constantFrom('honesty', 'family', 'craft'), { maxLength: 2 }),
  }, { requiredKeys: [] }),
  goals: fc.array(goal, { maxLength: 3 }).map((gs) => gs.map((g, i) => ({ id: `g${i + 1}`, ...g }))),
  reflection: fc.record({
    vadDeltaThreshold: num(0.1, 1.5),
    predictionErrorThreshold: num(0.1, 1),
    turnFallback: fc.integer({ min: 0, max: 12 }),
  }, { requiredKeys: [] }),
}, { requiredKeys: ['personality'] });

export const config: fc.Arbitrary<PersonaConfig> = configInput.map((c) => psyche.normalizeConfig(c, 'ada'));

// ---- percepts ----
export const vadArb: fc.Arbitrary<VAD> = fc.record({ V: signed, A: signed, D: signed });
const partialVad = (range = 1, complete = false) => fc.record({ V: num(-range, range), A: num(-range, range), D: num(-range, range) }, complete ? {} : { requiredKeys: [] });

/** A partial appraisal; members in [-1, 1] (the engine clamps into each member's range). */
export const appraisalArb: fc.Arbitrary<Partial<Appraisal>> = fc.record({
  goal_relevance: signed, goal_congruence: signed, expectedness: signed,
  controllability: signed, agency: signed, norm_compatibility: signed,
}, { requiredKeys: [] });

/**
 * Every member of Stimulus, each optional. `vadRange` 1.5 goes beyond the bounds to exercise clamping
 * (the HTTP layer refuses VAD members outside [-1, 1], so world events, which are echoed in results,
 * use 1). `complete`: each vector given whole, as the HTTP layer and a snapshot import require of a
 * world event (a partial one would be echoed partial); the engine itself takes partial vectors.
 */
export const stimulusOf = (vadRange: number, complete = false): fc.Arbitrary<DeepPartial<Stimulus>> => fc.record({
  vadDelta: partialVad(vadRange, complete),
  vadOverride: partialVad(vadRange, complete),
  needsDelta: fc.record({ autonomy: signed, competence: signed, relatedness: signed }, complete ? {} : { requiredKeys: [] }),
  bodyBudgetDelta: num(-2, 2),
  soulStageForce: fc.oneof(fc.integer({ min: -2, max: 6 }), num(-1, 5)),
  catastropheAlphaDelta: num(-2, 2),
  dampingOverride: num(-0.5, 1.5),
}, { requiredKeys: [] });
export const stimulusArb = stimulusOf(1.5);

export const NORM_MAP = { theft: -0.8, gift: 0.7, 'rude words': -0.6, help: 0.5 };

/** A percept without its timestamp (the runner stamps it). */
export type PerceptDraft = Omit<Percept, 'timestamp'> & { dtMs: number };

export const perceptArb: fc.Arbitrary<PerceptDraft> = fc.record({
  kind: fc.constantFrom('chat', 'event', 'action'),
  type: fc.constantFrom('chat', 'storm', 'gift', 'theft', 'help', 'funeral_bell'),
  source: fc.constantFrom('bob', 'eve', 'sam'),
  text: anyText,
  appraisal: appraisalArb,
  stimulus: stimulusArb,
  worldTrust: signed,
  normMap: fc.constant(NORM_MAP),
  dtMs: fc.integer({ min: 0, max: 5000 }),
}, { requiredKeys: ['kind', 'type', 'dtMs'] }).map((p) => (p.source !== undefined ? { ...p, sourceId: `id-${p.source}` } : p)) as fc.Arbitrary<PerceptDraft>;

/** Seconds of an elapse: mostly short, sometimes hours, sometimes up to three days. */
export const secondsArb = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 600 }) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 4 * 3600 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 3 * 86400 }) },
  { weight: 1, arbitrary: num(0, 120) },
);

export type Op =
  | { op: 'perceive'; p: PerceptDraft }
  | { op: 'elapse'; seconds: number }
  | { op: 'override'; vad: Partial<VAD> }
  | { op: 'witness'; other: VAD; share: number };

export const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: perceptArb.map((p) => ({ op: 'perceive' as const, p })) },
  { weight: 2, arbitrary: secondsArb.map((seconds) => ({ op: 'elapse' as const, seconds })) },
  { weight: 1, arbitrary: partialVad(1.5).map((vad) => ({ op: 'override' as const, vad })) },
  { weight: 1, arbitrary: fc.record({ other: vadArb, share: fc.oneof(unit, num(-0.5, 2)) }).map((w) => ({ op: 'witness' as const, ...w })) },
);

export const opsArb = (max = 20) => fc.array(opArb, { minLength: 1, maxLength: max, size: 'max' });

// ---- a persona under a sequence of operations ----
export interface Persona { config: PersonaConfig; snap: PersonaSnapshot; now: number }

export function newPersona(config: PersonaConfig, seed = 'prop-seed'): Persona {
  return { config, snap: psyche.create(config, seed, T0), now: T0 };
}

/** Applies one operation; returns the response of a perceive or witness (undefined otherwise). */
export function apply(p: Persona, o: Op): unknown {
  switch (o.op) {
    case 'perceive': {
      p.now += o.p.dtMs;
      const { dtMs: _dt, ...rest } = o.p;
      return psyche.perceive(p.snap, p.config, { ...rest, timestamp: p.now } as Percept);
    }
    case 'elapse':
      p.now += Math.round(o.seconds * 1000);
      psyche.elapse(p.snap, p.config, o.seconds, p.now);
      return undefined;
    case 'override':
      psyche.override(p.snap, o.vad, p.now);
      return undefined;
    case 'witness':
      return psyche.witness(p.snap, p.config, o.other, o.share, p.now);
  }
}

export const jsonClone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

// ---- walkers ----
const isVad = (o: Record<string, unknown>) =>
  typeof o.V === 'number' && typeof o.A === 'number' && typeof o.D === 'number';

/**
 * Every problem of a value: a number that is NaN or infinite anywhere; a VAD-shaped object (members
 * V, A, D) with a member outside [-1, 1]; an `intensity` or `importance` outside [0, 1].
 */
export function violations(value: unknown, path = '$', out: string[] = []): string[] {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) out.push(`${path} = ${value}`);
    return out;
  }
  if (Array.isArray(value)) {
    value.forEach((v, i) => violations(v, `${path}[${i}]`, out));
    return out;
  }
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (isVad(o)) {
      for (const k of ['V', 'A', 'D'] as const) {
        const x = o[k] as number;
        if (!(x >= -1 && x <= 1)) out.push(`${path}.${k} = ${x} (VAD member outside [-1, 1])`);
      }
    }
    for (const k of ['intensity', 'importance'] as const) {
      if (typeof o[k] === 'number' && !((o[k] as number) >= 0 && (o[k] as number) <= 1)) out.push(`${path}.${k} = ${o[k]} (outside [0, 1])`);
    }
    for (const [k, v] of Object.entries(o)) violations(v, `${path}.${k}`, out);
  }
  return out;
}

/** Number of VAD objects and intensities found (to make sure the walk saw something). */
export function countVads(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + countVads(v), 0);
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return (isVad(o) ? 1 : 0) + Object.values(o).reduce((n: number, v) => n + countVads(v), 0);
  }
  return 0;
}
