// Small numeric helpers shared by every mechanism: bounds, vectors and a seeded random generator.
// Nothing here reads the clock or Math.random: the model is a pure function of its inputs.
import type { VAD } from '../../../contract/resources.ts';

/** A finite number, or the fallback (inputs come from JSON and imported snapshots). */
export const fin = (x: unknown, fallback: number): number =>
  typeof x === 'number' && Number.isFinite(x) ? x : fallback;

export const clamp = (x: number, lo: number, hi: number): number =>
  Number.isFinite(x) ? Math.min(hi, Math.max(lo, x)) : (x > 0 ? hi : lo);
export const clamp01 = (x: number): number => clamp(x, 0, 1);
export const clamp11 = (x: number): number => clamp(x, -1, 1);

/** Rounds away floating noise so snapshots stay short and stable across platforms. */
export const round = (x: number, digits = 6): number => {
  const f = digits === 6 ? 1e6 : 10 ** digits; // 10 ** 6 is exactly 1e6; the power is not recomputed per call
  const r = Math.round(x * f) / f;
  return r === 0 ? 0 : r; // −0 and +0 both become +0
};

export const ZERO: Readonly<VAD> = Object.freeze({ V: 0, A: 0, D: 0 });
export const vad = (V: number, A: number, D: number): VAD => ({ V, A, D });
export const add = (a: VAD, b: VAD): VAD => vad(a.V + b.V, a.A + b.A, a.D + b.D);
export const sub = (a: VAD, b: VAD): VAD => vad(a.V - b.V, a.A - b.A, a.D - b.D);
export const scale = (a: VAD, k: number): VAD => vad(a.V * k, a.A * k, a.D * k);
/** add(a, scale(sub(b, a), t)), written out (the same operations, without the intermediate vectors). */
export const lerp = (a: VAD, b: VAD, t: number): VAD => vad(a.V + (b.V - a.V) * t, a.A + (b.A - a.A) * t, a.D + (b.D - a.D) * t);
export const norm = (a: VAD): number => Math.hypot(a.V, a.A, a.D);
export const dist = (a: VAD, b: VAD): number => Math.hypot(a.V - b.V, a.A - b.A, a.D - b.D); // norm(sub(a, b))
export const dot = (a: VAD, b: VAD): number => a.V * b.V + a.A * b.A + a.D * b.D;
/** Clamps each member into [-1, 1] and rounds: the contract bounds every VAD member. */
export const boundVad = (a: VAD): VAD => vad(round(clamp11(a.V)), round(clamp11(a.A)), round(clamp11(a.D)));
export const readVad = (x: Partial<VAD> | undefined, fallback: VAD = ZERO): VAD =>
  boundVad(vad(fin(x?.V, fallback.V), fin(x?.A, fallback.A), fin(x?.D, fallback.D)));

/** Exponential relaxation factor for `dt` of time with time constant `tau` (same unit). */
export const relax = (dt: number, tau: number): number => (tau <= 0 ? 0 : Math.exp(-Math.max(0, dt) / tau));

/** FNV-1a 32-bit hash: turns a seed string into the generator's first state. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * mulberry32: a tiny 32-bit generator whose whole state is one integer, so it can live in the
 * snapshot (JSON) and a reloaded persona continues the same sequence.
 */
export function nextRandom(state: number): { value: number; state: number } {
  const s = (state + 0x6d2b79f5) >>> 0;
  let t = s;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return { value: ((t ^ (t >>> 14)) >>> 0) / 4294967296, state: s };
}

export const mean = (xs: number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** Keeps the last `cap` items (histories are bounded so snapshots do not grow without end). */
export function pushCapped<T>(list: T[], item: T, cap: number): void {
  list.push(item);
  // shift for the usual one-over (splice would build an array of what it removes).
  if (list.length === cap + 1) list.shift();
  else if (list.length > cap) list.splice(0, list.length - cap);
}

/**
 * `fn` with its results kept for the last keys seen (at most `size`; all are dropped when full).
 * Only for pure functions of their key whose results nobody changes (freeze them if they are objects).
 */
export function memoize<V>(fn: (key: string) => V, size = 256): (key: string) => V {
  const kept = new Map<string, V>();
  return (key) => {
    // V8 hashes a string of 16,384 characters or more by its length alone: as a key it would be
    // compared in full with every other of its length (store/shared.ts HASHED_LENGTH).
    if (key.length >= 16_384) return fn(key);
    let value = kept.get(key);
    if (value === undefined) {
      value = fn(key);
      if (kept.size >= size) kept.clear();
      kept.set(key, value);
    }
    return value;
  };
}

// One percept reads the same texts several times (norms, goals, mortality cues) and the goal texts
// come back on every percept: their tokens are kept (frozen, so no caller can change a shared list).
/** Lower-case word tokens of a text (letters, digits, apostrophes). */
export const tokens = memoize((text: string): readonly string[] => Object.freeze(text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? []));
