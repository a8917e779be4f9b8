// An LLM-ready context: the prompt lines never contradict the state (the feeling is the state's
// label, the mood is named from the resting point and "even" near it, a felt emotion never comes
// with "your body feels calm"), and they carry whom the persona talks with, by name, what it
// remembers and the conversation. The world context gives the configured role and the brief.
import { describe, expect, it } from 'vitest';
import { psyche } from '../../../reference/engine/psyche/index.ts';
import { octant } from '../../../reference/engine/psyche/discrete.ts';
import { restingPoint } from '../../../reference/engine/psyche/internals.ts';
import { PLAIN } from '../../../reference/engine/psyche/views.ts';
import { chat as worldChat, context, newWorld } from '../../../reference/engine/world/index.ts';
import { runSession, SESSION_CONFIG, type Sample } from './session.ts';

// Feelings and moods are said in plain words (issue 27: "your mood has turned docile" is jargon an
// LLM cannot act on); PLAIN maps each label and octant to its words.
const feelingOf = (prompt: string) => /Right now you feel (even and composed|[a-z ]+?) \(/.exec(prompt)?.[1];
const moodOf = (prompt: string) => /Underneath, your mood is ([a-z ]+?)(?: \(|\.)/.exec(prompt)?.[1];

function contradictions(s: Sample): string[] {
  const prompt = psyche.promptLines(s.snap, SESSION_CONFIG).join('\n');
  const out: string[] = [];
  const d = s.view.emotion.discrete;
  const felt = feelingOf(prompt);
  const expected = PLAIN.feeling[d.primary];
  if (felt !== expected) out.push(`feeling "${felt}" but the state says ${d.primary}`);
  const mood = moodOf(prompt);
  if (mood !== PLAIN.mood[octant(s.snap.mood, restingPoint(s.snap))]) out.push(`mood "${mood}"`);
  if (d.intensity >= 0.3 && prompt.includes('Your body feels calm')) out.push(`calm body with ${d.primary} ${d.intensity}`);
  if (/exuberant/.test(prompt) && Math.hypot(s.snap.mood.V - restingPoint(s.snap).V, s.snap.mood.A - restingPoint(s.snap).A, s.snap.mood.D - restingPoint(s.snap).D) < 0.05) out.push('exuberant at rest');
  return out;
}

describe('prompt-context', () => {
  it('never contradicts the state over a 200-turn session', () => {
    const found: string[] = [];
    runSession((s) => found.push(...contradictions(s).map((c) => `turn ${s.turn}: ${c}`)));
    expect(found).toEqual([]);
  });

  it('after an override to fear: fear, a stirred body, and a mood that is still its own', () => {
    const config = psyche.normalizeConfig({ identity: { name: 'Ines', role: 'ferry pilot' } }, 'Ines');
    const snap = psyche.create(config, 'o', 0);
    const atRest = psyche.promptLines(snap, config).join('\n');
    expect(atRest).toContain('Right now you feel even and composed');
    expect(atRest).toContain('Underneath, your mood is even.'); // a mood at rest is not "exuberant"
    expect(atRest).toContain('Your body feels calm.');
    psyche.override(snap, { V: -0.9, A: 0.9, D: -0.7 }, 1000);
    const lines = psyche.promptLines(snap, config).join('\n');
    expect(lines).toContain('Right now you feel afraid');
    expect(lines).not.toContain('Your body feels calm');
    expect(lines).toMatch(/In your body: .*pounding chest/);
    expect(contradictions({ turn: 0, snap, view: psyche.view(snap) })).toEqual([]);
  });

  it('names whom the persona talks with, what it remembers and the conversation, by name', () => {
    const config = psyche.normalizeConfig({ identity: { name: 'Mara', role: 'harbor keeper' } }, 'Mara');
    const snap = psyche.create(config, 'c', 0);
    const said = ['Good morning, Mara!', 'You are a useless idiot.', 'If you cross me again I will hurt you.'];
    let reflection = '';
    for (const [i, text] of said.entries()) {
      const out = psyche.perceive(snap, config, { kind: 'chat', type: 'chat', source: 'olek', sourceId: 'ent-7', text, timestamp: i * 1000 });
      reflection ||= out.reflectionPrompt?.user ?? '';
    }
    const prompt = psyche.promptLines(snap, config).join('\n');
    expect(prompt).toMatch(/You are talking with olek: your trust in them is (very low|low)/);
    expect(prompt).toContain('Memories that matter now:');
    expect(prompt).toContain('If you cross me again I will hurt you. (from olek;');
    expect(prompt).toContain('The conversation so far:\nolek: Good morning, Mara!\nMara: ');
    expect(prompt).not.toContain('ent-7');
    expect(reflection).toContain('(from olek;');
    expect(reflection).not.toContain('ent-7');
  });

  it('the world context gives the configured role and a brief for an LLM', () => {
    const world = newWorld({
      definition: { identity: { name: 'Harbor' } },
      entities: [{ name: 'mara', type: 'persona' }, { name: 'me', type: 'user' }],
      personaConfigs: { mara: { identity: { role: 'harbor keeper', speakingStyle: 'warm' }, goals: [{ content: 'keep the harbor safe' }] } },
    } as Parameters<typeof newWorld>[0], 'w-1', 0);
    worldChat(world, { from: 'me', to: 'mara', message: 'You are wonderful.' });
    const ctx = context(world, 'mara') as ReturnType<typeof context> & { persona: ReturnType<typeof psyche.brief> };
    expect(ctx.whoAmI.profile.role).toBe('harbor keeper');
    expect(ctx.persona.identity).toMatchObject({ name: 'mara', role: 'harbor keeper', speakingStyle: 'warm' });
    expect(ctx.persona.goals.map((g) => g.content)).toEqual(['keep the harbor safe']);
    expect(ctx.persona.talkingWith?.name).toBe('me');
    expect(ctx.persona.conversation).toEqual([{ from: 'me', said: 'You are wonderful.', replied: expect.any(String) }]);
    expect(ctx.persona.prompt).toContain('You are talking with me');
  });
});
