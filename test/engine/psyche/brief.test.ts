// The LLM brief (issue 27): it never contradicts the state, in plain words, at any step of the
// realistic session; it names the right people (the last speaker, by order of arrival when chats
// share a world time), their roles and ties as configured, the world's identity and the facts the
// persona knows.
import { describe, expect, it } from 'vitest';
import { psyche } from '../../../reference/engine/psyche/index.ts';
import { octant } from '../../../reference/engine/psyche/discrete.ts';
import { restingPoint } from '../../../reference/engine/psyche/internals.ts';
import { activeStrategy } from '../../../reference/engine/psyche/regulation.ts';
import { PLAIN } from '../../../reference/engine/psyche/views.ts';
import { chat, context, newWorld, upsertRelationship } from '../../../reference/engine/world/index.ts';
import type { PersonaSnapshot } from '../../../contract/resources.ts';
import { CONFIGS, realisticSession } from './realistic.ts';

const strength = (x: number) => (x < 0.25 ? 'slight' : x < 0.5 ? 'clear' : x < 0.75 ? 'strong' : 'overwhelming');
/** Names of the state an LLM cannot act on. */
const JARGON = /docile|dependent|disdainful|rationally|on impulse\)|response modulation|cognitive reappraisal|situation selection|attentional deployment|fears confirmed|happy for\b|\b1 times\b|\b2 times\b/;

