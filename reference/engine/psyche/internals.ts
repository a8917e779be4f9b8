// Model state that SPEC.md does not list: the persona snapshot is "open", so it lives under one
// extra member, `psyche`. It holds the seed and position of the random generator (so a reloaded
// persona continues the same sequence), the turn counter, recent memory episodes and goal progress.
import type { PersonaSnapshot, VAD } from '../../../contract/resources.ts';
import type { MemoryEpisode } from './types.ts';
import { hashString, nextRandom, readVad } from './util.ts';

export interface Internals {
  seed: string;
  /** Generator state (mulberry32); advanced by every draw. */
  rng: number;
  /** Percepts processed so far (episode ids, turn counters). */
  turn: number;
  /** The most recent memory episodes, oldest first (capped by MEMORY.CAPACITY). */
  episodes: MemoryEpisode[];
  /** Progress of each goal by id, in [-1, 1]: +1 achieves it, -1 abandons it (when mutable). */
  goalProgress: Record<string, number>;
  /** Prediction error of the last percept, in [0, 1]. */
  predictionError: number;
  /** What started the active regulation strategy (for its history record when it ends). */
  regulationStart?: { trigger: string; before: VAD };
  /** The resting point (default mood) of the personality last seen: discrete labels are read from it. */
  home: VAD;
  /** The last exchanges (what was said, by whom, what the persona answered), oldest first. */
  conversation: Turn[];
  /** Whom the persona last dealt with (the key of the last percept with a source), in order of
   *  arrival: chats at one world time tie on `lastInteraction`. Absent in older snapshots. */
  lastSource?: string;
}

/** One exchange of a conversation, as the persona remembers it. */
export interface Turn { from: string; said: string; replied: string; act: string; at: number }

/** Exchanges kept in `conversation`. */
export const CONVERSATION = 8;

export type Snapshot = PersonaSnapshot & { psyche?: Internals };

export function freshInternals(seed: string): Internals {
  return { seed, rng: hashString(seed), turn: 0, episodes: [], goalProgress: {}, predictionError: 0, home: { V: 0, A: 0, D: 0 }, conversation: [] };
}

/** The internals of a snapshot, created when an imported snapshot has none. */
export function internals(s: PersonaSnapshot): Internals {
  const snap = s as Snapshot;
  const cur = snap.psyche;
  if (!cur || typeof cur !== 'object') {
    snap.psyche = freshInternals(`import:${s.selfConcept ?? ''}`);
    return snap.psyche;
  }
  if (typeof cur.seed !== 'string') cur.seed = 'import';
  if (typeof cur.rng !== 'number' || !Number.isFinite(cur.rng)) cur.rng = hashString(cur.seed);
  if (typeof cur.turn !== 'number' || !Number.isFinite(cur.turn)) cur.turn = 0;
  if (!Array.isArray(cur.episodes)) cur.episodes = [];
  if (!cur.goalProgress || typeof cur.goalProgress !== 'object') cur.goalProgress = {};
  if (typeof cur.predictionError !== 'number' || !Number.isFinite(cur.predictionError)) cur.predictionError = 0;
  if (!cur.home || typeof cur.home !== 'object') cur.home = { V: 0, A: 0, D: 0 };
  if (!Array.isArray(cur.conversation)) cur.conversation = [];
  if (cur.lastSource !== undefined && typeof cur.lastSource !== 'string') delete cur.lastSource;
  return cur;
}

/** The resting point a snapshot's labels are read from (neutral when it has none). */
export function restingPoint(s: PersonaSnapshot): VAD {
  return readVad((s as Snapshot).psyche?.home);
}

/** A uniform draw in [0, 1) from the snapshot's own generator. */
export function draw(s: PersonaSnapshot): number {
  const st = internals(s);
  const { value, state } = nextRandom(st.rng);
  st.rng = state;
  return value;
}
