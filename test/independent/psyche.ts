// The independent implementation's emotional state and its own, deliberately simple, emotion rules
// (SPEC leaves the rules unshown: any numbers within bounds are legal). Every VAD value stays in [-1, 1].
import { randomUUID } from 'node:crypto';

export interface Vad { V: number; A: number; D: number }
export interface Appraisal { goal_relevance: number; goal_congruence: number; expectedness: number; controllability: number; agency: number; norm_compatibility: number }

const clamp = (x: number, lo = -1, hi = 1) => Math.min(hi, Math.max(lo, Number.isFinite(x) ? x : 0));
const round = (x: number) => Math.round(x * 1e4) / 1e4;
const vad = (V: number, A: number, D: number): Vad => ({ V: round(clamp(V)), A: round(clamp(A)), D: round(clamp(D)) });
const zeroVad = (): Vad => ({ V: 0, A: 0, D: 0 });
const neutralAppraisal = (): Appraisal => ({ goal_relevance: 0.5, goal_congruence: 0, expectedness: 0.5, controllability: 0.5, agency: 0, norm_compatibility: 0.5 });
const nowS = () => Math.floor(Date.now() / 1000);

/** A persona's inner state: the same for a standalone persona and a persona entity of a world. */
export interface Psyche {
  emotion: Vad;
  velocity: Vad;
  mood: Vad;
  history: Array<Vad & { timestamp: number }>;
  moodHistory: Array<{ emotion: Vad; intensity: number }>;
  bodyBudget: number;
  needs: { autonomy: number; competence: number; relatedness: number };
  relationships: Record<string, { entityId: string; trust: number; intimacy: number; interactionCount: number; attachmentStyle: string; lastInteraction: number }>;
  goals: Array<{ id: string; content: string; priority: number; mutable: boolean; status: string }>;
  selfConcept: string;
  maskIntegrity: number;
  annotations: string[];
  nextResponse?: string;
  pending: Array<Record<string, unknown>>;
  extra: Record<string, unknown>;
  /** When the state last changed, and when its regulation strategy began (seconds): a read changes neither. */
  lastUpdated: number;
  strategySince: number;
}

export function newPsyche(config: Record<string, any> = {}): Psyche {
  const p = config.personality ?? {};
  const num = (x: unknown, d: number) => (typeof x === 'number' && Number.isFinite(x) ? x : d);
  // A temperament-tinted starting mood, never exactly neutral, so that time visibly decays it.
  const mood = vad(0.1 + 0.1 * (num(p.E, 0.5) - num(p.N, 0.5)), -0.05, 0.05 + 0.05 * num(p.C, 0.5));
  const goals = Array.isArray(config.goals) ? config.goals.filter((g: any) => g && typeof g === 'object').map((g: any, i: number) => ({
    id: typeof g.id === 'string' ? g.id : `goal-${i + 1}`, content: typeof g.content === 'string' ? g.content : '',
    priority: num(g.priority, 0.5), mutable: typeof g.mutable === 'boolean' ? g.mutable : true, status: typeof g.status === 'string' ? g.status : 'active',
  })) : [];
  return {
    emotion: { ...mood }, velocity: zeroVad(), mood, history: [], moodHistory: [], bodyBudget: 0.8,
    needs: { autonomy: 0.5, competence: 0.5, relatedness: 0.5 }, relationships: {}, goals,
    selfConcept: typeof config.identity?.name === 'string' ? `I am ${config.identity.name}.` : 'I am myself.',
    maskIntegrity: 1, annotations: [], pending: [], extra: {}, lastUpdated: nowS(), strategySince: nowS(),
  };
}

const POSITIVE = ['love', 'thank', 'great', 'happy', 'good', 'wonderful', 'glad', 'kind', 'friend', 'nice', 'welcome', 'hello', 'hi'];
const NEGATIVE = ['hate', 'angry', 'bad', 'stupid', 'sad', 'awful', 'terrible', 'kill', 'die', 'hurt', 'afraid', 'liar', 'ugly'];

/** Valence of a text by counting a few words: the implementation's own crude rule. */
export function textValence(text: string): number {
  const words = text.toLowerCase().split(/[^a-z]+/);
  let score = 0;
  for (const w of words) {
    if (POSITIVE.some((p) => w.startsWith(p))) score++;
    if (NEGATIVE.some((n) => w.startsWith(n))) score--;
  }
  return clamp(score / 3);
}

