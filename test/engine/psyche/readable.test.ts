// What a persona reads of a text is bounded (language.ts readable): the stemmer's and wink-nlp's
// patterns take time in the square of a word's length, and a chat of 10,000 characters held the event
// loop for up to 620 ms, an event description of 20,000 characters for 2.5 s. Checked by what reaches
// the libraries, not by time: the stemmer and wink-nlp are wrapped, and the longest word and text
// they were given is recorded while personas read pathological texts.
import fc from 'fast-check';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const seen = vi.hoisted(() => ({ word: 0, text: 0 }));
vi.mock('wink-porter2-stemmer', async (importOriginal) => {
  const stem = ((await importOriginal()) as { default: (w: string) => string }).default;
  return { default: (w: string) => { seen.word = Math.max(seen.word, w.length); return stem(w); } };
});
vi.mock('wink-nlp', async (importOriginal) => {
  const winkNLP = ((await importOriginal()) as { default: (...a: unknown[]) => { readDoc(t: string): unknown } }).default;
  return {
    default: (...args: unknown[]) => {
      const nlp = winkNLP(...args);
      const readDoc = nlp.readDoc.bind(nlp);
      nlp.readDoc = (t: string) => { seen.text = Math.max(seen.text, t.length); return readDoc(t); };
      return nlp;
    },
  };
});

const { READ_CHARS, readable } = await import('../../../reference/engine/psyche/language.ts');
const engine = await import('../../../reference/engine/world/index.ts');
const { LABELLED } = await import('./labelled.ts');
const { TUNING } = await import('./heldout/tuning.ts');
const { HELDOUT } = await import('./heldout/heldout.ts');

beforeEach(() => { seen.word = 0; seen.text = 0; });

const PATHOLOGICAL = {
  'one word': 'supercalifragilistic'.repeat(500),
  hyphens: 'a-'.repeat(5000),
  digits: '1234567890'.repeat(1000),
  capitals: 'ABCDEFGHIJ'.repeat(1000),
  'a link': 'http://x.com/'.repeat(770),
  exclamations: '!'.repeat(10_000),
  stars: '*a*'.repeat(3333),
  emoji: '😀'.repeat(5000),
};

describe('what a persona reads of a text', () => {
  it('is every labelled message as it was written: the scores of issue 27 cannot move', () => {
    for (const { message } of [...LABELLED, ...TUNING, ...HELDOUT]) expect(readable(message)).toBe(message);
  });

  it('is bounded, keeps no run of a mark past three nor a word past 40 characters, and reads the same the second time', () => {
    const unit = fc.constantFrom('a', 'B', '1', ' ', '\n', '!', '?', '-', '.', '😀', 'é', '\ud800');
    // Long texts on purpose: a piece repeated up to 1,500 times, then a tail.
    const text = fc.tuple(fc.string({ unit, maxLength: 12 }), fc.integer({ min: 1, max: 1500 }), fc.string({ unit, maxLength: 50 }))
      .map(([piece, times, tail]) => piece.repeat(times) + tail);
    fc.assert(fc.property(text, (t) => {
      const r = readable(t);
      expect(r.length).toBeLessThanOrEqual(READ_CHARS);
      expect(r).not.toMatch(/\S{41,}/u);
      expect(r).not.toMatch(/([^\p{L}\p{N}\s])\1{3}/u);
      expect(readable(r)).toBe(r);
    }), { numRuns: 300 });
  });

  it('gives the stemmer and wink-nlp at most READ_CHARS and 40-character words, in a chat and in an event of a megabyte', () => {
    const world = engine.newWorld({ definition: { identity: { name: 'W' } }, entities: [{ name: 'ana', type: 'persona' }, { name: 'user', type: 'user' }] }, 'w', 0);
    for (const message of Object.values(PATHOLOGICAL)) engine.chat(world, { from: 'user', to: 'ana', message });
    const description = PATHOLOGICAL['one word'].repeat(100); // 1 MB, one word
    engine.dispatchEvent(world, { type: `x${'y'.repeat(50_000)}`, payload: { description } });
    expect(seen.text).toBeGreaterThan(0); // the wrappers saw the reading
    expect(seen.text).toBeLessThanOrEqual(READ_CHARS); // no text-speak in them for slang.ts to spell out
    expect(seen.word).toBeLessThanOrEqual(40);
  });
});
