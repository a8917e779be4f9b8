// Emotional contagion (Hatfield, Cacioppo & Rapson 1993): a bystander who sees another's emotion
// moves toward it by share × susceptibility. Susceptibility grows with agreeableness, neuroticism and
// extraversion, and with the irrational share of the soul stage's blend table (contagion is the
// automatic, mimicry route, not appraisal).
import type { EntityResponse, PersonaConfig, PersonaSnapshot, VAD } from '../../../contract/resources.ts';
import { baseline, traits, centred } from './personality.ts';
import { internals } from './internals.ts';
import { DYN } from './dynamics.ts';
import { spend } from './body.ts';
import { pullMood } from './mood.ts';
import { observe } from './affect.ts';
import { feel } from './somatic.ts';
import { labelOf } from './discrete.ts';
import { reply } from './text.ts';
import { repair } from './create.ts';
import { boundVad, clamp01, fin, lerp, pushCapped, readVad, sub } from './util.ts';

export const CONTAGION = { BASE: 0.5, A: 0.15, N: 0.1, E: 0.1, IRRATIONAL: 0.5 } as const;

export function witness(snapshot: PersonaSnapshot, config: PersonaConfig, other: VAD, share: number, now: number): EntityResponse {
  const s = repair(snapshot, config);
  const st = s.state;
  const t = traits(config);
  internals(s).home = baseline(t);
  const before = { ...st.emotion };
  const susceptibility = clamp01(CONTAGION.BASE + CONTAGION.A * centred(t.A) + CONTAGION.N * centred(t.N) + CONTAGION.E * centred(t.E))
    * (1 - CONTAGION.IRRATIONAL + CONTAGION.IRRATIONAL * 2 * clamp01(fin(st.soul_stage.blend_table?.irrational, 0.2)));
  const k = clamp01(fin(share, 0) * susceptibility);
  st.emotion = boundVad(lerp(st.emotion, readVad(other), k));
  st.prev_emotion_delta = boundVad(sub(st.emotion, before));
  spend(st, st.prev_emotion_delta, 0);
  pullMood(s);
  pushCapped(st.emotion_history, { ...st.emotion, timestamp: fin(now, st.lastUpdated) }, DYN.HISTORY);
  observe(st);
  feel(s, t);
  st.lastUpdated = Math.max(fin(st.lastUpdated, 0), fin(now, 0));
  const discrete = labelOf(s);
  return {
    emotion: { ...st.emotion }, discrete, socialUpdates: [],
    goalChanges: { achieved: [], abandoned: [], activated: [] }, text: reply(s, config, discrete),
  };
}