function discrete(e: Vad) {
  const intensity = round(clamp(Math.sqrt(e.V * e.V + e.A * e.A + e.D * e.D) / Math.sqrt(3), 0, 1));
  let primary = 'calm';
  if (e.V > 0.2) primary = e.A > 0.2 ? 'joy' : 'contentment';
  else if (e.V < -0.2) primary = e.D > 0 ? 'anger' : e.A > 0.2 ? 'fear' : 'sadness';
  else if (e.A > 0.4) primary = 'surprise';
  const secondary = e.D > 0.2 ? 'confidence' : e.D < -0.2 ? 'helplessness' : 'neutral';
  return { primary, secondary, intensity };
}

export interface Stimulus { valence?: number; arousal?: number; dominance?: number; appraisal?: Partial<Appraisal>; vadDelta?: Partial<Vad>; vadOverride?: Partial<Vad>; bodyBudgetDelta?: number; needsDelta?: Partial<Psyche['needs']> }

/**
 * One stimulus through the pipeline: appraisal and word valence push the emotion, an explicit
 * vadDelta adds, a vadOverride sets; the mood follows a fifth of the way. Returns an EntityResponse.
 */
export function perceive(ps: Psyche, s: Stimulus, source: string, context: string): Record<string, unknown> {
  const before = { ...ps.emotion };
  const ap = { ...neutralAppraisal(), ...pickNumbers(s.appraisal ?? {}) } as Appraisal;
  let V = ps.emotion.V + 0.4 * (s.valence ?? 0) + 0.3 * ap.goal_congruence;
  let A = ps.emotion.A + 0.3 * (s.arousal ?? 0) + 0.2 * (ap.goal_relevance - 0.5) + 0.2 * (0.5 - ap.expectedness);
  let D = ps.emotion.D + 0.3 * (s.dominance ?? 0) + 0.2 * (ap.controllability - 0.5);
  if (s.vadDelta) { V += s.vadDelta.V ?? 0; A += s.vadDelta.A ?? 0; D += s.vadDelta.D ?? 0; }
  if (s.vadOverride) { V = s.vadOverride.V ?? V; A = s.vadOverride.A ?? A; D = s.vadOverride.D ?? D; }
  setEmotion(ps, { V, A, D });
  ps.bodyBudget = round(clamp(ps.bodyBudget + (s.bodyBudgetDelta ?? 0) - 0.02 * Math.abs(ps.emotion.A), 0, 1));
  for (const k of ['autonomy', 'competence', 'relatedness'] as const) ps.needs[k] = round(clamp(ps.needs[k] + (s.needsDelta?.[k] ?? 0), 0, 1));
  const d = discrete(ps.emotion);
  const text = ps.nextResponse ?? reply(d.primary);
  ps.nextResponse = undefined;
  const shift = Math.abs(ps.emotion.V - before.V) + Math.abs(ps.emotion.A - before.A) + Math.abs(ps.emotion.D - before.D);
  return {
    emotion: { ...ps.emotion },
    discrete: d,
    socialUpdates: [],
    memoryEpisode: {
      id: randomUUID(), timestamp: nowS(), sourceEntity: source, context: context.slice(0, 200), appraisal: ap,
      emotionSnapshot: { ...ps.emotion }, intensity: d.intensity, importance: round(clamp(shift, 0, 1)),
    },
    reflectionPrompt: { system: 'Reflect briefly on what just happened.', user: context.slice(0, 200) },
    stageTransition: 'none',
    maskExposure: { integrity: ps.maskIntegrity, exposed: false, triggers: [] },
    goalChanges: { achieved: [], abandoned: [], activated: [] },
    text,
  };
}

function reply(primary: string): string {
  switch (primary) {
    case 'joy': case 'contentment': return 'That is nice to hear.';
    case 'anger': return 'I do not appreciate that.';
    case 'fear': return 'That worries me.';
    case 'sadness': return 'That makes me a little sad.';
    default: return 'I see.';
  }
}

export function setEmotion(ps: Psyche, next: Partial<Vad>): void {
  const prev = ps.emotion;
  ps.emotion = vad(next.V ?? prev.V, next.A ?? prev.A, next.D ?? prev.D);
  ps.velocity = vad(ps.emotion.V - prev.V, ps.emotion.A - prev.A, ps.emotion.D - prev.D);
  ps.mood = vad(ps.mood.V + 0.2 * (ps.emotion.V - ps.mood.V), ps.mood.A + 0.2 * (ps.emotion.A - ps.mood.A), ps.mood.D + 0.2 * (ps.emotion.D - ps.mood.D));
  ps.lastUpdated = nowS();
  ps.history.push({ ...ps.emotion, timestamp: nowS() });
  if (ps.history.length > 20) ps.history.shift();
  ps.moodHistory.push({ emotion: { ...ps.mood }, intensity: discrete(ps.emotion).intensity });
  if (ps.moodHistory.length > 20) ps.moodHistory.shift();
}