/** Every way the prompt could say something the state does not. */
function contradictions(snap: PersonaSnapshot, lastSpeaker: string | undefined): string[] {
  const b = psyche.brief(snap, CONFIGS.steady);
  const p = b.prompt;
  const out: string[] = [];
  const d = psyche.discrete(snap);
  const felt = /Right now you feel (.+?) \((?:(slight|clear|strong|overwhelming), )?/.exec(p);
  if (felt?.[1] !== PLAIN.feeling[d.primary]) out.push(`feels "${felt?.[1]}", the state says ${d.primary}`);
  if (d.primary !== 'neutral' && felt?.[2] !== strength(d.intensity)) out.push(`strength "${felt?.[2]}" for intensity ${d.intensity}`);
  const mood = /Underneath, your mood is (.+?)(?: \(|\.)/.exec(p)?.[1];
  if (mood !== PLAIN.mood[octant(snap.mood, restingPoint(snap))]) out.push(`mood "${mood}"`);
  if (d.intensity >= 0.3 && p.includes('Your body feels calm')) out.push('a calm body with a strong feeling');
  if (!p.includes(PLAIN.stage[snap.state.soul_stage.id])) out.push(`stage ${snap.state.soul_stage.id} not said`);
  if ((snap.maskState !== 'intact') !== p.includes(`Your composure is ${snap.maskState}`)) out.push(`mask ${snap.maskState}`);
  const coping = activeStrategy(snap.state);
  if (coping && !p.includes(PLAIN.coping[coping])) out.push(`coping by ${coping} not said`);
  if (lastSpeaker && b.talkingWith?.name !== lastSpeaker) out.push(`talking with ${b.talkingWith?.name}, last spoke ${lastSpeaker}`);
  for (const m of b.memories) {
    const ep = (snap as unknown as { psyche: { episodes: Array<{ context: string; appraisal: { goal_congruence: number } }> } }).psyche.episodes.find((e) => e.context === m.context);
    const c = ep?.appraisal.goal_congruence ?? 0;
    const word = m.feltWord;
    const good = ['glad', 'proud and pleased', 'happy for someone', 'satisfied', 'proud', 'relieved', 'smug', 'grateful', 'admiring', 'loving', 'fond', 'hopeful', 'pleased'].includes(word);
    const bad = ['angry', 'full of hatred', 'reproachful', 'put off', 'afraid', 'in despair', 'distressed', 'disappointed', 'ashamed', 'hurt'].includes(word);
    if ((c <= -0.3 && !bad) || (c >= 0.3 && !good)) out.push(`memory "${m.context.slice(0, 40)}" (congruence ${c}) felt as ${word}`);
  }
  const jargon = JARGON.exec(p);
  if (jargon) out.push(`jargon "${jargon[0]}"`);
  return out;
}

describe('the LLM brief never contradicts the state', () => {
  it('at any of the 200 steps of the realistic session, for both temperaments', () => {
    const found: string[] = [];
    for (const t of ['steady', 'volatile'] as const) {
      let last: string | undefined;
      for (const s of realisticSession(t)) {
        last = s.source ?? last;
        found.push(...contradictions(s.snap, last).map((c) => `${t} step ${s.step}: ${c}`));
      }
    }
    expect(found).toEqual([]);
  });
});

type WithBrief = { persona: ReturnType<typeof psyche.brief> };
const briefOf = (w: Parameters<typeof context>[0], name: string) => (context(w, name) as unknown as WithBrief).persona;

describe('the brief names the right people and the world', () => {
  const world = () => {
    const w = newWorld({
      definition: {
        identity: { name: 'Porto Azul', description: 'A fishing town on a windy coast.' },
        knowledge: { facts: [
          { id: 'f1', content: 'The ferry stops running in winter.', visibility: 'public', knownBy: [] },
          { id: 'f2', content: 'Lucia failed one exam in secret.', visibility: 'private', knownBy: ['Lucia'] },
        ] },
      },
      entities: [{ name: 'Rosa', type: 'persona' }, { name: 'Lucia', type: 'persona' }, { name: 'Ana', type: 'user' }],
      personaConfigs: {
        Rosa: { identity: { role: 'innkeeper' } },
        Lucia: { identity: { role: "medical student, Rosa's daughter" } },
      },
    } as Parameters<typeof newWorld>[0], 'w-brief', 0);
    upsertRelationship(w, 'Lucia', 'Rosa', { type: 'family', trust: 0.8 });
    return w;
  };

  it('the last speaker is whom the persona talks with, though chats share one world time', () => {
    const w = world();
    chat(w, { from: 'Ana', to: 'Rosa', message: 'Good morning, Rosa.' });
    chat(w, { from: 'Lucia', to: 'Rosa', message: 'Mother, I passed my exam!' });
    const persona = briefOf(w, 'Rosa');
    expect(persona.talkingWith?.name).toBe('Lucia');
    expect(persona.prompt).toContain("You are talking with Lucia (medical student, Rosa's daughter; family)");
    expect(persona.prompt).toContain('you have spoken once');
    expect(persona.talkingWith).toMatchObject({ role: "medical student, Rosa's daughter", ties: ['family'] });
    chat(w, { from: 'Ana', to: 'Rosa', message: 'Is the kitchen open?' });
    expect(briefOf(w, 'Rosa').talkingWith?.name).toBe('Ana');
  });

  it('others appear with their configured roles, and the world and what the persona knows are in the prompt', () => {
    const w = world();
    chat(w, { from: 'Ana', to: 'Rosa', message: 'Hello!' });
    const ctx = context(w, 'Rosa') as ReturnType<typeof context> & { persona: ReturnType<typeof psyche.brief> };
    expect(ctx.whoIsHere.find((e) => e.name === 'Lucia')?.profile.role).toBe("medical student, Rosa's daughter");
    expect(ctx.persona.prompt).toContain('You live in Porto Azul: A fishing town on a windy coast.');
    expect(ctx.persona.prompt).toContain('What you know:\n- The ferry stops running in winter.');
    expect(ctx.persona.prompt).not.toContain('failed one exam');
  });

  it('an older snapshot without the last source breaks ties by the conversation, not by the alphabet', () => {
    const config = psyche.normalizeConfig({ identity: { name: 'Rosa', role: 'innkeeper' } }, 'Rosa');
    const snap = psyche.create(config, 'old', 0);
    for (const from of ['Ana', 'Lucia']) psyche.perceive(snap, config, { kind: 'chat', type: 'chat', source: from, text: 'Hello.', timestamp: 0 });
    delete (snap as unknown as { psyche: { lastSource?: string } }).psyche.lastSource;
    expect(psyche.brief(snap, config).talkingWith?.name).toBe('Lucia');
  });
});
