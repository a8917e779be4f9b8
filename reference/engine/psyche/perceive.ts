// The percept pipeline: appraisal → impulse → dynamics → catastrophe → regulation → body, needs,
// stage → mood, relationships, self-esteem, goals → body map, mask → memory, narrative, reflection
// → reply. Each step is one mechanism's module; this file only orders them. Time does not pass
// during a percept (the caller's ticks do that; lastUpdated moves to the percept's timestamp), but a
// chat turn stands for TURN.SECONDS of talk, during which the emotion relaxes: the world's clock only
// moves on ticks, so without it a long conversation would pile emotion up at the bounds.
import type { EntityResponse, NeedState, PersonaConfig, PersonaSnapshot, VAD } from '../../../contract/resources.ts';
import type { Percept } from './model.ts';
import { baseline, traits } from './personality.ts';
import { CONVERSATION, internals } from './internals.ts';
import { appraise, impulseOf, learn } from './appraisal.ts';
import { adapt, applyImpulse, dampingOf, DYN, interrupt, nudge, relaxEmotion } from './dynamics.ts';
import { jumpEffect, step, CUSP } from './catastrophe.ts';
import { accumulate, forceStage, reliefOf, strainOf } from './stages.ts';
import { attenuate, maybeStart, work, activeStrategy } from './regulation.ts';
import { remind, settleDefenses, TMT } from './tmt.ts';
import { spend } from './body.ts';
import { addNeeds, needsFromAppraisal, updateMotivation } from './needs.ts';
import { pullMood, recordMood } from './mood.ts';
import { observe, interact } from './affect.ts';
import { relate, unitWorldTrust } from './relationships.ts';
import { appraiseEsteem } from './selfesteem.ts';
import { updateGoals } from './goals.ts';
import { feel } from './somatic.ts';
import { strain } from './mask.ts';
import { remember } from './memory.ts';
import { readable } from './language.ts';
import { tell } from './narrative.ts';
import { awareness, reflect, reflectionReason, reviseSelfConcept } from './reflection.ts';
import { discreteOf } from './discrete.ts';
import { actOf, reply } from './text.ts';
import { offset } from './catastrophe.ts';
import { repair } from './create.ts';
import { add, boundVad, clamp01, fin, pushCapped, readVad, round, sub, vad } from './util.ts';
import { getOwn } from '../keyed.ts';

export const TURN = {
  /** Seconds of talk one chat message stands for: the emotion relaxes that long before it is felt. */
  SECONDS: 20,
} as const;

