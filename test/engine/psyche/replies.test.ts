// Replies that answer what was said (issue 27): the class of the message decides the move (a
// question is answered by what it asks, a request is agreed to, a threat, an insult, a condolence
// each get their own), the state and the style colour it, and the persona greets only when greeted.
import { describe, expect, it } from 'vitest';
import { psyche } from '../../../reference/engine/psyche/index.ts';
import type { PersonaConfig } from '../../../contract/resources.ts';
import { ROSA } from './heldout/labels.ts';
import { TUNING } from './heldout/tuning.ts';

const rosa = (speakingStyle = 'plain') => psyche.normalizeConfig({ ...ROSA, identity: { ...ROSA.identity!, speakingStyle } } as Partial<PersonaConfig>, 'Rosa');
function answer(text: string, speakingStyle?: string): string {
  const config = rosa(speakingStyle);
  // Each message to its own persona (as each world's persona has its own seed).
  const snap = psyche.create(config, `replies/${text}`, 0);
  return psyche.perceive(snap, config, { kind: 'chat', type: 'chat', source: 'guest', sourceId: 'g1', text, timestamp: 0 }).text;
}

/** Replies that acknowledge without answering: right for small talk, wrong for anything else. */
const FILLER = /^(I see\.|Go on, I'm listening\.|Is that so\? Tell me more\.|Mm\. Go on\.|I suppose so\.|Is that so\.|Fine\.|Whatever you say\.)$/;

describe('replies answer what was said', () => {
  it('a question is answered by what it asks, a request is agreed to', () => {
    const said = {
      time: answer('What time is breakfast served?'),
      place: answer('Where can I buy a map of the town?'),
      have: answer('Do you have a room with two beds?'),
      favour: answer('Could you wake me at six tomorrow?'),
      may: answer('Can I leave my bags here until noon?'),
      price: answer('How much is a room for a week?'),
      request: answer('Please pass the salt.'),
    };
    expect(said.time).toMatch(/time|when/i);
    expect(said.time).toMatch(/breakfast/i);
    expect(said.place).toMatch(/way|point|map|far/i);
    expect(said.have).toMatch(/check|see what|look/i);
    expect(said.favour).toMatch(/of course|see to it|take care|consider it done/i);
    expect(said.may).toMatch(/of course|yes|certainly/i);
    expect(said.price).toMatch(/price/i);
    expect(said.request).toMatch(/of course|certainly|take care|here you are/i);
    for (const t of Object.values(said)) expect(t).not.toMatch(/good question|let me think about it|hard to say/i);
  });

  it('greets only when greeted, and then greets back', () => {
    expect(answer('I know which school your daughter walks to every morning.')).not.toMatch(/hello|good (morning|day)|hi\b|good to see you/i);
    expect(answer('We get fish every morning from the harbor.')).not.toMatch(/hello|good (morning|day)|good to see you/i);
    expect(answer('Good morning! The harbor looks lovely today.')).toMatch(/^Good morning!/);
    expect(answer('Hello!')).toMatch(/hello|hi|good day/i);
  });

  it('the style colours the reply but never turns grief or a threat into cheer', () => {
    for (const grave of ['My father died last week.', "I can't stop crying since the accident.", 'Pay up by Friday or your inn burns.', 'You are a useless idiot.']) {
      const t = answer(grave, 'warm and informal');
      expect(t, grave).not.toMatch(/^Hey,/);
      expect(t, grave).not.toMatch(/glad we can talk/);
    }
    expect(answer('My father died last week.', 'warm and informal')).toMatch(/sorry|loss/);
    expect(answer('Your stew is wonderful!', 'warm and informal')).toMatch(/^Hey, .*glad we can talk/);
  });

  it('a message that calls for a reaction is never answered with a filler (tuning half)', () => {
    const called = TUNING.filter((l) => ![l.expect].flat().includes('neutral') && l.cls !== 'sarcasm');
    const fillers = called.map((l) => `${l.message} → ${answer(l.message)}`).filter((x) => FILLER.test(x.split(' → ')[1]));
    expect(fillers).toEqual([]);
    const texts = new Set(TUNING.map((l) => answer(l.message)));
    // Many different answers, not three stock phrases (the issue counted 71 distinct texts in 498 runs).
    expect(texts.size).toBeGreaterThanOrEqual(TUNING.length / 3);
  });
});
