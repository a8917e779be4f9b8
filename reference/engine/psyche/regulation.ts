// Emotion regulation after Gross's process model (Gross 1998, 2015): five families acting at
// successive points of the emotion's generation. When the felt emotion strays far enough from the
// persona's baseline, one strategy is chosen (seeded roulette over weight × fit) and runs for a few
// percepts through phases initiation → execution → monitoring. While active it attenuates new
// impulses and pulls the emotion toward a target; when done its effectiveness (share of the distance
// to target closed) is recorded and its weight learns from it (a simple delta rule).
// Starting weights follow trait correlations (Gross & John 2003: reappraisal with openness and
// extraversion, suppression with low extraversion; avoidance with neuroticism).
import type { PersonaSnapshot, PersonaState, VAD } from '../../../contract/resources.ts';
import type { Traits } from './personality.ts';
import { draw, internals } from './internals.ts';
import { add, boundVad, clamp, clamp01, dist, fin, lerp, pushCapped, round, scale, sub, vad } from './util.ts';

export const STRATEGIES = ['situation_selection', 'situation_modification', 'attentional_deployment', 'cognitive_reappraisal', 'response_modulation'] as const;
export type Strategy = (typeof STRATEGIES)[number];
type Weights = PersonaState['regulation']['strategy_weights'];

/** Per strategy: share of a new negative impulse removed, share of the gap to target closed per percept,
 *  arousal added (suppression raises physiology, Gross & Levenson 1997). */
export const EFFECT: Record<Strategy, { attenuate: number; pull: number; arousal: number }> = {
  situation_selection: { attenuate: 0.35, pull: 0.05, arousal: 0 },
  situation_modification: { attenuate: 0.2, pull: 0.12, arousal: 0 },
  attentional_deployment: { attenuate: 0.25, pull: 0.15, arousal: 0 },
  cognitive_reappraisal: { attenuate: 0.3, pull: 0.2, arousal: 0 },
  response_modulation: { attenuate: 0.05, pull: 0.05, arousal: 0.03 },
};

export const REG = {
  /** Distance from baseline (PAD) that starts regulation. */
  TRIGGER: 0.35,
  /** The target keeps this share of the deviation from baseline (down-regulation, not erasure). */
  TARGET_KEEP: 0.3,
  /** Percepts a strategy runs; its phase by progress: < 1/3 initiation, < 2/3 execution, else monitoring. */
  DURATION: 4,
  /** Reappraisal grows as it is worked through: its attenuation scales with 0.5 + progress. */
  LEARNING_RATE: 0.2,
  WEIGHT_MIN: 0.05,
  HISTORY: 20,
  /** Within this distance of target a strategy is done early. */
  DONE_RADIUS: 0.05,
} as const;

export function initialWeights(t: Traits): Weights {
  const raw: Weights = {
    situation_selection: 0.2 + 0.4 * t.N,
    situation_modification: 0.2 + 0.4 * t.C,
    attentional_deployment: 0.2 + 0.3 * t.E,
    cognitive_reappraisal: 0.2 + 0.25 * t.O + 0.15 * t.E,
    response_modulation: 0.2 + 0.3 * (1 - t.E) + 0.1 * t.N,
  };
  return normalise(raw);
}

/**
 * Weights that sum to 1 with each at least WEIGHT_MIN: the weights scaled to the mass left after the
 * floored ones, repeated until none falls below the floor (at most one pass per strategy).
 */
export function normalise(w: Weights): Weights {
  const floored = new Set<Strategy>();
  for (;;) {
    let free = 0;
    for (const k of STRATEGIES) if (!floored.has(k)) free += Math.max(0, fin(w[k], REG.WEIGHT_MIN));
    const mass = 1 - floored.size * REG.WEIGHT_MIN;
    const share = (k: Strategy) => (free > 0 ? (Math.max(0, fin(w[k], REG.WEIGHT_MIN)) / free) * mass : mass / (STRATEGIES.length - floored.size));
    const low = STRATEGIES.filter((k) => !floored.has(k) && share(k) < REG.WEIGHT_MIN);
    if (low.length === 0) {
      const out = {} as Weights;
      for (const k of STRATEGIES) out[k] = round(floored.has(k) ? REG.WEIGHT_MIN : share(k));
      return out;
    }
    for (const k of low) floored.add(k);
  }
}

export const activeStrategy = (s: PersonaState): Strategy | undefined => {
  const name = s.regulation.active_strategy?.strategy;
  return (STRATEGIES as readonly string[]).includes(name ?? '') ? (name as Strategy) : undefined;
};

/** Share of a new impulse that survives the active strategy (only negative valence is attenuated). */
export function attenuate(s: PersonaState, impulse: VAD): VAD {
  const k = activeStrategy(s);
  if (!k) return impulse;
  const progress = clamp01(fin(s.regulation.active_strategy?.progress, 0));
  const a = EFFECT[k].attenuate * (k === 'cognitive_reappraisal' ? 0.5 + progress : 1);
  if (impulse.V >= 0) return impulse;
  const out = vad(impulse.V * (1 - a), impulse.A * (1 - a / 2), impulse.D);
  const act = s.regulation.active_strategy!;
  act.cumulative_effect = round(fin(act.cumulative_effect, 0) + dist(impulse, out));
  return out;
}

