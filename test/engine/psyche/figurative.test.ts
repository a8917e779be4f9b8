// The reading of issue 36, rule by rule, on messages written for the rules (none is in a labelled
// set): hyperbole in violent or deathly words by its frame, deaths by their shape, the listener's
// own fault, long messages by their sentences, contrast, sarcasm's further forms, misspelt rated
// words and more emoji. Each case
// names the family a persona of every temperament feels, or the part of the reading the rule sets.
import { describe, expect, it } from 'vitest';
import { read } from '../../../reference/engine/psyche/language.ts';
import { feel } from './heldout/score.ts';
import { TEMPERAMENTS, type Family, type Temperament } from './heldout/labels.ts';

const families = (message: string): Family[] => (Object.keys(TEMPERAMENTS) as Temperament[]).map((t) => feel(t, message).family);
const allFeel = (family: Family, messages: string[]) => {
  const wrong = messages.filter((m) => families(m).some((f) => f !== family));
  expect(wrong.map((m) => `${m} → ${families(m).join('/')}`)).toEqual([]);
};

describe('figurative language (figurative.ts)', () => {
  it('violence and death in a frame of praise, desire or laughter are no threat and no death', () => {
    allFeel('positive', [
      'The drummer destroyed it last night.', 'Our singer slayed the crowd.', 'This song slaps.', 'That solo was killer.',
      "I'd kill for a slice of that cake.", 'That joke killed me 😂', "I'm dead 😂😂", 'I laughed so hard I almost died.',
      'You absolutely smashed it at the talent show!', 'She stole the show.',
    ]);
    for (const m of ['The drummer destroyed it last night.', 'I laughed so hard I almost died.']) expect(read(m).deathCues, m).toBe(0);
  });

  it('the same words aimed at a person stay a threat', () => {
    allFeel('afraid', ['I will kill you.', "I'm going to destroy you and your inn.", "Say one word and I'll slaughter your family."]);
  });

  it('a death said without the word is a death; the same words elsewhere are not', () => {
    for (const m of ['My grandpa passed last spring.', 'We lost our mother in March.', "Your uncle didn't make it.", 'We had to put our cat to sleep.',
      'They put the old horse down this morning.', 'He slipped away in his sleep.', 'My wife is gone.']) expect(read(m).deathCues, m).toBeGreaterThan(0);
    for (const m of ['She passed the exam last week.', "He didn't make it to the party.", 'I lost my keys in the market.', 'He has gone on holiday.',
      'Put the box down here.']) expect(read(m).deathCues, m).toBe(0);
    allFeel('sad', ['My grandpa passed last spring.', "Your uncle didn't make it.", 'They put the old horse down this morning.']);
  });
});

describe("the persona's own fault", () => {
  it('a deed of the listener or its charges against the speaker is blame, felt as shame or guilt', () => {
    for (const m of ['You scratched my car.', 'Your cat scratched my daughter.', 'You gave me the wrong change.', 'You made me miss my flight.']) expect(read(m).blame, m).toBe(1);
    allFeel('sad', ['You scratched my car.', 'Your cat scratched my daughter.', 'You gave me the wrong change.']);
    for (const m of ['You fixed my door.', 'You absolutely smashed it at the talent show!', 'You lost your keys again.', 'You made me laugh.']) expect(read(m).blame, m).toBe(0);
  });
});

describe('long messages, contrast and negation', () => {
  it('the last sentence and what follows "but" weigh most', () => {
    allFeel('hostile', ['We had a lovely dinner, the wine was good and the music was nice. Then your cook called my wife a pig and threw us out.']);
    allFeel('positive', ["I arrived late, the road was flooded and my horse lost a shoe, but you were waiting with soup and a warm bed and I can't thank you enough."]);
  });

  it("the speaker's bad night told with a reproach of the listener is a grievance (anger), not a sorrow", () => {
    allFeel('hostile', ['I stayed three nights and it was miserable. I barely slept and I feel awful. You were rude and lazy the whole time.']);
  });

  it('"but" that excepts is no contrast; a denied failure to do is the doing; a condition ends its negation', () => {
    allFeel('hostile', ["You don't love anyone but yourself.", 'Nothing but trouble from you.']);
    allFeel('positive', ['You never fail to make me smile.']);
    allFeel('afraid', ["If you don't pay me by Sunday I will burn this place to the ground."]);
  });
});

describe('sarcasm beyond the opener (sarcasm.ts)', () => {
  it('loving trouble, cheer after trouble and "just what I needed" are sarcasm; plain cheer is not', () => {
    for (const m of ['I just love being ignored all evening.', 'I really enjoy waiting forty minutes for a sandwich.', 'The shower is broken, just great.',
      'My room is freezing. Wonderful.', 'Just what I needed, a broken heater.']) expect(read(m).sarcasm, m).toBe(true);
    for (const m of ['I love walking by the sea.', 'The beer is cold. Perfect!', 'What a lovely evening. Perfect.', 'I love being here with you.']) expect(read(m).sarcasm, m).toBe(false);
  });
});

describe('chat as typed', () => {
  it('a rated word with a dropped or swapped letter is read as meant; words the lexicon knows are left alone', () => {
    allFeel('positive', ['wat a lovly view', 'you are so beautful', 'i beleive in you, ur wonderfull']);
    allFeel('hostile', ['what a terible excuse for a cook']);
    allFeel('neutral', ['Same time tomorrow morning?', 'The rain came in from the west.']);
  });

  it('relish, delight and dismay in emoji', () => {
    allFeel('positive', ['Dinner tonight 😋', 'new job!! 🤩', 'Finally friday 😎']);
    allFeel('sad', ['bad day 😣']);
  });
});
