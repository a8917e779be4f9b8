// The default reply and the prompt lines.
import { describe, expect, it } from 'vitest';
import { psyche } from '../../../reference/engine/psyche/index.ts';
import { discreteOf, octant, PROTOTYPES } from '../../../reference/engine/psyche/discrete.ts';
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
    expect(texts('casual')).toMatch(/^Hey, /);
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

describe('prompt lines', () => {
  it('describe identity, goals and feelings', () => {
    const { config, snap } = persona({ identity: { role: 'innkeeper', coreValues: ['honesty'] }, goals: [{ content: 'keep the inn open' }] });
    psyche.perceive(snap, config, chat(INSULT));
    const lines = psyche.promptLines(snap, config).join('\n');
    expect(lines).toContain('You are ada, innkeeper.');
    expect(lines).toContain('honesty');
    expect(lines).toContain('keep the inn open');
    expect(lines).toContain(`you feel ${psyche.discrete(snap).primary}`);
  });
});
