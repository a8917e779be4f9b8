// What a served schema and an answer, both the target's, can make the suite spend: bounded time.
// - A `pattern` (contract/guarded-pattern.ts): `^(a+)+$` on 40 letters and a "!" backtracks for hours
//   in JavaScript. A long string is matched aside within PATTERN_BUDGET_MS; past it the check is "not
//   checked", never a pass nor a failure. Without the guard the first check below does not return.
// - `uniqueItems` (contract/unique-items.ts): ajv compares every pair of objects, hours for the
//   million items 8 MiB can hold; the linear one answers as ajv did, and is checked against ajv here.
// - Strings made for a request from a `pattern` (suite/bodies/minimal.ts matchingStrings): `^a{10000000}$`
//   took 12 s and 3.2 GB for three strings, and a pattern no string of the allowed length matches made
//   fast-check's filter retry for ever. Without the bound the tests below do not return.
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { OpenApiReader } from '../../contract/openapi-reader.ts';
import { ResponseValidator } from '../../contract/validate.ts';
import { matchingStrings, minimalInstance } from '../../suite/bodies/minimal.ts';
import { validOf } from '../../suite/bodies/valid.ts';

async function validatorOf(schema: object): Promise<ResponseValidator> {
  const doc = {
    openapi: '3.1.0', info: { title: 'schema', version: '1' },
    paths: { '/t': { get: { operationId: 't', responses: { 200: { description: 'ok', content: { 'application/json': { schema } } } } } } },
  };
  return new ResponseValidator(await OpenApiReader.load(doc), 'served');
}

async function validatorFor(pattern: string): Promise<ResponseValidator> {
  const doc = {
    openapi: '3.1.0', info: { title: 'patterns', version: '1' },
    paths: {
      '/t': {
        get: {
          operationId: 't',
          responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string', pattern } } } } } } },
        },
      },
    },
  };
  return new ResponseValidator(await OpenApiReader.load(doc), 'served');
}

describe('a pattern of the served document, on a string the target sent', () => {
  it('that would backtrack for hours: not checked, said so, and not tried again', async () => {
    const v = await validatorFor('^(a+)+$');
    const first = v.checkSuccessBody('t', { name: `${'a'.repeat(40)}!` });
    expect(first.notRun).toMatch(/pattern '\^\(a\+\)\+\$' took over 2000 ms on a string of 41 characters: not checked/);
    const again = v.checkSuccessBody('t', { name: `${'a'.repeat(45)}!` });
    expect(again.notRun).toMatch(/took over 2000 ms before/);
    // A short string is still judged: it cannot take long.
    expect(v.checkSuccessBody('t', { name: 'b' }).problems.join()).toMatch(/must match pattern/);
  });

  it('that is well made: judged as JavaScript judges it, long strings included', async () => {
    const v = await validatorFor('^[a-z]+(-[a-z]+)*$');
    expect(v.checkSuccessBody('t', { name: `${'abc-'.repeat(5000)}end` })).toEqual({ ok: true, problems: [] });
    const wrong = v.checkSuccessBody('t', { name: `${'abc-'.repeat(5000)}End` });
    expect(wrong.ok).toBe(false);
    expect(wrong.notRun).toBeUndefined();
    expect(wrong.problems.join()).toMatch(/\/name must match pattern/);
    // The u flag, as JSON Schema's patterns have it: one astral character is one character.
    const astral = await validatorFor('^.{3}$');
    expect(astral.checkSuccessBody('t', { name: '😀😀😀' }).ok).toBe(true);
    expect(astral.checkSuccessBody('t', { name: `${'😀'.repeat(30)}` }).ok).toBe(false);
    expect((await validatorFor('^\\p{L}+$')).checkSuccessBody('t', { name: 'é'.repeat(30) }).ok).toBe(true);
  });
});

describe('uniqueItems on an answer', () => {
  it('says what ajv says of any array, object members in any order', async () => {
    const ours = await validatorOf({ type: 'array', uniqueItems: true });
    const ajv = new Ajv2020({ strict: false, allErrors: true }).compile({ type: 'array', uniqueItems: true });
    // Small values, so that equal ones come up often; objects whose members come in another order.
    const item = fc.letrec((tie) => ({
      v: fc.oneof({ depthSize: 'small' }, fc.constantFrom(0, 1, 1.5, -0, 'a', '1', true, null), fc.array(tie('v'), { maxLength: 2 }), fc.dictionary(fc.constantFrom('a', 'b', 'c'), tie('v'), { maxKeys: 3 }).map((o) => ({ ...o }))), // plain objects, as JSON.parse makes
    })).v;
    let unique = 0;
    fc.assert(fc.property(fc.array(item, { maxLength: 8 }), fc.boolean(), (list, again) => {
      // Sometimes the first item once more, its members in reverse order: equal to JSON Schema.
      const reversed = list.slice(0, again ? 1 : 0).map((v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v));
      const expected = ajv([...list, ...reversed]);
      if (expected) unique++;
      expect(ours.checkSuccessBody('t', [...list, ...reversed]).ok).toBe(expected);
    }), { numRuns: 400 });
    expect(unique).toBeGreaterThan(50); // both verdicts were tried
  });

  it('names the two equal items, and takes 200,000 objects in one pass', async () => {
    const ours = await validatorOf({ type: 'object', properties: { list: { type: 'array', uniqueItems: true } } });
    expect(ours.checkSuccessBody('t', { list: [{ a: 1, b: [2] }, 'x', { b: [2], a: 1 }] }).problems).toEqual(['/list must NOT have duplicate items (items ## 2 and 0 are identical)']);
    // ajv's own pairwise comparison would take some 10 minutes here (3.2 s for 16,000).
    expect(ours.checkSuccessBody('t', { list: Array.from({ length: 200_000 }, (_, i) => ({ i })) }).ok).toBe(true);
  });
});

describe('strings made from a pattern for a request', () => {
  it('are none when the pattern asks for too much or for what the lengths forbid, and then plain strings are made', () => {
    expect(matchingStrings('^a{10000000}$', 0, Infinity)).toEqual([]);
    expect(matchingStrings('^(a{1000}){1000}$', 0, Infinity)).toEqual([]);
    expect(matchingStrings('^a{50}$', 0, 10)).toEqual([]);
    const impossible = { type: 'string', pattern: '^a{50}$', maxLength: 10 };
    expect(minimalInstance(impossible)).toBe('x');
    // maxLength counts code points, as JSON Schema does.
    expect(fc.sample(validOf(impossible), { numRuns: 20, seed: 7 }).every((s) => typeof s === 'string' && [...s].length <= 10)).toBe(true);
  });

  it('match the pattern and fit the lengths when they can', () => {
    const uuid = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
    const made = matchingStrings(uuid, 0, 36);
    expect(made.length).toBeGreaterThan(10);
    for (const s of made) expect(s).toMatch(new RegExp(uuid, 'u'));
    const schema = { type: 'string', pattern: '^[a-z]{2,5}$', minLength: 3 };
    for (const s of fc.sample(validOf(schema), { numRuns: 50, seed: 3 }) as string[]) expect(s).toMatch(/^[a-z]{3,5}$/);
    expect(minimalInstance(schema)).toMatch(/^[a-z]{3,5}$/);
  });
});
