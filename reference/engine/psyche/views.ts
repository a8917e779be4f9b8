// Read-only views of a snapshot: the standalone state (GET /personas/{id}/state), the personaState of
// a world context, and the lines of a system prompt.
import type { ContextPersonaState, PersonaConfig, PersonaRelationship, PersonaSnapshot, StandalonePersonaState } from '../../../contract/resources.ts';
import { discreteOf, labelOf, octant } from './discrete.ts';
import { internals, restingPoint } from './internals.ts';
import { salient } from './memory.ts';
import type { MemoryEpisode } from './types.ts';
import { sensations, REGIONS } from './somatic.ts';
import { coherenceOf } from './narrative.ts';
import { defenseMode } from './tmt.ts';
import { activeStrategy, favourite } from './regulation.ts';
import { REL } from './relationships.ts';
import { GOAL_STATUS } from './defaults.ts';
import { fin, readVad, round } from './util.ts';

const f2 = (x: number) => fin(x, 0).toFixed(2);

export function view(s: PersonaSnapshot): StandalonePersonaState {
  const e = readVad(s.state?.emotion);
  return {
    emotion: { vad: e, discrete: labelOf(s) },
    mood: { vad: readVad(s.mood) },
    somatic: sensations(s),
    narrative: { tone: round(fin(s.narrative?.tone, 0)), agency: round(fin(s.narrative?.agency, 0)), coherence: coherenceOf(s.narrative ?? ({} as PersonaSnapshot['narrative'])) },
  };
}

/**
 * The relationship a context reports when no one is named: the one with the most recent interaction
 * (ties: the first key in code-unit order), so the field follows whom the persona last dealt with.
 */
export function latestRelationship(s: PersonaSnapshot): PersonaRelationship | undefined {
  let best: PersonaRelationship | undefined;
  let bestKey = '';
  for (const [key, rel] of Object.entries(s.relationships ?? {})) {
    if (!rel || typeof rel !== 'object') continue;
    const at = fin(rel.lastInteraction, -Infinity), bestAt = best ? fin(best.lastInteraction, -Infinity) : -Infinity;
    if (!best || at > bestAt || (at === bestAt && key < bestKey)) {
      best = rel;
      bestKey = key;
    }
  }
  return best;
}

export function contextState(s: PersonaSnapshot, toward: PersonaRelationship | undefined = latestRelationship(s)): ContextPersonaState {
  const e = readVad(s.state.emotion);
  const st = s.state.soul_stage;
  const somatic: Record<string, number> = {};
  for (const r of REGIONS) somatic[r] = round(fin(s.somatic?.regions?.[r], 0));
  somatic.interoception = round(fin(s.somatic?.interoception, 0.5));
  return {
    emotion: { vad: e, discrete: labelOf(s) },
    soulStage: {
      id: fin(st.id, 0), name: String(st.name ?? ''),
      blendTable: { rational: fin(st.blend_table?.rational, 0.8), irrational: fin(st.blend_table?.irrational, 0.2) },
      turnsInStage: fin(st.turns_in_stage, 0),
    },
    mask: { integrity: fin(s.maskIntegrity, 1), state: String(s.maskState ?? 'intact') },
    mood: readVad(s.mood),
    somatic,
    narrative: { tone: round(fin(s.narrative?.tone, 0)), agency: round(fin(s.narrative?.agency, 0)), coherence: coherenceOf(s.narrative) },
    regulation: { activeStrategy: activeStrategy(s.state) ?? 'none' },
    selfEsteem: { global: fin(s.selfEsteem?.global, 0.5) },
    tmt: { mortalitySalience: fin(s.tmt?.mortalitySalience, 0), deathAnxiety: fin(s.tmt?.deathAnxiety, 0), defenseMode: defenseMode(s) },
    relationship: toward
      ? { trust: fin(toward.trust, REL.TRUST_DEFAULT), intimacy: fin(toward.intimacy, 0), attachmentStyle: String(toward.attachmentStyle ?? 'secure') }
      : { trust: REL.TRUST_DEFAULT, intimacy: 0, attachmentStyle: 'secure' },
  };
}

