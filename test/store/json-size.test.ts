// The memory store counts a body's bytes in the walk that commits it (commitSized), without writing
// its JSON text: exact for everything but non-integer numbers, which count at their longest, so the
// count is never below what SQLite stores (`length(CAST(body AS BLOB))`).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commitSized, jsonSize } from '../../reference/store/shared.ts';

const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v), 'utf8');
const hasFraction = (v: unknown): boolean =>
  typeof v === 'number' ? !Number.isSafeInteger(v) : v !== null && typeof v === 'object' && Object.values(v).some(hasFraction);

describe('the size of a body as the memory store counts it', () => {
  it('is exact without non-integer numbers, and never below the JSON text otherwise', () => {
    fc.assert(fc.property(fc.jsonValue(), fc.constantFrom('deep' as const, 'items' as const), (value, freeze) => {
      const expected = bytes(value);
      const { bytes: counted } = commitSized(structuredClone(value), freeze);
      if (hasFraction(value)) expect(counted).toBeGreaterThanOrEqual(expected);
      else expect(counted).toBe(expected);
      expect(jsonSize(value)).toBe(counted);
    }), { numRuns: 300 });
  });

  it('counts shared frozen parts, escapes, non-ASCII text and dropped members as JSON does', () => {
    const shared = Object.freeze({ a: [1, 2, 'ü'] });
    const draft = { x: shared, gone: undefined, f: () => 1, list: [undefined, shared], s: 'quote " back \\ tab \t é 😀', k: -120 };
    const { body, bytes: counted } = commitSized(draft, 'items');
    expect(counted).toBe(bytes(body));
  });
});
