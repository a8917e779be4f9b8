// The nesting check runs on the text before any parse (platform/json-body.ts). It first counts the
// opening brackets with a native search (a text of long strings is done there), then walks the text.
// Its answer must be the depth of the value the text parses to, brackets inside strings aside.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nestingExceeds } from '../../reference/platform/json-body.ts';

/** Levels of objects and arrays, the value itself included: what the parsed value really has. */
const depth = (v: unknown): number =>
  v !== null && typeof v === 'object' ? 1 + Math.max(0, ...Object.values(v as object).map(depth)) : 0;

const bracketty = fc.string({ unit: fc.constantFrom('{', '}', '[', ']', '"', '\\', 'a') });

describe('nestingExceeds', () => {
  it('agrees with the depth of the parsed value, whatever brackets its strings hold', () => {
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, bracketty, fc.integer(), fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(bracketty, tie('node'), { maxKeys: 4 })),
    })).node;
    fc.assert(fc.property(value, fc.integer({ min: 0, max: 8 }), (v, limit) => {
      expect(nestingExceeds(JSON.stringify(v), limit)).toBe(depth(v) > limit);
    }), { numRuns: 500 });
  });

  it('finds deep nesting past many shallow brackets, and none in a long string of brackets', () => {
    const shallow = JSON.stringify({ list: Array.from({ length: 100 }, () => ({ a: [] })) });
    expect(nestingExceeds(shallow, 4)).toBe(false); // object, list, item, a: four levels under 200 brackets
    expect(nestingExceeds(shallow, 3)).toBe(true);
    const deep = `${'['.repeat(65)}${']'.repeat(65)}`;
    expect(nestingExceeds(deep, 64)).toBe(true);
    expect(nestingExceeds(JSON.stringify({ s: '['.repeat(100_000) }), 64)).toBe(false);
    expect(nestingExceeds(JSON.stringify({ s: '"\\['.repeat(1000), t: [[[]]] }), 2)).toBe(true);
  });
});
