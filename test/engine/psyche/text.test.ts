// The default reply and the prompt lines.
import { describe, expect, it } from 'vitest';
import { psyche } from '../../../reference/engine/psyche/index.ts';
import { discreteOf, octant, PROTOTYPES } from '../../../reference/engine/psyche/discrete.ts';
import { PLAIN } from '../../../reference/engine/psyche/views.ts';
import { chat, INSULT, persona, PRAISE } from './helpers.ts';

describe('discrete emotion', () => {
  it('each prototype maps to itself; weak emotions read neutral', () => {
    for (const [name, p] of Object.entries(PROTOTYPES)) expect(discreteOf(p).primary).toBe(name);
    expect(discreteOf({ V: 0.05, A: 0, D: 0 }).primary).toBe('neutral');
    expect(discreteOf({ V: 0, A: 0, D: 0 })).toEqual({ primary: 'neutral', secondary: 'neutral', intensity: 0 });
    const d = discreteOf({ V: -0.6, A: 0.6, D: 0.3 });
    expect(d.primary).toBe('hate');
    expect(d.secondary).not.toBe(d.primary);
    expect(discreteOf({ V: -0.2, A: 0.2, D: 0.1 }).intensity).toBeLessThan(d.intensity);
    expect(octant({ V: -0.5, A: 0.5, D: 0.5 })).toBe('hostile');
    expect(octant({ V: 0.5, A: -0.5, D: 0.5 })).toBe('relaxed');
  });
});

describe('reply text', () => {
  it('follows the emotion: hostile after insults, warm or glad after praise', () => {
    const a = persona();
    let r = psyche.perceive(a.snap, a.config, chat(INSULT));
    r = psyche.perceive(a.snap, a.config, chat(INSULT));
    expect(r.text).toMatch(/^Again\? (I don't appreciate that|That's out of line|Watch your tone)/);
    const b = persona();
    const p = psyche.perceive(b.snap, b.config, chat(PRAISE));
    // PRAISE thanks and admires the persona: an answer to praise, warm or glad.
    expect(p.text).toMatch(/means a lot|kind of you|blush|appreciate it|know what to say/);
  });

  it('is shaped by speakingStyle', () => {
    const texts = (style: string) => {
      const { config, snap } = persona({ identity: { speakingStyle: style } });
      psyche.perceive(snap, config, chat(INSULT));
      return psyche.perceive(snap, config, chat(INSULT)).text;
    };
    expect(texts('formal')).not.toMatch(/\b(I'm|don't|won't|That's)\b/);
    // Casual colours light talk; an insult gets no cheerful "Hey," (issue 27: style used to override the act).
    expect(texts('casual')).not.toMatch(/^Hey, /);
    const { config: cc, snap: cs } = persona({ identity: { speakingStyle: 'casual' } });
    expect(psyche.perceive(cs, cc, chat(PRAISE)).text).toMatch(/^Hey, /);
    expect(texts('terse').split(/[.!?]/).filter(Boolean).length).toBe(1);
    expect(texts('poetic')).toMatch(/storm/);
  });

  it('reads a style cue only at the start of a word: "warmly" is warm, "unkind" is not, "impolite" is not formal', () => {
    const praised = (style: string) => {
      const { config, snap } = persona({ identity: { speakingStyle: style } });
      return psyche.perceive(snap, config, chat(PRAISE)).text;
    };
    const plain = praised('plain');
    expect(praised('Warmly')).toBe(`${plain} I'm glad we can talk.`);
    expect(praised('unkind')).toBe(plain);
    expect(praised('impolite and rude')).toBe(plain);
    // Casual, and not formal: no contraction is expanded.
    expect(praised('Informal')).toBe(`Hey, ${plain.charAt(0).toLowerCase()}${plain.slice(1)}`);
  });
});

describe('replies that answer the message', () => {
  const answer = (text: string, input = {}) => {
    const { config, snap } = persona(input);
    return psyche.perceive(snap, config, chat(text)).text;
  };

  it('answer what was said, not only how the persona feels', () => {
    expect(answer('Please pass the salt.')).not.toMatch(/won't let that pass|out of line|appreciate that/);
    expect(answer('Nobody likes you, you pathetic fool.')).toMatch(/appreciate that|out of line|tone|hurts|deserve|stop|fight|say so|pass|kind/);
    expect(answer('Nobody likes you, you pathetic fool.')).not.toMatch(/pleased|wonderful|happy/);
    expect(answer('If you cross me again I will hurt you.')).toMatch(/trouble|frightening|alone|threat|bullied|scare|talk like that|calm down/);
    expect(answer('I feel so sad and lonely since my dog died.')).toMatch(/sorry|loss|here/);
    expect(answer('My father passed away last week.')).toMatch(/sorry|loss|your father/);
    expect(answer('Your brother died this morning.')).toMatch(/my brother|believe|moment|Not/);
    expect(answer('How are you today?')).toMatch(/I feel|I'm|if I am honest/);
  });

  it('are coherent over turns: a repeated insult is noticed, and no sentence comes twice in a row', () => {
    const { config, snap } = persona();
    const first = psyche.perceive(snap, config, chat('You are a useless idiot.')).text;
    const second = psyche.perceive(snap, config, chat('You are a useless idiot.')).text;
    expect(second.startsWith('Again? ')).toBe(true);
    expect(second.slice('Again? '.length)).not.toBe(first);
    const replies: string[] = [];
    const b = persona({}, 'seed-2');
    for (let i = 0; i < 8; i++) replies.push(psyche.perceive(b.snap, b.config, chat('The train leaves at six.')).text);
    for (let i = 1; i < replies.length; i++) expect(replies[i]).not.toBe(replies[i - 1]);
  });

  it('keep "I" capital in a casual style, and name a trusted speaker', () => {
    const { config, snap } = persona({ identity: { speakingStyle: 'casual' } });
    const texts = ['If you cross me again I will hurt you.', 'How are you today?', 'Thank you, you are so kind.']
      .map((t) => psyche.perceive(snap, config, chat(t)).text);
    // A threat is answered without the casual opener (issue 27); the light ones with it.
    expect(texts.map((t) => t.startsWith('Hey, '))).toEqual([false, true, true]);
    for (const t of texts) expect(t).not.toMatch(/\bi\b|\bi'm\b/);
    const friend = persona({}, 'seed-3');
    for (let i = 0; i < 12; i++) psyche.perceive(friend.snap, friend.config, chat('You are wonderful and I admire you.', 'cara'));
    expect(friend.snap.relationships.cara.trust).toBeGreaterThanOrEqual(0.6);
    const hello = ['Hello!', 'Hi there!', 'Good morning!'].map((t) => psyche.perceive(friend.snap, friend.config, chat(t, 'cara')).text);
    expect(hello.some((t) => t.includes(', cara'))).toBe(true);
  });
});

describe('prompt lines', () => {
  it('describe identity, goals and feelings', () => {
    const { config, snap } = persona({ identity: { role: 'innkeeper', coreValues: ['honesty'] }, goals: [{ content: 'keep the inn open' }] });
    psyche.perceive(snap, config, chat(INSULT));
    const lines = psyche.promptLines(snap, config).join('\n');
    expect(lines).toContain('You are ada, innkeeper.');
    expect(lines).toContain('honesty');
    expect(lines).toContain('keep the inn open');
    // In a plain word (issue 27): "angry", not "anger"; "in despair", not "fears confirmed".
    expect(lines).toContain(`you feel ${PLAIN.feeling[psyche.discrete(snap).primary]}`);
  });
});