/** Time passes: emotion relaxes toward mood, mood toward neutral, the body budget recovers toward 1. */
export function advance(ps: Psyche, seconds: number): void {
  if (seconds <= 0) return;
  ps.lastUpdated = nowS();
  const e = 1 - Math.exp(-seconds / 600);
  const m = 1 - Math.exp(-seconds / 3600);
  ps.emotion = vad(ps.emotion.V + e * (ps.mood.V - ps.emotion.V), ps.emotion.A + e * (ps.mood.A - ps.emotion.A), ps.emotion.D + e * (ps.mood.D - ps.emotion.D));
  const decayed = vad(ps.mood.V * (1 - m), ps.mood.A * (1 - m), ps.mood.D * (1 - m));
  // Rounding could freeze a small mood forever; step it at least one unit of the fourth decimal.
  const step = (was: number, now: number) => (was !== 0 && now === was ? round(was - Math.sign(was) * 1e-4) : now);
  ps.mood = { V: step(ps.mood.V, decayed.V), A: step(ps.mood.A, decayed.A), D: step(ps.mood.D, decayed.D) };
  ps.bodyBudget = round(Math.min(1, ps.bodyBudget + (1 - ps.bodyBudget) * m + 1e-4));
}

export function pickNumbers(o: Record<string, unknown>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(o)) if (typeof v === 'number' && Number.isFinite(v)) out[k] = v;
  return out;
}

export const emotionView = (ps: Psyche) => ({ vad: { ...ps.emotion }, discrete: discrete(ps.emotion) });

/** GET /personas/{id}/state. */
export function stateView(ps: Psyche) {
  const somatic = ps.emotion.A > 0.3 ? ['tight chest'] : ps.emotion.V < -0.3 ? ['heavy stomach'] : [];
  return { emotion: emotionView(ps), mood: { vad: { ...ps.mood } }, somatic, narrative: { tone: ps.mood.V, agency: round(clamp(ps.emotion.D, -1, 1)), coherence: 0.8 }, bodyBudget: ps.bodyBudget };
}

/** The full persona snapshot (world entities' personaSnapshot and GET /personas/{id}/snapshot). */
export function snapshotOf(ps: Psyche): Record<string, unknown> {
  const t = ps.strategySince;
  return {
    ...ps.extra,
    state: {
      emotion: { ...ps.emotion }, velocity: { ...ps.velocity }, emotion_history: ps.history.map((h) => ({ ...h })),
      body_budget: ps.bodyBudget,
      soul_stage: { id: 1, name: 'settled', tolerance: 0.5, stress_modifier: 1, appraisal_bias: neutralAppraisal(), avoidance_mod: 0, blend_table: { rational: 0.7, irrational: 0.3 }, cumulative_load: 0, turns_in_stage: ps.history.length },
      prediction_model: neutralAppraisal(), prev_emotion_delta: { ...ps.velocity }, need_state: { ...ps.needs }, lastUpdated: ps.lastUpdated,
      catastrophe: { alpha: 0, beta: 0, z: 0, hysteresis_bound: 0.5 },
      metacog: { turns_since_check: 0, regulation_history: [], self_awareness: 'moderate' },
      affect_dynamics: { variability: 0, instability: 0, inertia_observed: 0.5 },
      interpersonal: { dominance: ps.emotion.D, affiliation: ps.emotion.V },
      regulation: {
        strategy_weights: { situation_selection: 0.2, situation_modification: 0.2, attentional_deployment: 0.2, cognitive_reappraisal: 0.2, response_modulation: 0.2 },
        effectiveness_history: [],
        active_strategy: { strategy: 'cognitive_reappraisal', started_at: t, target_emotion: zeroVad(), progress: 0, phase: 'initiation', turns_active: 0, cumulative_effect: 0 },
      },
      prevMaskIntegrity: ps.maskIntegrity,
    },
    relationships: structuredClone(ps.relationships),
    goals: ps.goals.map((g) => ({ ...g })),
    selfConcept: ps.selfConcept,
    mood: { ...ps.mood },
    moodHistory: ps.moodHistory.map((m) => ({ emotion: { ...m.emotion }, intensity: m.intensity })),
    somatic: { regions: { head: 0, neck: 0, chest: round(clamp(ps.emotion.A, 0, 1)), stomach: round(clamp(-ps.emotion.V, 0, 1)), upperBack: 0, hands: 0, legs: 0 }, interoception: 0.5 },
    narrative: { tone: ps.mood.V, coherence: { temporal: 0.8, causal: 0.8, thematic: 0.8 }, agency: 0.5, communion: 0.5, arcs: [] },
    tmt: { mortalitySalience: 0, deathAnxiety: 0, proximity: 'immediate', proximalDefense: false, distalDefense: false, defenseTarget: 'in_group', defenseStrength: 0, lastReminderTime: 0 },
    selfEsteem: { global: 0.6, contingencies: {} },
    motivationContexts: {},
    maskIntegrity: ps.maskIntegrity,
    maskState: ps.maskIntegrity > 0.5 ? 'intact' : 'cracked',
    lastReflectionVAD: { ...ps.mood },
  };
}