/** Who an episode's or a relationship's source is, by name: relationships are keyed by name and know the id. */
export function nameOf(s: PersonaSnapshot, source: string): string {
  if (s.relationships?.[source]) return source;
  for (const [key, rel] of Object.entries(s.relationships ?? {})) if (rel?.entityId === source) return key;
  return source;
}

/** Memories worth recalling: the most important recent ones, and the last ones involving `toward`. */
export function recall(s: PersonaSnapshot, toward: string | undefined, n = MEMORIES): MemoryEpisode[] {
  const picked = salient(s, n);
  if (toward) {
    const eps = internals(s).episodes;
    for (let i = eps.length - 1; i >= 0 && picked.length < n + 2; i--) {
      if (nameOf(s, eps[i].sourceEntity) === toward && !picked.includes(eps[i])) picked.push(eps[i]);
    }
  }
  return picked;
}

const MEMORIES = 3;
const CONVERSATION_LINES = 6;

const strength = (x: number) => (x < 0.25 ? 'slight' : x < 0.5 ? 'clear' : x < 0.75 ? 'strong' : 'overwhelming');
const level = (x: number) => (x < 0.2 ? 'very low' : x < 0.4 ? 'low' : x < 0.6 ? 'moderate' : x < 0.8 ? 'high' : 'very high');
const progressWords = (p: number) => (p >= 0.5 ? ' (close to it)' : p > 0.1 ? ' (getting there)' : p <= -0.5 ? ' (slipping away)' : p < -0.1 ? ' (setbacks)' : '');

/** The person the persona last dealt with, by name, and its relationship with them. */
function speakerOf(s: PersonaSnapshot): { name: string; rel: PersonaRelationship } | undefined {
  const rel = latestRelationship(s);
  if (!rel) return undefined;
  const name = Object.keys(s.relationships).find((k) => s.relationships[k] === rel)!;
  return { name, rel };
}

/**
 * The system prompt's lines, coherent with the state by construction: the feeling is the discrete
 * label read from the resting point (the same as the state's), the mood is named relative to the
 * resting point ("even" near it), and the body is described from the same emotion when its map has
 * not caught up. Then who the persona is talking with (by name), memories and the conversation.
 */
