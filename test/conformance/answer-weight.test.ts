// An answer is weighed before it is parsed (suite/http/answer-weight.ts): what JSON.parse would build,
// at about what V8 spends on each part, and one heavier than --max-body-mb allows is not parsed.
import { describe, expect, it } from 'vitest';
import { answerWeight, parseAnswer, tooHeavy, AnswerTooHeavy } from '../../suite/http/answer-weight.ts';

const MB = 2 ** 20;
const CAP = 8 * MB;
/** `count` copies of `unit` in the result of an envelope. */
const page = (unit: string, count: number) => `{"result":[${Array(count).fill(unit).join(',')}]}`;
const WORLD = JSON.stringify({ worldId: 'w_0123456789', name: 'A world of the run', engineVersion: '1.4.2', createdAt: 1_764_300_000_000, definition: { identity: { name: 'A world of the run' }, rules: { physics: 'standard' } } });

describe('the weight of an answer', () => {
  it('counts 64 bytes an object or array, 12 an element, 16 a member, 16 and its length a string, 16 a fraction', () => {
    expect(answerWeight('{}')).toBe(64);
    expect(answerWeight('[{},{}]')).toBe(64 + 2 * (64 + 12));
    expect(answerWeight('{"a":"xy"}')).toBe(64 + 16 + 16 + 2);
    expect(answerWeight('[1, true, null]')).toBe(64 + 3 * 12);
    expect(answerWeight('[1.5,-2e3]')).toBe(64 + 2 * (12 + 16));
    // An escaped quote does not end the string: its raw length counts.
    expect(answerWeight('["a\\"b"]')).toBe(64 + 12 + 16 + 4);
  });

  it('counts a member of an object past its 64th as a dictionary entry, its name too', () => {
    const members = (n: number) => `{${Array.from({ length: n }, (_, i) => `"k${String(i).padStart(3, '0')}":1`).join(',')}}`;
    expect(answerWeight(members(64))).toBe(64 + 64 * 16);
    expect(answerWeight(members(66))).toBe(64 + 64 * 16 + 2 * (128 + 4));
  });
});

describe('an answer too heavy to parse', () => {
  it('is 1 MB of empty objects under the default cap, and says what it would take and how to read it', () => {
    const text = page('{}', 352_000);
    const why = tooHeavy(text, CAP);
    expect(why).toMatch(/^the answer \(1\.01 MB\) would take about 2\d\.\d+ MB of memory once parsed, over the 8 MB --max-body-mb allows: it was not parsed \(a larger --max-body-mb reads it\)$/);
    expect(() => parseAnswer(text, CAP)).toThrow(AnswerTooHeavy);
  });

  it('is parsed under a cap large enough for it', () => {
    expect(tooHeavy(page('{}', 352_000), 32 * MB)).toBeUndefined();
  });

  it('is never a page of the service\'s own shapes within 2.7 MB, nor the bundled document', async () => {
    const worlds = page(WORLD, Math.floor((2.7 * MB) / (WORLD.length + 1)));
    expect(worlds.length).toBeGreaterThan(2.6 * MB);
    expect(tooHeavy(worlds, CAP)).toBeUndefined();
    expect(parseAnswer(worlds, CAP)).toHaveProperty('result');
    const { readFileSync } = await import('node:fs');
    const document = readFileSync(new URL('../../contract/openapi.json', import.meta.url), 'utf8');
    expect(answerWeight(document)).toBeLessThan(CAP / 4);
  });

  it('is not looked for in a text too short to reach the cap (not scanned), and JSON.parse\'s own error stays', () => {
    expect(tooHeavy('['.repeat(1000), CAP)).toBeUndefined();
    expect(() => parseAnswer('{"a":', CAP)).toThrow(SyntaxError);
  });
});
