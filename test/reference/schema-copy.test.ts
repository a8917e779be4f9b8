// The contract's two schema copies (the document form and the request-body Input form) share one
// walker: keywords are dropped or rewritten, property names never are.
import { describe, expect, it } from 'vitest';
import { toDocumentSchema } from '../../contract/openapi.ts';
import { deepPartial } from '../../contract/input.ts';

// Properties named like the keywords each copy drops.
const schema = {
  $id: 'Thing', '~kind': 'Object', type: 'object', required: ['$id', 'required'],
  properties: {
    $id: { type: 'string' }, '~kind': { type: 'string' }, required: { type: 'boolean' },
    part: { $ref: 'Part' }, local: { $ref: '#/components/schemas/Part' },
  },
};

describe('schema copies', () => {
  it('the document form drops $id and TypeBox markers, points refs at components, keeps every property', () => {
    expect(toDocumentSchema(schema)).toEqual({
      type: 'object', required: ['$id', 'required'],
      properties: {
        $id: { type: 'string' }, '~kind': { type: 'string' }, required: { type: 'boolean' },
        part: { $ref: '#/components/schemas/Part' }, local: { $ref: '#/components/schemas/Part' },
      },
    });
  });

  it('the Input form also drops required and points refs at Input variants, keeping every property', () => {
    expect(deepPartial(schema)).toEqual({
      type: 'object',
      properties: {
        $id: { type: 'string' }, '~kind': { type: 'string' }, required: { type: 'boolean' },
        part: { $ref: 'PartInput' }, local: { $ref: '#/components/schemas/PartInput' },
      },
    });
  });
});
