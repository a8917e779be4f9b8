// Emotion as a damped moving point in PAD space (a second-order system, as in mass–spring–damper
// models of affect dynamics, e.g. Kuppens et al. 2010's "DynAffect" attractor with a home base).
// A percept adds an impulse to the velocity; the damping ζ ∈ [0,1] says how much of the previous
// velocity survives one percept (1 − ζ). With time the velocity dies out and the emotion relaxes
// exponentially toward its resting point (the mood, shifted on the catastrophe's breakdown branch).
import type { PersonaSnapshot, PersonaState, VAD } from '../../../contract/resources.ts';
import type { Traits } from './personality.ts';
import { centred } from './personality.ts';
import { add, boundVad, clamp, clamp01, fin, pushCapped, readVad, relax, scale, sub, vad } from './util.ts';
import { embody } from './somatic.ts';

export const DYN = {
  /** ζ = BASE + C·c(C) + N·c(N): conscientious personae settle, neurotic ones keep swinging. */
  DAMPING_BASE: 0.55,
  DAMPING_C: 0.15,
  DAMPING_N: -0.2,
  DAMPING_MIN: 0.1,
  DAMPING_MAX: 1,
  /** Emotion time constant (seconds) toward the resting point. */
  TAU_EMOTION: 600,
  /** Neuroticism lengthens the return from negative valence by up to this factor (rumination). */
  TAU_NEG_N: 0.6,
  /** Velocity time constant (seconds). */
  TAU_VELOCITY: 60,
  /** Emotion history kept in the snapshot. */
  HISTORY: 50,
  /** Time (elapse) records a history sample only when the emotion (mood) moved this far since the last one. */
  HISTORY_STEP: 0.01,
} as const;

export function dampingOf(t: Traits, override?: number): number {
  if (typeof override === 'number' && Number.isFinite(override)) return clamp01(override);
  return clamp(DYN.DAMPING_BASE + DYN.DAMPING_C * centred(t.C) + DYN.DAMPING_N * centred(t.N), DYN.DAMPING_MIN, DYN.DAMPING_MAX);
}

/**
 * Soft saturation: a move away from neutral is taken in the unbounded space of atanh, so the
 * emotion approaches ±1 without reaching it in one step (|e'| = tanh(atanh|e| + |d|)); a move
 * back toward neutral is linear. Returns the change of e.
 */
export function saturate(e: number, d: number): number {
  if (d === 0) return 0;
  if (e * d < 0) return d;
  const m = Math.min(Math.abs(e), 1 - 1e-9);
  return Math.sign(d) * Math.tanh(Math.atanh(m) + Math.abs(d)) - e;
}

/** One percept: v ← (1 − ζ)·v + impulse; e ← e + sat(v) (both clamped to [−1, 1]); records prev_emotion_delta. */
export function applyImpulse(s: PersonaState, impulse: VAD, damping: number): void {
  const before = s.emotion;
  s.velocity = boundVad(add(scale(s.velocity, 1 - damping), impulse));
  const v = s.velocity;
  s.emotion = boundVad(vad(before.V + saturate(before.V, v.V), before.A + saturate(before.A, v.A), before.D + saturate(before.D, v.D)));
  s.prev_emotion_delta = boundVad(sub(s.emotion, before));
}

/** An acute harm interrupts a good mood: from this goal incongruence on, up to full at FROM + SPAN. */
export const INTERRUPT = { FROM: 0.2, SPAN: 0.4 } as const;

/**
 * Interrupt theory of emotion (Simon 1967; Mandler 1984) and the negativity bias (Baumeister et al.
 * 2001): an acute harm (an insult, a threat, bad news) takes attention from whatever pleasant state
 * the persona was in. Before its impulse lands, an emotion above the resting point is brought toward
 * it by k ∈ [0, 1] (0 at goal congruence −FROM, 1 at −(FROM + SPAN)), and upward momentum is dropped;
 * so a long good mood cannot make an insult feel like relief. Nothing happens below the resting point.
 */
export function interrupt(s: PersonaState, home: VAD, congruence: number): void {
  const k = clamp01((-congruence - INTERRUPT.FROM) / INTERRUPT.SPAN);
  if (k <= 0 || s.emotion.V <= home.V) return;
  s.emotion = boundVad(vad(s.emotion.V + k * (home.V - s.emotion.V), s.emotion.A + k * (home.A - s.emotion.A), s.emotion.D + k * (home.D - s.emotion.D)));
  s.velocity = vad(Math.min(0, s.velocity.V), s.velocity.A * (1 - k), s.velocity.D * (1 - k));
}

/**
 * Adaptation (hedonic adaptation, Frederick & Loewenstein 1999): each member of an impulse that
 * pushes the emotion further from the resting point, on the side it already stands, is scaled by
 * 1 − ADAPT·|e − home| (floored at ADAPT_FLOOR): more of what one already feels moves one less. Per
 * member and by the state only, so a larger push in one direction stays a larger push.
 */
export const ADAPT = { GAIN: 1.2, FLOOR: 0.05 } as const;
export function adapt(impulse: VAD, e: VAD, home: VAD): VAD {
  const k = (i: number, d: number) => (i * d > 0 ? i * Math.max(ADAPT.FLOOR, 1 - ADAPT.GAIN * Math.abs(d)) : i);
  return vad(k(impulse.V, e.V - home.V), k(impulse.A, e.A - home.A), k(impulse.D, e.D - home.D));
}

/** Moves the emotion by a direct change (jumps, regulation), keeping the delta record. */
export function nudge(s: PersonaState, change: VAD): void {
  const before = s.emotion;
  s.emotion = boundVad(vad(before.V + saturate(before.V, change.V), before.A + saturate(before.A, change.A), before.D + saturate(before.D, change.D)));
  s.prev_emotion_delta = boundVad(add(s.prev_emotion_delta, sub(s.emotion, before)));
}

/** `dt` seconds of relaxation toward `rest` (exact exponential solution, stable for any dt). */
export function relaxEmotion(s: PersonaState, rest: VAD, dt: number, t: Traits): void {
  const slow = 1 + DYN.TAU_NEG_N * Math.max(0, centred(t.N));
  const k = (x: number, target: number, tau: number) => target + (x - target) * relax(dt, tau);
  const e = s.emotion;
  s.emotion = boundVad(vad(
    k(e.V, rest.V, e.V < rest.V ? DYN.TAU_EMOTION * slow : DYN.TAU_EMOTION),
    k(e.A, rest.A, DYN.TAU_EMOTION),
    k(e.D, rest.D, DYN.TAU_EMOTION),
  ));
  s.velocity = boundVad(scale(s.velocity, relax(dt, DYN.TAU_VELOCITY)));
}


/** POST /personas/{id}/emotion: members given replace the emotion's; the velocity is reset. */
export function override(s: PersonaSnapshot, v: Partial<VAD>, now: number): void {
  const st = s.state;
  const before = readVad(st.emotion);
  st.emotion = readVad(v, before);
  st.velocity = { V: 0, A: 0, D: 0 };
  st.prev_emotion_delta = boundVad(sub(st.emotion, before));
  if (!Array.isArray(st.emotion_history)) st.emotion_history = [];
  pushCapped(st.emotion_history, { ...st.emotion, timestamp: fin(now, 0) }, DYN.HISTORY);
  // The body shows a set emotion at once (as it jumped), so the state never says "fear" with a calm body.
  embody(s);
  st.lastUpdated = Math.max(fin(st.lastUpdated, 0), fin(now, 0));
}
