// The memory store counts a body's bytes in the walk that commits it (commitSized), without writing
// its JSON text, exactly: what SQLite stores (`length(CAST(body AS BLOB))`) for the same body.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commitSized, HASHED_LENGTH, jsonSize, ownedBody } from '../../reference/store/shared.ts';

const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v), 'utf8');

describe('the size of a body as the memory store counts it', () => {
  it('is the bytes of its JSON text, numbers of every kind included', () => {
    fc.assert(fc.property(fc.jsonValue(), fc.constantFrom('deep' as const, 'items' as const), (value, freeze) => {
      const expected = bytes(value);
      const { bytes: counted } = commitSized(structuredClone(value), freeze);
      expect(counted).toBe(expected);
      expect(jsonSize(value)).toBe(counted);
    }), { numRuns: 300 });
  });

  it('counts shared frozen parts, escapes, non-ASCII text and dropped members as JSON does', () => {
    const shared = Object.freeze({ a: [1, 2, 'ü'] });
    const draft = { x: shared, gone: undefined, f: () => 1, list: [undefined, shared], s: 'quote " back \\ tab \t é 😀', k: -120, q: [0.1 + 0.2, -1e-7, 5e-324, 1.5e300, -0.5] };
    const { body, bytes: counted } = commitSized(draft, 'items');
    expect(counted).toBe(bytes(body));
  });
});

describe('long strings', () => {
  // Strings of 256 characters or more are measured without being written out when nothing in them
  // is escaped, and are remembered only below HASHED_LENGTH (long-keys.test.ts says why).
  const piece = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', '"', '\\', '\n', '\u0001', '\u007f', 'é', '€', '😀', '\ud800', '\udc00', '\u2028'), minLength: 1, maxLength: 40 });
  it('are counted exactly, escapes and lone surrogates included, on both sides of HASHED_LENGTH', () => {
    fc.assert(fc.property(piece, fc.constantFrom(300, HASHED_LENGTH - 1, HASHED_LENGTH + 7), (p, length) => {
      const s = p.repeat(Math.ceil(length / p.length)).slice(0, length);
      const value = { [s.slice(0, 300)]: s, list: [s] };
      expect(commitSized(structuredClone(value), 'deep').bytes).toBe(bytes(value));
      expect(jsonSize(value)).toBe(bytes(value));
    }), { numRuns: 60 });
  });
});

describe('a body the store takes from a caller (ownedBody)', () => {
  it('is what JSON text would make of it, counted exactly', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => {
      const { body, bytes: counted } = ownedBody(value);
      expect(body).toStrictEqual(JSON.parse(JSON.stringify(value)));
      expect(counted).toBe(bytes(value));
    }), { numRuns: 300 });
  });

  it('turns what JSON cannot hold as JSON text does, keeps a __proto__ member as data, and is its own frozen copy', () => {
    const when = new Date(Date.UTC(2026, 10, 26));
    const input: any = JSON.parse('{"__proto__": {"polluted": true}, "n": 1}');
    Object.assign(input, { when, gone: undefined, f: () => 1, nan: NaN, inf: -Infinity, zero: -0, list: [undefined, () => 1, when, { deep: [1] }] });
    const { body, bytes: counted } = ownedBody(input) as { body: any; bytes: number };
    const expected = JSON.parse(JSON.stringify(input));
    expect(body).toStrictEqual(expected);
    expect(Object.is(body.zero, 0)).toBe(true);
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect(Object.keys(body)).toContain('__proto__');
    expect(({} as any).polluted).toBeUndefined();
    expect(counted).toBe(bytes(input));
    input.list[3].deep.push(2);
    input.n = 2;
    expect(body.list[3].deep).toEqual([1]);
    expect(body.n).toBe(1);
    expect(Object.isFrozen(body) && Object.isFrozen(body.list[3]) && Object.isFrozen(body.list[3].deep)).toBe(true);
  });

  it('refuses what JSON text cannot be made of, as a TypeError', () => {
    expect(() => ownedBody(undefined)).toThrow(TypeError);
    expect(() => ownedBody({ big: 1n })).toThrow(TypeError);
    const cycle: any = { a: {} };
    cycle.a.back = cycle;
    expect(() => ownedBody(cycle)).toThrow(TypeError);
  });
});
