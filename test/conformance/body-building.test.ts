// Bodies the suite builds from a served request schema (suite/bodies/minimal.ts): the smallest instance
// must be valid wherever one exists, whatever the schema says of its members: minProperties (a
// time-jump body "exactly one of seconds, minutes, hours, days" with nothing required),
// maxProperties, dependentRequired, not, if/then/else, and unions (a framework's `str | TextBody`, a
// member `X | None`). ajv (JSON Schema 2020-12) is the judge of every instance, never the code under
// test. Before these rules were read, nine of the schemas below got a body their own schema refuses,
// and the check that needed it was "not run" ("could not build a body valid for the served schema").
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { matches } from '../../suite/bodies/schema.ts';
import { minimalInstance, minimalInstances } from '../../suite/bodies/minimal.ts';
import { validOf } from '../../suite/bodies/valid.ts';

const ajv = new Ajv2020({ strict: false, allErrors: true });
const valid = (schema: object, value: unknown) => ajv.validate(schema, value) as boolean;
const number = { type: 'number', exclusiveMinimum: 0 };

const SATISFIABLE: Array<[string, object]> = [
  ['required members only (the rule before: still holds)', { type: 'object', required: ['seconds'], properties: { seconds: number }, additionalProperties: false }],
  ['minProperties: 1 and nothing required (FastAPI, json_schema_extra)', {
    type: 'object', minProperties: 1, additionalProperties: false,
    properties: { seconds: { anyOf: [number, { type: 'null' }], default: null } },
  }],
  ['minProperties: 1 and maxProperties: 1 (exactly one unit)', {
    type: 'object', minProperties: 1, maxProperties: 1, additionalProperties: false,
    properties: { seconds: number, minutes: number, hours: number, days: number },
  }],
  ['minProperties: 2 on an open object with one member (free members added)', { type: 'object', minProperties: 2, properties: { a: { type: 'string' } } }],
  ['dependentRequired: a required member that needs another', {
    type: 'object', required: ['from'], additionalProperties: false, dependentRequired: { from: ['to'] },
    properties: { from: { type: 'string' }, to: { type: 'string' } },
  }],
  ['not: the smallest object refused, one more member accepted', {
    type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, not: { maxProperties: 0 },
  }],
  ['not beside a union: the arm `not` refuses is passed over', {
    anyOf: [{ type: 'string' }, { type: 'object', required: ['text'], properties: { text: { type: 'string', minLength: 1 } } }], not: { type: 'string' },
  }],
  ['if/then/else: then applies to the smallest object', {
    type: 'object', required: ['unit'], properties: { unit: { enum: ['minutes', 'seconds'] }, amount: number },
    if: { properties: { unit: { const: 'minutes' } } }, then: { required: ['amount'] },
  }],
  ['if/then/else: else applies', {
    type: 'object', required: ['kind'], properties: { kind: { const: 'b' }, x: { type: 'string' } },
    if: { properties: { kind: { const: 'a' } } }, then: { required: ['nothing'] }, else: { required: ['x'] },
  }],
  ['allOf parts that together need two members (minProperties in one part, a member in the other)', {
    allOf: [{ type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } } }, { minProperties: 2 }],
  }],
  ['a union of a bare string and an object with text (annotate, next-response)', {
    anyOf: [{ type: 'string', minLength: 1 }, { type: 'object', required: ['text'], properties: { text: { type: 'string', minLength: 1 } }, additionalProperties: false }],
  }],
  ['oneOf arms told apart by required members', {
    type: 'object', properties: { seconds: number, hours: number }, additionalProperties: false,
    oneOf: [{ required: ['seconds'] }, { required: ['hours'] }],
  }],
];

describe('the smallest body a served schema accepts', () => {
  for (const [name, schema] of SATISFIABLE) {
    it(name, () => {
      const body = minimalInstance(schema as Record<string, unknown>);
      expect({ body, valid: valid(schema, body) }).toEqual({ body, valid: true });
    });
  }

  it('a union offers one candidate per arm, every one valid for the union (the caller takes the first the deployment\'s document accepts)', () => {
    const [, union] = SATISFIABLE.find(([n]) => n.startsWith('a union of a bare string'))!;
    const candidates = minimalInstances(union as Record<string, unknown>);
    expect(candidates.map((c) => typeof c)).toEqual(['string', 'object']);
    for (const c of candidates) expect(valid(union, c), JSON.stringify(c)).toBe(true);
  });

  it('a schema no body holds gives a body its schema refuses: the caller\'s check (against the served document) then says why it did not run', () => {
    const impossible = { type: 'object', required: ['a', 'b'], maxProperties: 1, properties: { a: { type: 'string' }, b: { type: 'string' } } };
    expect(valid(impossible, minimalInstance(impossible))).toBe(false);
  });
});

describe('generated valid bodies (suite/bodies/valid.ts) keep what the members must say together', () => {
  for (const name of ['minProperties: 1 and nothing required', 'dependentRequired', 'minProperties: 1 and maxProperties: 1']) {
    it(name, () => {
      const [, schema] = SATISFIABLE.find(([n]) => n.startsWith(name))!;
      const refused = fc.sample(validOf(schema as Record<string, unknown>), { numRuns: 100, seed: 1 }).filter((v) => !valid(schema, v));
      expect(refused).toEqual([]);
    });
  }
});

describe('matches: what steers the choice, against ajv', () => {
  const schemas: object[] = [
    { type: 'object', required: ['a'] }, { minProperties: 1 }, { maxProperties: 1 }, { not: { type: 'string' } },
    { properties: { a: { const: 1 } } }, { anyOf: [{ type: 'string' }, { type: 'integer' }] }, { oneOf: [{ minimum: 0 }, { maximum: 10 }] },
    { type: 'string', minLength: 2 }, { enum: [1, 'a', null] }, { exclusiveMinimum: 0 },
    { dependentRequired: { a: ['b'] } }, { if: { required: ['a'] }, then: { required: ['b'] }, else: { maxProperties: 0 } },
  ];
  const values: unknown[] = [{}, { a: 1 }, { a: 2, b: 3 }, 'a', 'ab', 5, -1, 11, null, [], 1];
  it('never says true where ajv says false, nor false where ajv says true', () => {
    const wrong: string[] = [];
    for (const s of schemas) {
      for (const v of values) {
        const m = matches(s, v);
        if (m !== undefined && m !== valid(s, v)) wrong.push(`${JSON.stringify(s)} ${JSON.stringify(v)}: ${m}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
