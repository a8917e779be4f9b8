// The passage of time (ticks, time jumps): integrated in sub-steps of at most STEP seconds (at most
// MAX_STEPS of them; every relaxation uses its exact exponential, so long steps stay stable).
// Emotion relaxes toward the mood (shifted while on the catastrophe's breakdown branch), the mood
// toward its home, the body budget and the mask recover, α returns to rest (z may jump back once α
// passes the lower fold), load discharges (stages step down), needs and self-esteem drift home,
// mortality salience fades.
import type { PersonaConfig, PersonaSnapshot, VAD } from '../../../contract/resources.ts';
import { baseline, traits } from './personality.ts';
import { relaxEmotion, nudge, DYN } from './dynamics.ts';
import { moodHome, relaxMood, recordMood } from './mood.ts';
import { recover } from './body.ts';
import { jumpEffect, offset, relaxAlpha, step } from './catastrophe.ts';
import { accumulate, STAGE } from './stages.ts';
import { driftNeeds } from './needs.ts';
import { driftEsteem } from './selfesteem.ts';
import { fade, settleDefenses } from './tmt.ts';
import { restore } from './mask.ts';
import { settleBody } from './somatic.ts';
import { observe, settleInterpersonal } from './affect.ts';
import { review } from './regulation.ts';
import { repair } from './create.ts';
import { internals } from './internals.ts';
import { add, dist, fin, norm, pushCapped, readVad, sub } from './util.ts';

export const TIME = { STEP: 60, MAX_STEPS: 240 } as const;

export function elapse(snapshot: PersonaSnapshot, config: PersonaConfig, seconds: number, now: number): void {
  const s = repair(snapshot, config);
  const st = s.state;
  const t = traits(config);
  const base = baseline(t);
  internals(s).home = base;
  const total = Math.max(0, fin(seconds, 0));
  const steps = Math.min(TIME.MAX_STEPS, Math.max(1, Math.ceil(total / TIME.STEP)));
  const dt = total / steps;
  const homeBefore = moodHome(base, st.need_state);
  const awayBefore = norm(sub(s.mood, homeBefore));
  if (total > 0) {
    for (let i = 0; i < steps; i++) {
      relaxEmotion(st, add(s.mood, offset(st.catastrophe.z)), dt, t);
      relaxMood(s, moodHome(base, st.need_state), dt);
      recover(st, dt, DYN.TAU_EMOTION);
      const dz = step(st.catastrophe, relaxAlpha(st.catastrophe, dt, st.body_budget), t.N, st.emotion.A);
      if (dz) nudge(st, jumpEffect(dz));
      st.soul_stage = accumulate(st.soul_stage, 0, STAGE.REST_PER_HOUR * (dt / 3600) * st.body_budget, false).stage;
      st.need_state = driftNeeds(st.need_state, dt);
      driftEsteem(s.selfEsteem, t, dt);
      fade(s, dt * 1000);
      restore(s, dt);
      settleBody(s, t, dt);
      settleInterpersonal(s, t, dt);
    }
  }
  // SPEC.md: time "decays mood". Needs drift while time passes, so the home moves and the mood may
  // lag behind it; never end farther from home than the mood started.
  const home = moodHome(base, st.need_state);
  if (norm(sub(s.mood, home)) > awayBefore) s.mood = towardHome(s.mood, home, awayBefore);
  const time = Math.max(fin(st.lastUpdated, 0), fin(now, 0));
  settleDefenses(s, t, time);
  review(s, base, time);
  // A long tick arrives as many short elapses: only samples that moved are kept, so the history
  // (and the affect dynamics read from it) is not flooded with the tail of one decay.
  const last = st.emotion_history[st.emotion_history.length - 1];
  if (!last || dist(st.emotion, readVad(last)) >= DYN.HISTORY_STEP) pushCapped(st.emotion_history, { ...st.emotion, timestamp: time }, DYN.HISTORY);
  const lastMood = s.moodHistory[s.moodHistory.length - 1];
  if (!lastMood || dist(s.mood, readVad(lastMood.emotion)) >= DYN.HISTORY_STEP) recordMood(s);
  observe(st);
  st.lastUpdated = time;
}

/** The mood moved toward `home` until it is at most `distance` away, rounded toward home. */
function towardHome(mood: VAD, home: VAD, distance: number): VAD {
  const away = norm(sub(mood, home));
  const k = away > 0 ? distance / away : 0;
  const pick = (m: number, h: number) => {
    const x = h + (m - h) * k;
    // Rounded to 6 decimals like every stored value, in the direction of home.
    return (x > h ? Math.floor(x * 1e6) : Math.ceil(x * 1e6)) / 1e6;
  };
  return { V: pick(mood.V, home.V), A: pick(mood.A, home.A), D: pick(mood.D, home.D) };
}