const isVad = (x: any): x is Vad => x && typeof x === 'object' && ['V', 'A', 'D'].every((k) => typeof x[k] === 'number' && x[k] >= -1 && x[k] <= 1);

const pick = (o: Record<string, unknown>, members: string[]) => Object.fromEntries(Object.entries(o).filter(([k]) => members.includes(k)));
const GOAL_MEMBERS = ['id', 'content', 'priority', 'mutable', 'status'];
const RELATIONSHIP_MEMBERS = ['entityId', 'trust', 'intimacy', 'interactionCount', 'attachmentStyle', 'lastInteraction'];

/**
 * Takes back what snapshotOf gave: the snapshot's own unknown members are kept (it is open), those of
 * its closed parts are not (a Goal; in a world, a persona-level relationship). A standalone snapshot's
 * `relationships` is an open object, kept as given.
 */
export function restoreSnapshot(snap: Record<string, any>, base: Psyche, standalone = false): Psyche {
  const ps = structuredClone(base);
  const { state, relationships, goals, selfConcept, mood, moodHistory, maskIntegrity, ...rest } = snap;
  for (const k of ['somatic', 'narrative', 'tmt', 'selfEsteem', 'motivationContexts', 'maskState', 'lastReflectionVAD']) delete rest[k];
  ps.extra = rest;
  if (state && typeof state === 'object') {
    if (isVad(state.emotion)) ps.emotion = vad(state.emotion.V, state.emotion.A, state.emotion.D);
    if (isVad(state.velocity)) ps.velocity = vad(state.velocity.V, state.velocity.A, state.velocity.D);
    if (typeof state.body_budget === 'number') ps.bodyBudget = round(clamp(state.body_budget, 0, 1));
    if (Array.isArray(state.emotion_history)) ps.history = state.emotion_history.filter(isVad).map((h: any) => ({ ...vad(h.V, h.A, h.D), timestamp: typeof h.timestamp === 'number' ? h.timestamp : 0 }));
    if (state.need_state && typeof state.need_state === 'object') ps.needs = { ...ps.needs, ...pickNumbers(state.need_state) };
    if (typeof state.lastUpdated === 'number') ps.lastUpdated = state.lastUpdated;
    if (typeof state.regulation?.active_strategy?.started_at === 'number') ps.strategySince = state.regulation.active_strategy.started_at;
  }
  if (relationships && typeof relationships === 'object' && !Array.isArray(relationships)) {
    ps.relationships = standalone ? structuredClone(relationships)
      : Object.fromEntries(Object.entries(relationships).map(([k, r]) => [k, r && typeof r === 'object' ? pick(r as Record<string, unknown>, RELATIONSHIP_MEMBERS) : r])) as Psyche['relationships'];
  }
  if (Array.isArray(goals)) ps.goals = structuredClone(goals).map((g: any) => (g && typeof g === 'object' ? pick(g, GOAL_MEMBERS) : g));
  if (typeof selfConcept === 'string') ps.selfConcept = selfConcept;
  if (isVad(mood)) ps.mood = vad(mood.V, mood.A, mood.D);
  if (Array.isArray(moodHistory)) ps.moodHistory = moodHistory.filter((m: any) => m && isVad(m.emotion)).map((m: any) => ({ emotion: vad(m.emotion.V, m.emotion.A, m.emotion.D), intensity: typeof m.intensity === 'number' ? m.intensity : 0 }));
  if (typeof maskIntegrity === 'number') ps.maskIntegrity = round(clamp(maskIntegrity, 0, 1));
  return ps;
}
