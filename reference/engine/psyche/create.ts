// The initial snapshot of a persona: every field of SPEC.md's persona snapshot, at rest. Emotion and
// mood start at the personality's default mood (Mehrabian 1996); everything else at its documented
// resting value (docs/engine.md lists them).
import type { PersonaConfig, PersonaSnapshot } from '../../../contract/resources.ts';
import { baseline, traits } from './personality.ts';
import { freshInternals, type Snapshot } from './internals.ts';
import { stageState } from './stages.ts';
import { initialCusp } from './catastrophe.ts';
import { PRIOR } from './appraisal.ts';
import { initialNeeds } from './needs.ts';
import { initialWeights } from './regulation.ts';
import { initialInterpersonal } from './affect.ts';
import { initialSomatic } from './somatic.ts';
import { initialEsteem } from './selfesteem.ts';
import { BODY } from './body.ts';
import { fin } from './util.ts';

export function selfConceptOf(config: PersonaConfig): string {
  const id = config.identity;
  const values = id.coreValues?.length ? ` I value ${id.coreValues.join(', ')}.` : '';
  const culture = id.culturalIdentity && id.culturalIdentity !== 'unspecified' ? ` My roots: ${id.culturalIdentity}.` : '';
  return `I am ${id.name}, ${id.role}.${culture}${values}`;
}

export function create(config: PersonaConfig, seed: string, now: number): PersonaSnapshot {
  const t = traits(config);
  const home = baseline(t);
  const time = fin(now, 0);
  const snap: Snapshot = {
    state: {
      emotion: { ...home },
      velocity: { V: 0, A: 0, D: 0 },
      emotion_history: [{ ...home, timestamp: time }],
      body_budget: BODY.REST,
      soul_stage: stageState(0),
      prediction_model: { ...PRIOR },
      prev_emotion_delta: { V: 0, A: 0, D: 0 },
      need_state: initialNeeds(),
      lastUpdated: time,
      catastrophe: initialCusp(t.N, home.A),
      metacog: { turns_since_check: 0, regulation_history: [], self_awareness: 'I have not yet looked inward.' },
      affect_dynamics: { variability: 0, instability: 0, inertia_observed: 0 },
      interpersonal: initialInterpersonal(t),
      regulation: { strategy_weights: initialWeights(t), effectiveness_history: [] },
      prevMaskIntegrity: 1,
    },
    relationships: {},
    goals: (config.goals ?? []).map((g) => ({ ...g })),
    selfConcept: selfConceptOf(config),
    mood: { ...home },
    moodHistory: [],
    somatic: initialSomatic(t),
    narrative: {
      tone: 0, coherence: { temporal: 0.5, causal: 0.5, thematic: 0.5 }, agency: 0, communion: 0, arcs: [],
    },
    tmt: {
      mortalitySalience: 0, deathAnxiety: 0, proximity: 'none', proximalDefense: false, distalDefense: false,
      defenseTarget: t.A >= 0.5 ? 'in_group' : 'out_group', defenseStrength: 0, lastReminderTime: 0,
    },
    selfEsteem: initialEsteem(t),
    motivationContexts: {},
    maskIntegrity: 1,
    maskState: 'intact',
    lastReflectionVAD: { ...home },
    psyche: { ...freshInternals(String(seed)), home: { ...home } },
  };
  return snap;
}

const isObj = (x: unknown): x is Record<string, unknown> => !!x && typeof x === 'object' && !Array.isArray(x);

/** Fills, in place, every member of `target` that is missing or of the wrong kind with `model`'s. */
function fill(target: Record<string, unknown>, model: Record<string, unknown>): void {
  for (const [k, m] of Object.entries(model)) {
    const v = target[k];
    if (isObj(m)) {
      if (isObj(v)) fill(v, m);
      else target[k] = structuredClone(m);
    } else if (Array.isArray(m)) {
      if (!Array.isArray(v)) target[k] = structuredClone(m);
    } else if (typeof m === 'number') {
      if (typeof v !== 'number' || !Number.isFinite(v)) target[k] = m;
    } else if (typeof v !== typeof m) target[k] = m;
  }
}

type Check = (s: unknown) => boolean;
let wholeCheck: Check | undefined;

/**
 * The check "fill would change nothing", compiled once from the members of a fresh snapshot (their
 * kinds do not depend on the configuration, seed or time): one plain test per member, so a snapshot
 * that is already whole costs a fraction of a microsecond instead of a fresh snapshot and a walk.
 */
function compileWholeCheck(): Check {
  const model = create({ identity: { name: '', role: '' } } as PersonaConfig, 'model', 0) as unknown as Record<string, unknown>;
  const lines: string[] = [];
  let n = 0;
  const walk = (m: Record<string, unknown>, obj: string) => {
    for (const [k, v] of Object.entries(m)) {
      const member = `${obj}[${JSON.stringify(k)}]`;
      if (isObj(v)) {
        const o = `o${++n}`;
        lines.push(`const ${o} = ${member}; if (!isObj(${o})) return false;`);
        walk(v, o);
      } else if (Array.isArray(v)) lines.push(`if (!Array.isArray(${member})) return false;`);
      else if (typeof v === 'number') lines.push(`if (!Number.isFinite(${member})) return false;`);
      else lines.push(`if (typeof ${member} !== ${JSON.stringify(typeof v)}) return false;`);
    }
  };
  walk(model, 's');
  // Generated from the engine's own member names (quoted with JSON.stringify), never from input.
  return new Function('isObj', `return function whole(s) {\nif (!isObj(s)) return false;\n${lines.join('\n')}\nreturn true;\n};`)(isObj) as Check;
}

/** True when every member of a fresh snapshot is present in `s` with the right kind (repair would change nothing). */
export function isWhole(s: unknown): boolean {
  return (wholeCheck ??= compileWholeCheck())(s);
}

/**
 * Makes an imported or older snapshot whole: a PUT snapshot may carry only part of the state (the
 * standalone snapshot's members are open objects). Missing members take their resting values.
 * A snapshot that is already whole (every one the engine created or repaired) is returned at once.
 */
export function repair(s: PersonaSnapshot, config: PersonaConfig): PersonaSnapshot {
  if (isWhole(s)) return s;
  const time = fin((s as Partial<PersonaSnapshot>).state?.lastUpdated, 0);
  const model = create(config, (s as Snapshot).psyche?.seed ?? 'import', time) as unknown as Record<string, unknown>;
  fill(s as unknown as Record<string, unknown>, model);
  return s;
}