export function promptLines(s: PersonaSnapshot, config: PersonaConfig): string[] {
  const id = config.identity;
  const e = readVad(s.state.emotion);
  const home = restingPoint(s);
  const d = labelOf(s);
  const inn = internals(s);
  const lines = [`You are ${id.name}, ${id.role}.`, `You speak in a ${id.speakingStyle} manner.`];
  if (id.culturalIdentity && id.culturalIdentity !== 'unspecified') lines.push(`Your cultural identity: ${id.culturalIdentity}.`);
  if (id.coreValues?.length) lines.push(`Your core values: ${id.coreValues.join(', ')}.`);
  lines.push(`Self-concept: ${s.selfConcept}`);
  const goals = s.goals.filter((g) => g.status === GOAL_STATUS.active).sort((a, b) => fin(b.priority, 0) - fin(a.priority, 0));
  if (goals.length) lines.push(`Your goals: ${goals.map((g) => `${g.content || g.id}${progressWords(fin(inn.goalProgress[g.id], 0))}`).join('; ')}.`);
  const closed = s.goals.filter((g) => g.status === GOAL_STATUS.achieved || g.status === GOAL_STATUS.abandoned);
  if (closed.length) lines.push(`Behind you: ${closed.map((g) => `${g.content || g.id} (${g.status})`).join('; ')}.`);
  lines.push(d.primary === 'neutral'
    ? `Right now you feel even and composed (valence ${f2(e.V)}, arousal ${f2(e.A)}, dominance ${f2(e.D)}).`
    : `Right now you feel ${d.primary.replace(/_/g, ' ')} (${strength(d.intensity)}, ${f2(d.intensity)}), with a hint of ${d.secondary.replace(/_/g, ' ')}; `
      + `valence ${f2(e.V)}, arousal ${f2(e.A)}, dominance ${f2(e.D)}.`);
  const mood = octant(readVad(s.mood), home);
  lines.push(mood === 'even' ? 'Underneath, your mood is even.' : `Underneath, your mood has turned ${mood} (it changes slowly).`);
  const body = sensations(s);
  lines.push(body.length ? `In your body: ${body.join(', ')}.` : d.intensity >= 0.3 ? `Your body is tense with it.` : 'Your body feels calm.');
  const st = s.state.soul_stage;
  lines.push(`Inner state: ${st.name} (think ${Math.round(fin(st.blend_table?.rational, 0.8) * 100)}% rationally, ${Math.round(fin(st.blend_table?.irrational, 0.2) * 100)}% on impulse).`);
  if (s.maskState !== 'intact') lines.push(`Your composure is ${s.maskState}; your true feelings ${fin(s.maskIntegrity, 1) < 0.3 ? 'show openly' : 'are hard to hide'}.`);
  const act = activeStrategy(s.state);
  lines.push(act ? `You are trying to cope by ${act.replace(/_/g, ' ')}.` : `When upset you tend to rely on ${favourite(s.state.regulation.strategy_weights).replace(/_/g, ' ')}.`);
  const mode = defenseMode(s);
  if (mode !== 'none') lines.push(mode === 'proximal' ? 'Thoughts of death press on you; you push them away.' : 'A quiet fear of mortality makes you cling to your own people and values.');
  const speaker = speakerOf(s);
  if (speaker) {
    const r = speaker.rel;
    lines.push(`You are talking with ${speaker.name}: your trust in them is ${level(fin(r.trust, 0.5))} (${f2(fin(r.trust, 0.5))}), closeness ${level(fin(r.intimacy, 0))}, `
      + `attachment ${r.attachmentStyle}; you have spoken ${fin(r.interactionCount, 0)} times.`);
  }
  const memories = recall(s, speaker?.name);
  if (memories.length) {
    lines.push('Memories that matter now:');
    for (const m of memories) lines.push(`- ${m.context} (from ${nameOf(s, m.sourceEntity)}; you felt ${discreteOf(m.emotionSnapshot, home).primary.replace(/_/g, ' ')})`);
  }
  const talk = inn.conversation.slice(-CONVERSATION_LINES);
  if (talk.length) {
    lines.push('The conversation so far:');
    for (const t of talk) lines.push(`${t.from}: ${t.said}`, `${id.name}: ${t.replied}`);
  }
  return lines;
}

/** What an LLM needs to speak as the persona, beyond its state (the world context's `persona`). */
export function brief(s: PersonaSnapshot, config: PersonaConfig) {
  const id = config.identity;
  const inn = internals(s);
  const speaker = speakerOf(s);
  const home = restingPoint(s);
  return {
    identity: { name: id.name, role: id.role, speakingStyle: id.speakingStyle, culturalIdentity: id.culturalIdentity, coreValues: [...(id.coreValues ?? [])] },
    selfConcept: s.selfConcept,
    goals: s.goals.map((g) => ({ id: g.id, content: g.content, priority: g.priority, status: g.status, progress: fin(inn.goalProgress[g.id], 0) })),
    talkingWith: speaker ? { name: speaker.name, trust: fin(speaker.rel.trust, 0.5), intimacy: fin(speaker.rel.intimacy, 0), attachmentStyle: String(speaker.rel.attachmentStyle) } : null,
    memories: recall(s, speaker?.name).map((m) => ({ context: m.context, from: nameOf(s, m.sourceEntity), felt: discreteOf(m.emotionSnapshot, home).primary, importance: m.importance })),
    conversation: inn.conversation.slice(-CONVERSATION_LINES).map((t) => ({ from: t.from, said: t.said, replied: t.replied })),
    prompt: promptLines(s, config).join('\n'),
  };
}
