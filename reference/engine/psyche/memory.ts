// Episodic memory: every percept leaves an episode with its appraisal and the emotion it left.
// intensity ∈ [0, 1] is the strength of the emotion after the percept; importance ∈ [0, 1] is its
// poignancy (after Park et al. 2023's importance score of generative agents): relevance, emotional
// change and surprise, weighted. The snapshot keeps the last CAPACITY episodes.
import type { Appraisal, PersonaSnapshot, VAD } from '../../../contract/resources.ts';
import type { MemoryEpisode } from './types.ts';
import { internals } from './internals.ts';
import { clamp01, hashString, memoize, norm, pushCapped, round } from './util.ts';

export const MEMORY = {
  CAPACITY: 50,
  W_RELEVANCE: 0.35, W_CHANGE: 0.35, W_SURPRISE: 0.2, W_INTENSITY: 0.1,
  /** A change of this PAD length counts as a full change. */
  FULL_CHANGE: 0.5,
  CONTEXT_CHARS: 280,
} as const;

// The id prefix of a seed's episodes (its hash in hex), kept per seed rather than hashed per percept.
const prefixOf = memoize((seed: string) => `ep-${hashString(seed).toString(16).padStart(8, '0')}`, 1024);

export function remember(
  s: PersonaSnapshot, sourceEntity: string, context: string, a: Appraisal, change: VAD, surprise: number, now: number,
): MemoryEpisode {
  const st = internals(s);
  const intensity = round(clamp01(norm(s.state.emotion)));
  const importance = round(clamp01(
    MEMORY.W_RELEVANCE * a.goal_relevance + MEMORY.W_CHANGE * clamp01(norm(change) / MEMORY.FULL_CHANGE)
    + MEMORY.W_SURPRISE * clamp01(surprise) + MEMORY.W_INTENSITY * intensity,
  ));
  const episode: MemoryEpisode = {
    id: `${prefixOf(st.seed)}-${st.turn}`,
    timestamp: now, sourceEntity, context: context.slice(0, MEMORY.CONTEXT_CHARS),
    appraisal: { ...a }, emotionSnapshot: { ...s.state.emotion }, intensity, importance,
  };
  pushCapped(st.episodes, episode, MEMORY.CAPACITY);
  return episode;
}

/** The most important of the last `n` episodes, most important first. */
export function salient(s: PersonaSnapshot, n: number): MemoryEpisode[] {
  const eps = internals(s).episodes;
  // The last 3n episodes, newest first (what reverse().slice(0, 3n) of a copy gives).
  const recent: MemoryEpisode[] = [];
  for (let i = eps.length - 1; i >= 0 && recent.length < 3 * n; i--) recent.push(eps[i]);
  return recent
    .sort((x, y) => y.importance - x.importance || y.timestamp - x.timestamp).slice(0, n);
}