export function perceive(snapshot: PersonaSnapshot, config: PersonaConfig, given: Percept): EntityResponse {
  // Its text and type as far as a persona reads them (language.ts readable): every step below reads
  // words, and what a client sends may be up to a megabyte of them.
  const percept: Percept = {
    ...given,
    ...(typeof given.type === 'string' ? { type: readable(given.type) } : {}),
    ...(typeof given.text === 'string' ? { text: readable(given.text) } : {}),
  };
  const s = repair(snapshot, config);
  const st = s.state;
  const t = traits(config);
  const inn = internals(s);
  const home = baseline(t);
  inn.home = home;
  const now = fin(percept.timestamp, st.lastUpdated);
  // The emotion as the percept finds it: its change and the monotonicity guard are measured from here.
  const before: VAD = { ...st.emotion };
  if (percept.kind === 'chat') relaxEmotion(st, add(s.mood, offset(st.catastrophe.z)), TURN.SECONDS, t);
  // The monotonicity guard compares with the emotion after the turn's time: time is not the percept.
  const settledV = st.emotion.V;
  const stim = percept.stimulus ?? {};
  const text = percept.text ?? '';
  const key = percept.source ?? percept.sourceId;
  const social = key !== undefined;
  inn.turn += 1;

  let transition: string | undefined;
  // A forced stage starts afresh, and the percept that forced it adds no load to it.
  const forced = typeof stim.soulStageForce === 'number' && Number.isFinite(stim.soulStageForce);
  if (forced) {
    const f = forceStage(st.soul_stage, stim.soulStageForce as number);
    st.soul_stage = f.stage;
    transition = f.transition;
  }

  const rel = key !== undefined ? getOwn(s.relationships, key) : undefined;
  // Mean of the finite trusts known (the persona's own, the world's), each clamped into [0, 1].
  let trustSum = 0, trusts = 0;
  const own = rel?.trust, world = unitWorldTrust(percept.worldTrust);
  if (typeof own === 'number' && Number.isFinite(own)) { trustSum += clamp01(own); trusts++; }
  if (typeof world === 'number' && Number.isFinite(world)) { trustSum += clamp01(world); trusts++; }
  const ap = appraise(s, percept, {
    traits: t, trust: trusts ? trustSum / trusts : undefined,
    autonomy: st.need_state.autonomy, stage: st.soul_stage,
  });
  const a = ap.appraisal;
  inn.predictionError = round(ap.error);
  learn(st.prediction_model, a);

  // Regulation acts on the appraised impulse; an explicit vadDelta is applied as given. The stressor
  // loads the stage and the cusp as regulated (demand); the emotion feels it adapted (see adapt).
  // An acute harm first interrupts a pleasant state (a good mood does not turn an insult into relief).
  interrupt(st, home, a.goal_congruence);
  let demand = attenuate(st, impulseOf(a, ap.sentiment, text.length > 0, t, st.soul_stage, ap.reading));
  let impulse = adapt(demand, st.emotion, home);
  // The momentum of earlier percepts adapts the same way (else it carries the emotion to the bounds).
  st.velocity = boundVad(adapt(st.velocity, st.emotion, home));
  if (stim.vadDelta) {
    const delta = readVad(stim.vadDelta as Partial<VAD>);
    impulse = add(impulse, delta);
    demand = add(demand, delta);
  }
  applyImpulse(st, impulse, dampingOf(t, stim.dampingOverride));
  if (stim.vadOverride) {
    st.emotion = readVad(stim.vadOverride as Partial<VAD>, st.emotion);
    st.velocity = { V: 0, A: 0, D: 0 };
  }

  const load = strainOf(demand), relief = reliefOf(demand);
  const dz = step(st.catastrophe, CUSP.ALPHA_STRAIN * load - CUSP.ALPHA_RELIEF * relief + fin(stim.catastropheAlphaDelta, 0), t.N, st.emotion.A);
  if (dz) nudge(st, jumpEffect(dz));

  work(s, now);
  // Appraisal theory's monotonicity: a goal-congruent, norm-compatible event does not make the
  // persona feel worse. Regulation pulling toward an older target or a cusp jump may not undo that
  // (an explicit vadDelta / vadOverride / α push is the caller's to give and is applied as given).
  if (a.goal_congruence > 0 && a.norm_compatibility >= 0 && !stim.vadDelta && !stim.vadOverride && !(fin(stim.catastropheAlphaDelta, 0) > 0) && st.emotion.V < settledV) {
    st.emotion = { ...st.emotion, V: settledV };
    st.velocity = { ...st.velocity, V: Math.max(0, st.velocity.V) };
  }

  const reminded = remind(s, a, ap.reading, now);
  settleDefenses(s, t, now);
  if (s.tmt.proximalDefense) nudge(st, vad(0, -TMT.SUPPRESS_AROUSAL * s.tmt.defenseStrength, 0));

  spend(st, impulse, stim.bodyBudgetDelta);
  st.need_state = addNeeds(addNeeds(st.need_state, needsFromAppraisal(a, social)), stim.needsDelta as Partial<NeedState> | undefined);
  if (!forced) {
    const moved = accumulate(st.soul_stage, load, relief, true);
    st.soul_stage = moved.stage;
    transition = moved.transition;
  }

  pullMood(s);
  recordMood(s);
  pushCapped(st.emotion_history, { ...st.emotion, timestamp: now }, DYN.HISTORY);
  observe(st);

  const socialUpdates = key !== undefined
    ? relate(s, t, key, percept.sourceId ?? key, a, now, percept.worldTrust, s.tmt.distalDefense ? s.tmt.defenseStrength : 0, percept.kind === 'chat' && text ? ap.stance : undefined)
    : [];
  if (key !== undefined) inn.lastSource = key;
  interact(s, t);
  appraiseEsteem(s.selfEsteem, a, social);
  updateMotivation(s, key ?? percept.type, a, key ?? (a.agency > 0.3 ? 'self' : 'circumstance'));
  const goalChanges = updateGoals(s.goals, inn.goalProgress, ap.reading.concepts, a, ap.relevanceGiven);

  feel(s, t);
  const maskExposure = strain(s, t, home, {
    provoked: social && a.goal_congruence < -0.5, normViolation: a.norm_compatibility < -0.3,
    jumped: dz !== 0, suppressing: activeStrategy(st) === 'response_modulation', mortality: reminded,
  });
  maybeStart(s, home, st.soul_stage.avoidance_mod, percept.type, now);

  st.prev_emotion_delta = boundVad(sub(st.emotion, before));
  const memoryEpisode = remember(s, percept.sourceId ?? key ?? 'world', text || `${percept.kind}:${percept.type}`, a, st.prev_emotion_delta, ap.error, now);
  tell(s, memoryEpisode, social);

  st.metacog.turns_since_check = fin(st.metacog.turns_since_check, 0) + 1;
  const reason = reflectionReason(s, config);
  const reflectionPrompt = reason ? reflect(s, config, reason) : undefined;
  if (reason) st.metacog.self_awareness = awareness(s);
  if (reason || goalChanges.achieved.length || goalChanges.abandoned.length) reviseSelfConcept(s, config);
  st.lastUpdated = Math.max(fin(st.lastUpdated, now), now);

  const discrete = discreteOf(st.emotion, home);
  const speaker = percept.source ?? percept.sourceId;
  const said = text ? reply(s, config, discrete, { reading: ap.reading, speaker, trust: key !== undefined ? s.relationships[key]?.trust : undefined }) : reply(s, config, discrete);
  if (text) {
    pushCapped(inn.conversation, { from: speaker ?? 'world', said: text.slice(0, 280), replied: said, act: actOf(ap.reading), at: now }, CONVERSATION);
  }
  const out: EntityResponse = {
    emotion: { ...st.emotion }, discrete, socialUpdates,
    memoryEpisode, goalChanges, text: said,
  };
  if (reflectionPrompt) out.reflectionPrompt = reflectionPrompt;
  if (transition) out.stageTransition = transition;
  if (maskExposure) out.maskExposure = maskExposure;
  return out;
}
