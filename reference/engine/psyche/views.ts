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
import type { VAD } from '../../../contract/resources.ts';

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
 * The relationship a context reports when no one is named: whom the persona last dealt with. That is
 * the source of its last percept (`psyche.lastSource`, in order of arrival: chats at one world time
 * tie on `lastInteraction`); for an older snapshot without it, the most recent `lastInteraction`,
 * ties broken by the later place in the conversation, then by the first key in code-unit order.
 */
export function latestRelationship(s: PersonaSnapshot): PersonaRelationship | undefined {
  return latestOf(s)?.rel;
}

function latestOf(s: PersonaSnapshot): { name: string; rel: PersonaRelationship } | undefined {
  const rels = s.relationships ?? {};
  const last = (s as { psyche?: { lastSource?: unknown } }).psyche?.lastSource;
  if (typeof last === 'string' && Object.hasOwn(rels, last) && rels[last] && typeof rels[last] === 'object') return { name: last, rel: rels[last] };
  const talk = Array.isArray((s as { psyche?: { conversation?: unknown } }).psyche?.conversation) ? internals(s).conversation : [];
  const spoke = (key: string) => { for (let i = talk.length - 1; i >= 0; i--) if (talk[i].from === key) return i; return -1; };
  let best: { name: string; rel: PersonaRelationship } | undefined;
  for (const [key, rel] of Object.entries(rels)) {
    if (!rel || typeof rel !== 'object') continue;
    if (!best) { best = { name: key, rel }; continue; }
    const at = fin(rel.lastInteraction, -Infinity), bestAt = fin(best.rel.lastInteraction, -Infinity);
    const later = at > bestAt || (at === bestAt && (spoke(key) > spoke(best.name) || (spoke(key) === spoke(best.name) && key < best.name)));
    if (later) best = { name: key, rel };
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
  return latestOf(s);
}

/**
 * What the world knows that the persona's own state does not: the world's identity, the facts the
 * persona knows, and who the people around it are (their configured role, the world's tie between
 * them). The world side fills it (the world context); a standalone persona has none.
 */
export interface BriefWorld {
  name?: string;
  description?: string;
  facts?: string[];
  people?: Record<string, { role?: string; ties?: string[] }>;
}

/** Plain words for what the state's names mean, so an LLM can act on them (no "docile", no percentages). */
export const PLAIN = {
  feeling: {
    anger: 'angry', hate: 'full of hatred', reproach: 'reproachful', disliking: 'put off', fear: 'afraid', fears_confirmed: 'in despair',
    distress: 'distressed', disappointment: 'disappointed', shame: 'ashamed', joy: 'glad', gratification: 'proud and pleased',
    happy_for: 'happy for someone', satisfaction: 'satisfied', pride: 'proud', relief: 'relieved', gloating: 'smug', gratitude: 'grateful',
    admiration: 'admiring', love: 'loving', liking: 'fond', hope: 'hopeful', surprise: 'surprised', calm: 'calm', neutral: 'even and composed',
  } as Record<string, string>,
  mood: {
    exuberant: 'bright and full of energy', dependent: 'warm but in need of others', relaxed: 'content and at ease', docile: 'quietly content',
    bored: 'flat and listless', disdainful: 'cold and aloof', anxious: 'tense and worried', hostile: 'irritable', even: 'even',
  } as Record<string, string>,
  stage: [
    'You are at peace inside: you think before you react.',
    'You are uneasy inside: you react a little more on impulse than usual.',
    'You are distressed inside: your feelings often get ahead of your judgement.',
    'You are in crisis inside: you mostly act on impulse.',
    'You are close to breaking: you act on raw impulse.',
  ],
  coping: {
    situation_selection: 'you want to get away from what upsets you', situation_modification: 'you try to change what upsets you',
    attentional_deployment: 'you try to think about something else', cognitive_reappraisal: 'you try to see things in a different light',
    response_modulation: 'you try not to let your feelings show',
  } as Record<string, string>,
} as const;

const feelingWord = (label: string) => PLAIN.feeling[label] ?? label.replace(/_/g, ' ');
const times = (n: number) => (n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`);
const POSITIVE_LABELS = new Set(['joy', 'gratification', 'happy_for', 'satisfaction', 'pride', 'relief', 'gloating', 'gratitude', 'admiration', 'love', 'liking', 'hope']);
const NEGATIVE_LABELS = new Set(['anger', 'hate', 'reproach', 'disliking', 'fear', 'fears_confirmed', 'distress', 'disappointment', 'shame']);

/**
 * How a memory felt, in a word that agrees with what happened: the label of the emotion it left,
 * unless that label's sign contradicts the episode's own appraisal (a good mood could leave a death
 * remembered as "glad"); then what the event was for the persona ("it hurt", "it pleased you").
 */
export function feltOf(m: MemoryEpisode, home: VAD): string {
  const label = discreteOf(m.emotionSnapshot, home).primary;
  const c = fin(m.appraisal?.goal_congruence, 0);
  if (c <= -0.3 && !NEGATIVE_LABELS.has(label)) return 'hurt';
  if (c >= 0.3 && !POSITIVE_LABELS.has(label)) return 'pleased';
  return feelingWord(label);
}

/** Who someone is, from the world: "Lucia (medical student, Rosa's daughter; family)". */
function whoIs(name: string, world?: BriefWorld): string {
  const p = world?.people?.[name];
  const parts = [p?.role, p?.ties?.length ? p.ties.join(', ') : undefined].filter((x): x is string => !!x);
  return parts.length ? `${name} (${parts.join('; ')})` : name;
}

/**
 * The system prompt's lines, coherent with the state by construction: the feeling is the discrete
 * label read from the resting point (the same as the state's), said in a plain word; the mood is
 * named relative to the resting point ("even" near it) in plain words; the body is described from
 * the same emotion when its map has not caught up. Then who the persona is talking with (by name,
 * with the role and ties the world gives), the world it lives in and what it knows, memories (felt
 * as they were) and the conversation.
 */
export function promptLines(s: PersonaSnapshot, config: PersonaConfig, world?: BriefWorld): string[] {
  const id = config.identity;
  const e = readVad(s.state.emotion);
  const home = restingPoint(s);
  const d = labelOf(s);
  const inn = internals(s);
  const lines = [`You are ${id.name}, ${id.role}.`, `You speak in a ${id.speakingStyle} manner.`];
  if (id.culturalIdentity && id.culturalIdentity !== 'unspecified') lines.push(`Your cultural identity: ${id.culturalIdentity}.`);
  if (id.coreValues?.length) lines.push(`Your core values: ${id.coreValues.join(', ')}.`);
  if (world?.name) lines.push(`You live in ${world.name}${world.description ? `: ${world.description.replace(/\.$/, '')}` : ''}.`);
  if (world?.facts?.length) lines.push('What you know:', ...world.facts.map((f) => `- ${f}`));
  lines.push(`Self-concept: ${s.selfConcept}`);
  const goals = s.goals.filter((g) => g.status === GOAL_STATUS.active).sort((a, b) => fin(b.priority, 0) - fin(a.priority, 0));
  if (goals.length) lines.push(`Your goals: ${goals.map((g) => `${g.content || g.id}${progressWords(fin(inn.goalProgress[g.id], 0))}`).join('; ')}.`);
  const closed = s.goals.filter((g) => g.status === GOAL_STATUS.achieved || g.status === GOAL_STATUS.abandoned);
  if (closed.length) lines.push(`Behind you: ${closed.map((g) => `${g.content || g.id} (${g.status})`).join('; ')}.`);
  lines.push(d.primary === 'neutral'
    ? `Right now you feel even and composed (valence ${f2(e.V)}, arousal ${f2(e.A)}, dominance ${f2(e.D)}).`
    : `Right now you feel ${feelingWord(d.primary)} (${strength(d.intensity)}, ${f2(d.intensity)}), and a little ${feelingWord(d.secondary)}; `
      + `valence ${f2(e.V)}, arousal ${f2(e.A)}, dominance ${f2(e.D)}.`);
  const mood = octant(readVad(s.mood), home);
  lines.push(mood === 'even' ? 'Underneath, your mood is even.' : `Underneath, your mood is ${PLAIN.mood[mood]} (it changes slowly).`);
  const body = sensations(s);
  lines.push(body.length ? `In your body: ${body.join(', ')}.` : d.intensity >= 0.3 ? `Your body is tense with it.` : 'Your body feels calm.');
  const st = s.state.soul_stage;
  lines.push(PLAIN.stage[Math.min(4, Math.max(0, Math.round(fin(st.id, 0))))]);
  if (s.maskState !== 'intact') lines.push(`Your composure is ${s.maskState}; your true feelings ${fin(s.maskIntegrity, 1) < 0.3 ? 'show openly' : 'are hard to hide'}.`);
  const act = activeStrategy(s.state);
  lines.push(act ? `To cope right now, ${PLAIN.coping[act] ?? act.replace(/_/g, ' ')}.` : `When upset, ${PLAIN.coping[favourite(s.state.regulation.strategy_weights)] ?? 'you cope as you can'}.`);
  const mode = defenseMode(s);
  if (mode !== 'none') lines.push(mode === 'proximal' ? 'Thoughts of death press on you; you push them away.' : 'A quiet fear of mortality makes you cling to your own people and values.');
  const speaker = speakerOf(s);
  if (speaker) {
    const r = speaker.rel;
    lines.push(`You are talking with ${whoIs(speaker.name, world)}: your trust in them is ${level(fin(r.trust, 0.5))} (${f2(fin(r.trust, 0.5))}), closeness ${level(fin(r.intimacy, 0))}, `
      + `attachment ${r.attachmentStyle}; you have spoken ${times(fin(r.interactionCount, 0))}.`);
  }
  const memories = recall(s, speaker?.name);
  if (memories.length) {
    lines.push('Memories that matter now:');
    for (const m of memories) lines.push(`- ${m.context} (from ${nameOf(s, m.sourceEntity)}; you felt ${feltOf(m, home)})`);
  }
  const talk = inn.conversation.slice(-CONVERSATION_LINES);
  if (talk.length) {
    lines.push('The conversation so far:');
    for (const t of talk) lines.push(`${t.from}: ${t.said}`, `${id.name}: ${t.replied}`);
  }
  return lines;
}

/** What an LLM needs to speak as the persona, beyond its state (the world context's `persona`). */
export function brief(s: PersonaSnapshot, config: PersonaConfig, world?: BriefWorld) {
  const id = config.identity;
  const inn = internals(s);
  const speaker = speakerOf(s);
  const home = restingPoint(s);
  return {
    identity: { name: id.name, role: id.role, speakingStyle: id.speakingStyle, culturalIdentity: id.culturalIdentity, coreValues: [...(id.coreValues ?? [])] },
    selfConcept: s.selfConcept,
    goals: s.goals.map((g) => ({ id: g.id, content: g.content, priority: g.priority, status: g.status, progress: fin(inn.goalProgress[g.id], 0) })),
    talkingWith: speaker ? {
      name: speaker.name, trust: fin(speaker.rel.trust, 0.5), intimacy: fin(speaker.rel.intimacy, 0), attachmentStyle: String(speaker.rel.attachmentStyle),
      ...(world?.people?.[speaker.name]?.role ? { role: world.people[speaker.name].role } : {}),
      ...(world?.people?.[speaker.name]?.ties?.length ? { ties: [...world.people[speaker.name].ties!] } : {}),
    } : null,
    memories: recall(s, speaker?.name).map((m) => ({ context: m.context, from: nameOf(s, m.sourceEntity), felt: discreteOf(m.emotionSnapshot, home).primary, feltWord: feltOf(m, home), importance: m.importance })),
    conversation: inn.conversation.slice(-CONVERSATION_LINES).map((t) => ({ from: t.from, said: t.said, replied: t.replied })),
    prompt: promptLines(s, config, world).join('\n'),
  };
}
