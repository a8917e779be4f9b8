// The wrong-typed members ERR-3 and ERR-6 send (suite/bodies/wrong-typed.ts), read from request
// schemas as frameworks write them: an Optional member is a union with null (pydantic 2's anyOf [X, null],
// 3.1's type [X, 'null'], 3.0's nullable: true, which the loader upgrades), and a union of other types
// takes a value of none of them. null is legal wherever the schema allows it, so it is never the wrong value.
import { describe, expect, it } from 'vitest';
import { OpenApiReader } from '../../contract/openapi-reader.ts';
import { wrongTyped, type WrongTyped } from '../../suite/bodies/wrong-typed.ts';

type Json = Record<string, any>;
const object = (properties: Json, extra: Json = {}): Json => ({ type: 'object', properties, ...extra });
/** The probes of one member, by its path. */
const at = (found: WrongTyped[], ...path: Array<string | number>) => found.filter((f) => JSON.stringify(f.at) === JSON.stringify(path)).map((f) => f.value);
const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

describe('a nullable member is probed as its non-null arm', () => {
  it('anyOf [number, null] (FastAPI, pydantic 2): a value that is no number, and never null', () => {
    const found = wrongTyped(object({ seconds: { anyOf: [{ type: 'number', exclusiveMinimum: 0 }, { type: 'null' }], default: null, title: 'Seconds' } }), 0);
    expect(at(found, 'seconds')).toEqual(['not-a-number']);
  });

  it("type ['number', 'null'] (3.1)", () => {
    expect(at(wrongTyped(object({ seconds: { type: ['number', 'null'] } }), 0), 'seconds')).toEqual(['not-a-number']);
    expect(at(wrongTyped(object({ name: { type: ['null', 'string'] } }), 0), 'name')).toEqual([12345]);
  });

  it('oneOf [string, null], and a nullable object reference', () => {
    const found = wrongTyped(object({ name: { oneOf: [{ type: 'string' }, { type: 'null' }] }, relationship: { anyOf: [object({ trust: { type: 'number' } }), { type: 'null' }] } }), 0);
    expect(at(found, 'name')).toEqual([12345]);
    expect(at(found, 'relationship')).toEqual(['not-an-object']);
  });

  it('nullable: true (3.0) as written, and as the loader reads a 3.0 document', async () => {
    expect(at(wrongTyped(object({ seconds: { type: 'number', nullable: true } }), 0), 'seconds')).toEqual(['not-a-number']);
    const doc = {
      openapi: '3.0.3', info: { title: 'nullable', version: '1' },
      paths: {
        '/x': {
          post: {
            operationId: 'x', responses: { 200: { description: 'OK' } },
            requestBody: { content: { 'application/json': { schema: object({ seconds: { type: 'number', nullable: true }, vad: { nullable: true, allOf: [{ $ref: '#/components/schemas/Vad' }] } }) } } },
          },
        },
      },
      components: { schemas: { Vad: object({ V: { type: 'number', nullable: true } }) } },
    };
    const schema = (await OpenApiReader.load(doc)).requestSchema('x');
    const found = wrongTyped(schema, 3);
    expect(at(found, 'seconds')).toEqual(['not-a-number']);
    expect(at(found, 'vad')).toEqual(['not-an-object']);
    expect(at(found, 'vad', 'V')).toEqual(['not-a-number']);
  });

  it('members of a nullable object are probed at depth; a nullable array of objects too', () => {
    const vad = object({ V: { anyOf: [{ type: 'number', minimum: -1, maximum: 1 }, { type: 'null' }], default: null } });
    const found = wrongTyped(object({ vad: { anyOf: [vad, { type: 'null' }] }, goals: { anyOf: [{ type: 'array', items: object({ id: { type: 'string' } }) }, { type: 'null' }] } }), 3);
    expect(at(found, 'vad', 'V')).toEqual(['not-a-number']);
    expect(at(found, 'goals')).toEqual([{ not: 'an array' }]);
    expect(at(found, 'goals', 0, 'id')).toEqual([12345]);
  });

  it('never sends null, whatever the shape', () => {
    const shapes: Json[] = [
      { anyOf: [{ type: 'number' }, { type: 'null' }] }, { type: ['string', 'null'] }, { type: 'boolean', nullable: true },
      { oneOf: [{ type: 'null' }, object({ a: { type: ['integer', 'null'] } })] }, { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] },
    ];
    const found = wrongTyped(object(Object.fromEntries(shapes.map((s, i) => [`m${i}`, s]))), 3);
    expect(found.length).toBeGreaterThanOrEqual(shapes.length);
    expect(found.filter((f) => f.value === null)).toEqual([]);
  });
});

describe('a union of other types takes a value of none of them', () => {
  it('anyOf [string, number]: neither a string nor a number', () => {
    const [value] = at(wrongTyped(object({ id: { anyOf: [{ type: 'string' }, { type: 'number' }] } }), 0), 'id');
    expect(['string', 'number', 'null', 'undefined']).not.toContain(typeOf(value));
  });

  it("type ['integer', 'string', 'null'], and oneOf [boolean, object]", () => {
    const found = wrongTyped(object({ a: { type: ['integer', 'string', 'null'] }, b: { oneOf: [{ type: 'boolean' }, object({})] } }), 0);
    expect(['number', 'string', 'null']).not.toContain(typeOf(at(found, 'a')[0]));
    expect(['boolean', 'object', 'null']).not.toContain(typeOf(at(found, 'b')[0]));
    expect(found).toHaveLength(2);
  });

  it('a body that is a string or an object (FastAPI: str | TextBody): its object arm\'s members', () => {
    const body = { anyOf: [{ type: 'string', minLength: 1 }, object({ text: { type: 'string' } }, { required: ['text'] })] };
    expect(wrongTyped(body, 0)).toEqual([{ at: ['text'], value: 12345 }]);
  });

  it('no probe where an arm takes any value, or where every type is allowed', () => {
    const found = wrongTyped(object({
      any: { anyOf: [{}, { type: 'null' }] },
      all: { type: ['string', 'number', 'boolean', 'object', 'array', 'null'] },
    }), 0);
    expect(found).toEqual([]);
  });

  it('two object arms: no member of either is probed (a wrong member may fit the other)', () => {
    const found = wrongTyped(object({ x: { anyOf: [object({ a: { type: 'number' } }), object({ b: { type: 'string' } })] } }), 3);
    expect(at(found, 'x')).toEqual(['not-an-object']);
    expect(found.filter((f) => f.at.length > 1)).toEqual([]);
  });
});

describe("true to SPEC.md's types where they name the member", () => {
  it("a served string for a member SPEC.md types number: neither a string nor a number (Event: `timestamp` number)", () => {
    const served = object({ timestamp: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] }, type: { type: 'string' } });
    const spec = object({ timestamp: { type: 'number' }, type: { type: 'string' } });
    const found = wrongTyped(served, 0, spec);
    expect(at(found, 'timestamp')).toHaveLength(1);
    expect(['string', 'number', 'null']).not.toContain(typeOf(at(found, 'timestamp')[0]));
    expect(at(found, 'type')).toEqual([12345]);
  });

  it('a member SPEC.md leaves open (any value) gets no probe; one it does not name is probed by the served type', () => {
    const served = object({ payload: { type: 'object' }, extra: { type: 'number' } });
    const spec = object({ payload: {} }, { additionalProperties: true });
    expect(wrongTyped(served, 0, spec)).toEqual([{ at: ['extra'], value: 'not-a-number' }]);
  });
});