const phaseOf = (progress: number) => (progress < 1 / 3 ? 'initiation' : progress < 2 / 3 ? 'execution' : 'monitoring');

/** Chooses and starts a strategy when the emotion strays from `home`; `fit` adds situational bias. */
export function maybeStart(snap: PersonaSnapshot, home: VAD, avoidance: number, trigger: string, now: number): void {
  const s = snap.state;
  if (activeStrategy(s)) return;
  if (dist(s.emotion, home) < REG.TRIGGER || s.emotion.V >= home.V) return; // regulate unpleasant states
  const w = s.regulation.strategy_weights;
  const fit: Record<Strategy, number> = {
    situation_selection: 1 + clamp01(avoidance),
    situation_modification: 0.5 + clamp01(fin(s.need_state.autonomy, 0.5)),
    attentional_deployment: 1,
    cognitive_reappraisal: 0.5 + clamp01(fin(s.soul_stage.blend_table?.rational, 0.5)),
    response_modulation: 1.5 - clamp01(fin(s.body_budget, 1)) * 0.5,
  };
  const scores = STRATEGIES.map((k) => Math.max(0, fin(w[k], 0)) * fit[k]);
  const total = scores.reduce((a, b) => a + b, 0);
  let r = draw(snap) * total;
  let pick: Strategy = STRATEGIES[STRATEGIES.length - 1];
  for (let i = 0; i < STRATEGIES.length; i++) { r -= scores[i]; if (r < 0) { pick = STRATEGIES[i]; break; } }
  const target = boundVad(add(home, scale(sub(s.emotion, home), REG.TARGET_KEEP)));
  s.regulation.active_strategy = {
    strategy: pick, started_at: now, target_emotion: target, progress: 0, phase: 'initiation', turns_active: 0, cumulative_effect: 0,
  };
  internals(snap).regulationStart = { trigger, before: { ...s.emotion } };
}

/** One percept of the active strategy: pull toward target, advance its phase, finish when done. */
export function work(snap: PersonaSnapshot, now: number): void {
  const s = snap.state;
  const k = activeStrategy(s);
  const act = s.regulation.active_strategy;
  if (!k || !act) return;
  const target = act.target_emotion;
  const before = s.emotion;
  const pulled = lerp(before, target, EFFECT[k].pull);
  s.emotion = boundVad(add(pulled, vad(0, EFFECT[k].arousal, 0)));
  act.turns_active = fin(act.turns_active, 0) + 1;
  act.progress = round(clamp01(act.turns_active / REG.DURATION));
  act.phase = phaseOf(act.progress);
  act.cumulative_effect = round(fin(act.cumulative_effect, 0) + dist(before, s.emotion));
  if (act.progress >= 1 || dist(s.emotion, target) <= REG.DONE_RADIUS) finish(snap, now, 'completed');
}

/** Ends the active strategy, recording its effectiveness and learning its weight. */
export function finish(snap: PersonaSnapshot, now: number, context: string): void {
  const s = snap.state;
  const k = activeStrategy(s);
  const act = s.regulation.active_strategy;
  if (!k || !act) return;
  const start = internals(snap).regulationStart ?? { trigger: 'unknown', before: s.emotion };
  const d0 = dist(start.before, act.target_emotion);
  const d1 = dist(s.emotion, act.target_emotion);
  // Half outcome (share of the distance to target closed), half work (change the strategy itself made).
  const effectiveness = round(d0 > 1e-9 ? clamp01(0.5 * clamp01((d0 - d1) / d0) + 0.5 * clamp01(fin(act.cumulative_effect, 0) / d0)) : 1);
  pushCapped(s.regulation.effectiveness_history, { timestamp: now, strategy: k, effectiveness, context }, REG.HISTORY);
  pushCapped(s.metacog.regulation_history, {
    timestamp: now, strategy: k, trigger: start.trigger, effectiveness, emotionBefore: { ...start.before }, emotionAfter: { ...s.emotion },
  }, REG.HISTORY);
  const w = { ...s.regulation.strategy_weights };
  w[k] = clamp(fin(w[k], 0.2) + REG.LEARNING_RATE * (effectiveness - 0.5), REG.WEIGHT_MIN, 1);
  s.regulation.strategy_weights = normalise(w);
  delete s.regulation.active_strategy;
  delete internals(snap).regulationStart;
}

/** Time passing: a strategy is closed once the emotion is back at least as near `home` as its target. */
export function review(snap: PersonaSnapshot, home: VAD, now: number): void {
  const act = snap.state.regulation.active_strategy;
  if (!act) return;
  const e = snap.state.emotion;
  if (dist(e, act.target_emotion) <= REG.DONE_RADIUS || dist(e, home) <= dist(act.target_emotion, home) + REG.DONE_RADIUS) {
    finish(snap, now, 'resolved with time');
  }
}

/** The strategy the persona relies on most (for prompts and metacognition). */
export const favourite = (w: Weights): Strategy => STRATEGIES.reduce((b, k) => (fin(w[k], 0) > fin(w[b], 0) ? k : b));
