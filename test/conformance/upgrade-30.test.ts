// OpenAPI 3.0 read as 3.1 (contract/upgrade-30.ts): the schema keywords rewritten wherever a schema
// stands, in every place a 3.0 document may hold one, and nothing that is data (examples, defaults,
// enums, extensions) touched. The loader's behaviour on whole documents is document-loader.test.ts.
import { describe, expect, it } from 'vitest';
import { upgradeToOpenApi31 } from '../../contract/upgrade-30.ts';

type Json = Record<string, any>;
const info = { title: 't', version: '1' };
/** One schema as the body of a 200 answer of GET /t, upgraded, and read back from the same place. */
const upgradedBody = (schema: Json) =>
  upgradeToOpenApi31({ openapi: '3.0.3', info, paths: { '/t': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema } } } } } } } })
    .paths['/t'].get.responses[200].content['application/json'].schema;

describe('3.0 schema keywords in 3.1 spelling', () => {
  it('nullable beside a type: the type or null', () => {
    expect(upgradedBody({ type: 'string', nullable: true, maxLength: 3 })).toEqual({ type: ['string', 'null'], maxLength: 3 });
    expect(upgradedBody({ type: 'integer', nullable: false })).toEqual({ type: 'integer', nullable: false });
  });

  it('nullable beside a $ref or an allOf: anyOf of it and null', () => {
    expect(upgradedBody({ $ref: '#/components/schemas/R', nullable: true, description: 'd' })).toEqual({ description: 'd', anyOf: [{ $ref: '#/components/schemas/R' }, { type: 'null' }] });
    expect(upgradedBody({ allOf: [{ $ref: '#/a' }], nullable: true })).toEqual({ anyOf: [{ $ref: '#/a' }, { type: 'null' }] });
    expect(upgradedBody({ allOf: [{ $ref: '#/a' }, { required: ['k'] }], nullable: true })).toEqual({ anyOf: [{ allOf: [{ $ref: '#/a' }, { required: ['k'] }] }, { type: 'null' }] });
  });

  it('a oneOf/anyOf arm that says only nullable: the null arm; a bare nullable elsewhere stays', () => {
    expect(upgradedBody({ oneOf: [{ nullable: true, description: 'none' }, { $ref: '#/a' }] })).toEqual({ oneOf: [{ description: 'none', type: 'null' }, { $ref: '#/a' }] });
    expect(upgradedBody({ allOf: [{ nullable: true }], properties: { p: { nullable: true } } })).toEqual({ allOf: [{ nullable: true }], properties: { p: { nullable: true } } });
  });

  it('boolean exclusive bounds: the bound itself, or dropped when false', () => {
    expect(upgradedBody({ type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: false })).toEqual({ type: 'number', exclusiveMinimum: 0, maximum: 9 });
  });

  it('a schema\'s example as examples, binary and base64 strings as content keywords', () => {
    expect(upgradedBody({ type: 'string', example: 'x' })).toEqual({ type: 'string', examples: ['x'] });
    expect(upgradedBody({ type: 'string', format: 'binary' })).toEqual({ contentMediaType: 'application/octet-stream' });
    expect(upgradedBody({ type: 'string', format: 'byte' })).toEqual({ type: 'string', contentEncoding: 'base64' });
  });

  it('reaches schemas at every depth: properties, items, additionalProperties, not, $defs, unions', () => {
    const n = { type: 'string', nullable: true };
    const up = { type: ['string', 'null'] };
    expect(upgradedBody({ type: 'object', properties: { a: { type: 'array', items: n } }, additionalProperties: n, not: n, $defs: { D: n }, anyOf: [n] }))
      .toEqual({ type: 'object', properties: { a: { type: 'array', items: up } }, additionalProperties: up, not: up, $defs: { D: up }, anyOf: [up] });
  });
});

describe('every place a 3.0 document holds a schema, and only those', () => {
  const n = () => ({ type: 'string', nullable: true });
  const up = { type: ['string', 'null'] };

  it('components, parameters, headers, request bodies, encodings and callbacks', () => {
    const doc = upgradeToOpenApi31({
      openapi: '3.0.1', info,
      paths: {
        '/t/{id}': {
          parameters: [{ name: 'id', in: 'path', required: true, schema: n() }],
          post: {
            requestBody: { content: { 'multipart/form-data': { schema: n(), encoding: { f: { headers: { 'X-A': { schema: n() } } } } } } },
            responses: { 200: { description: 'ok', headers: { 'X-B': { schema: n() } } } },
            callbacks: { done: { '{$request.body#/url}': { post: { requestBody: { content: { 'application/json': { schema: n() } } }, responses: { 200: { description: 'ok' } } } } } },
          },
        },
      },
      components: { schemas: { S: n() }, parameters: { P: { name: 'p', in: 'query', schema: n() } }, headers: { H: { schema: n() } }, requestBodies: { B: { content: { 'application/json': { schema: n() } } } } },
    });
    expect(doc.openapi).toBe('3.1.1');
    const post = doc.paths['/t/{id}'].post;
    expect([
      doc.paths['/t/{id}'].parameters[0].schema, post.requestBody.content['multipart/form-data'].schema,
      post.requestBody.content['multipart/form-data'].encoding.f.headers['X-A'].schema, post.responses[200].headers['X-B'].schema,
      post.callbacks.done['{$request.body#/url}'].post.requestBody.content['application/json'].schema,
      doc.components.schemas.S, doc.components.parameters.P.schema, doc.components.headers.H.schema, doc.components.requestBodies.B.content['application/json'].schema,
    ]).toEqual(Array(9).fill(up));
  });

  it('leaves data as written: examples, defaults, enums, extensions, and members named like keywords', () => {
    const data = { type: 'string', nullable: true, exclusiveMinimum: true, minimum: 1, example: 'e' };
    const body = upgradedBody({
      type: 'object', nullable: true,
      properties: { nullable: { type: 'boolean' }, example: { type: 'string' } },
      example: data, default: data, enum: [data], 'x-schema': data,
    });
    expect(body).toEqual({
      type: ['object', 'null'],
      properties: { nullable: { type: 'boolean' }, example: { type: 'string' } },
      examples: [data], default: data, enum: [data], 'x-schema': data,
    });
    const doc = upgradeToOpenApi31({ openapi: '3.0.3', info, paths: {}, components: { examples: { E: { value: { schema: data } } }, schemas: { S: { type: 'object' } } }, 'x-schema': { schema: data } });
    expect(doc.components.examples.E.value.schema).toEqual(data);
    expect(doc['x-schema'].schema).toEqual(data);
  });

  it('leaves a 3.1 document as it is', () => {
    const doc = { openapi: '3.1.0', info, paths: {}, components: { schemas: { S: { type: 'string', nullable: true, exclusiveMinimum: true } } } };
    expect(upgradeToOpenApi31(structuredClone(doc))).toEqual(doc);
  });
});
