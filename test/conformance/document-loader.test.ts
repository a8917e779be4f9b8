// The one document loader (contract/openapi-loader.ts, read through contract/openapi-reader.ts and
// contract/validate.ts): a served document is untrusted, and in any legal style. It must never make
// the suite read a file or open a connection; it must read every style OpenAPI allows into one form
// whose validators and minimal bodies agree with the document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs, { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { loadOpenApi } from '../../contract/openapi-loader.ts';
import { OpenApiReader } from '../../contract/openapi-reader.ts';
import { ResponseValidator } from '../../contract/validate.ts';
import { minimalInstance } from '../../suite/bodies/minimal.ts';
import { validOf } from '../../suite/bodies/valid.ts';
import { resolveTarget } from '../../suite/run/target.ts';

type Json = Record<string, any>;
const REFERENCE: Json = JSON.parse(readFileSync(new URL('../../contract/openapi.json', import.meta.url), 'utf8'));
const info = { title: 'dialect', version: '1' };
const json = (schema: Json, type = 'application/json') => ({ content: { [type]: { schema } } });

/** A document with one operation POST /t: its request body, its 200 and its 4XX responses. */
function oneOperation(version: string, request: Json | undefined, ok: Json, components: Json = {}, extra: Json = {}): Json {
  return {
    openapi: version, info, components,
    paths: { '/t': { post: { operationId: 't', ...(request ? { requestBody: request } : {}), responses: { 200: { description: 'ok', ...ok }, ...extra } } } },
  };
}

async function readerOf(doc: Json) {
  const reader = await OpenApiReader.load(doc);
  return { reader, validator: new ResponseValidator(reader, 'served'), problems: reader.problems };
}

describe('a document never makes the suite read a file or open a connection', () => {
  const dir = mkdtempSync(join(tmpdir(), 'loader-canary-'));
  const canary = join(dir, 'secret.json');
  const TOKEN = `canary-${Math.random().toString(36).slice(2)}`;
  let server: Server;
  let url = '';
  let connections = 0;
  const opened: string[] = [];
  const spied: Array<[Json, string, (...a: any[]) => any]> = [];
  beforeAll(async () => {
    writeFileSync(canary, JSON.stringify({ type: 'string', const: TOKEN }));
    server = createServer((_req, res) => res.end(JSON.stringify({ const: TOKEN })));
    server.on('connection', () => { connections += 1; });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // Every way the libraries could read a file, watched for the canary's path.
    for (const [target, name] of [[fs, 'readFile'], [fs, 'readFileSync'], [fs, 'open'], [fs, 'openSync'], [fs.promises, 'readFile'], [fs.promises, 'open'], [fs, 'createReadStream']] as const) {
      const original = (target as Json)[name];
      spied.push([target as Json, name, original]);
      (target as Json)[name] = (...args: any[]) => { opened.push(String(args[0])); return original.apply(target, args); };
    }
  });
  afterAll(async () => {
    for (const [target, name, original] of spied) target[name] = original;
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  const evil = (ref: string, where: 'schema' | 'const' | 'response') => {
    const doc = structuredClone(REFERENCE);
    const op = doc.paths['/worlds/{id}'].patch;
    if (where === 'schema') op.requestBody.content['application/json'].schema = { $ref: ref };
    if (where === 'const') op.requestBody.content['application/json'].schema = { type: 'object', properties: { name: { const: { $ref: ref } } } };
    if (where === 'response') op.responses['200'] = { $ref: ref };
    return doc;
  };

  const refs = () => [canary, `file://${canary}`, `${canary}#/const`, `${url}/schema.json`, '../../../../etc/passwd', `${url}/x#/const`];
  for (const where of ['schema', 'const', 'response'] as const) {
    it(`refuses references out of the document in a ${where}, reading nothing`, async () => {
      for (const ref of refs()) {
        const loaded = await loadOpenApi(evil(ref, where));
        expect(loaded.problems.join(' '), ref).toMatch(/refers outside itself .*read nothing/);
        expect(JSON.stringify(loaded.dereferenced) + JSON.stringify(loaded.normal)).not.toContain(TOKEN);
      }
      expect(opened.filter((p) => p.includes(dir)), 'files the loader opened').toEqual([]);
      expect(connections, 'connections the loader made').toBe(0);
    });
  }

  it('a target serving such a document: the preflight says why (OAS-1 fails), nothing read, nothing fetched', async () => {
    const doc = evil(canary, 'const');
    const target = createServer((req, res) => {
      if (req.url === '/openapi.json') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc));
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":{"worlds":[]}}');
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    try {
      const resolved = await resolveTarget({ baseUrl: `http://127.0.0.1:${(target.address() as AddressInfo).port}`, apiKey: 'mk_test_x', timeoutMs: 5_000 });
      expect(resolved.documentProblem).toMatch(/refers outside itself \('.*secret\.json' at #\/paths\/~1worlds~1\{id\}\/patch.*read nothing/);
      expect(resolved.document).toEqual({});
    } finally {
      await new Promise((r) => target.close(r));
    }
    expect(opened.filter((p) => p.includes(dir))).toEqual([]);
    expect(connections).toBe(0);
  });
});

describe('bounds', () => {
  it('a document nested 100,000 deep is refused in one line, without overflowing the stack', async () => {
    let deep: Json = {};
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    const loaded = await loadOpenApi({ openapi: '3.1.0', info, paths: {}, components: { schemas: { Deep: deep } } });
    expect(loaded.problems).toEqual([expect.stringMatching(/nests deeper than 128 levels/)]);
  });
  it('a document of a million values is refused', async () => {
    const many = Object.fromEntries(Array.from({ length: 600_000 }, (_, i) => [`s${i}`, { type: 'string' }]));
    expect((await loadOpenApi({ openapi: '3.1.0', info, paths: {}, components: { schemas: many } })).problems).toEqual([expect.stringMatching(/more than 500000 JSON values/)]);
  });
  it('a reference to itself, a dangling reference: said, not thrown', async () => {
    const loop = await loadOpenApi(oneOperation('3.1.0', undefined, { $ref: '#/components/responses/A' }, { responses: { A: { $ref: '#/components/responses/A' } } }));
    const dangling = await loadOpenApi(oneOperation('3.1.0', json({ $ref: '#/components/schemas/Nowhere' }), {}));
    expect(dangling.problems.join(' ')).toMatch(/does not resolve/);
    expect(Array.isArray(loop.problems)).toBe(true);
  });
});

describe('every style reads the same', () => {
  const ERROR = { type: 'object', required: ['error'], properties: { error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } } } };

  it('responses as $refs to components/responses (and chains of them): answers validated, none unresolved', async () => {
    const doc = oneOperation('3.1.0', undefined, json({ type: 'object', required: ['result'] }), {
      responses: { NotFound: { $ref: '#/components/responses/Error' }, Error: { description: 'error', ...json({ $ref: '#/components/schemas/Error' }) } },
      schemas: { Error: ERROR },
    }, { 404: { $ref: '#/components/responses/NotFound' } });
    const { validator, problems } = await readerOf(doc);
    expect(problems).toEqual([]);
    expect(validator.check('t', 404, 'application/json', { error: { code: 'X', message: 'm' } })).toEqual({ ok: true, problems: [] });
    expect(validator.check('t', 404, 'application/json', { error: { code: 7 } }).ok).toBe(false);
  });

  it('path items as $refs (components/pathItems) and a summary beside a $ref (3.1): valid, operations found', async () => {
    const doc = { openapi: '3.1.0', info, paths: { '/t': { $ref: '#/components/pathItems/T', summary: 'the t path' } }, components: { pathItems: { T: { post: { operationId: 't', responses: { 200: { $ref: '#/components/responses/Ok', description: 'beside' } } } } }, responses: { Ok: { description: 'ok', ...json({ type: 'object', required: ['result'] }) } } } };
    const { reader, validator, problems } = await readerOf(doc);
    expect(problems).toEqual([]);
    expect(reader.operationAt('post', '/t')?.operationId).toBe('t');
    expect(validator.check('t', 200, 'application/json', {}).ok).toBe(false);
    expect(validator.check('t', 200, 'application/json', { result: 1 }).ok).toBe(true);
  });

  it('OpenAPI 3.0 exclusiveMinimum: true is read: the minimal body is inside the bound, and {seconds: 0} is refused', async () => {
    const { reader, validator, problems } = await readerOf(oneOperation('3.0.3', json({ type: 'object', required: ['seconds'], properties: { seconds: { type: 'number', minimum: 0, exclusiveMinimum: true } } }), {}));
    expect(problems).toEqual([]);
    const body = minimalInstance(reader.requestSchema('t')) as Json;
    expect(body.seconds).toBeGreaterThan(0);
    expect(validator.checkRequest('t', body).ok).toBe(true);
    expect(validator.checkRequest('t', { seconds: 0 }).ok).toBe(false);
  });

  it('OpenAPI 3.0 exclusiveMaximum: false beside every bound: no error, and generated values come (no endless filter)', async () => {
    const schema = { type: 'object', required: ['n'], properties: { n: { type: 'integer', minimum: 1, exclusiveMinimum: false, maximum: 5, exclusiveMaximum: false } } };
    const { reader, validator, problems } = await readerOf(oneOperation('3.0.3', json(schema), {}));
    expect(problems).toEqual([]);
    const values = fc.sample(validOf(reader.requestSchema('t')), { numRuns: 50, seed: 1 }) as Json[];
    expect(values.map((v) => v.n).every((n) => Number.isInteger(n) && n >= 1 && n <= 5)).toBe(true);
    expect(validator.checkRequest('t', { n: 5 }).ok).toBe(true);
    expect(validator.checkRequest('t', { n: 6 }).ok).toBe(false);
  });

  it('nested allOf: the minimal body holds the members of every level', async () => {
    const schema = { allOf: [{ allOf: [{ type: 'object', required: ['type'], properties: { type: { type: 'string' } } }] }, { allOf: [{ required: ['n'], properties: { n: { type: 'integer', minimum: 3 } } }] }] };
    const { reader, validator } = await readerOf(oneOperation('3.1.0', json(schema), {}));
    const body = minimalInstance(reader.requestSchema('t'));
    expect(body).toEqual({ type: 'x', n: 3 });
    expect(validator.checkRequest('t', body).ok).toBe(true);
    expect(validator.checkRequest('t', { type: {} , n: 3 }).ok).toBe(false);
  });

  it('a recursive schema: compiled (recursion kept), minimal bodies valid, generated bodies bounded', async () => {
    const doc = oneOperation('3.1.0', json({ type: 'object', required: ['tree'], properties: { tree: { $ref: '#/components/schemas/Node' } } }), json({ $ref: '#/components/schemas/Node' }), {
      schemas: { Node: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, kids: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } } },
    });
    const { reader, validator, problems } = await readerOf(doc);
    expect(problems).toEqual([]);
    const body = minimalInstance(reader.requestSchema('t'));
    expect(body).toEqual({ tree: { name: 'x' } });
    expect(validator.checkRequest('t', body).ok).toBe(true);
    expect(validator.check('t', 200, 'application/json', { name: 'a', kids: [{ name: 'b', kids: [{ kids: [] }] }] }).ok).toBe(false);
    expect(validator.check('t', 200, 'application/json', { name: 'a', kids: [{ name: 'b', kids: [{ name: 'c' }] }] }).ok).toBe(true);
    const samples = fc.sample(validOf(reader.requestSchema('t')), { numRuns: 30, seed: 2 });
    expect(samples.every((s) => validator.checkRequest('t', s).ok)).toBe(true);
  });

  it('media types with parameters: a charset on request and response content types is the same JSON', async () => {
    const doc = oneOperation('3.1.0', json({ type: 'object', required: ['a'], properties: { a: { type: 'string' } } }, 'application/json;charset=UTF-8'), json({ type: 'object', required: ['result'] }, 'application/json; charset=utf-8'));
    const { reader, validator } = await readerOf(doc);
    expect(minimalInstance(reader.requestSchema('t'))).toEqual({ a: 'x' });
    expect(validator.check('t', 200, 'application/json; charset=utf-8', {}).ok, 'a broken answer is seen').toBe(false);
    expect(validator.check('t', 200, 'application/json; charset=utf-8', { result: 1 }).ok).toBe(true);
  });

  it('unevaluatedProperties: false (3.1, with allOf) closes the object', async () => {
    const doc = oneOperation('3.1.0', undefined, json({ allOf: [{ type: 'object', properties: { a: { type: 'number' } } }], unevaluatedProperties: false }));
    const { validator } = await readerOf(doc);
    expect(validator.check('t', 200, 'application/json', { a: 1 }).ok).toBe(true);
    expect(validator.check('t', 200, 'application/json', { a: 1, b: 2 })).toEqual({ ok: false, problems: ["(root) must NOT have unevaluated properties 'b'"] });
  });

  it('3.0 nullable beside allOf without type: read as "or null", no error', async () => {
    const doc = oneOperation('3.0.3', undefined, json({ type: 'object', properties: { r: { nullable: true, allOf: [{ $ref: '#/components/schemas/R' }] } } }), { schemas: { R: { type: 'object', required: ['k'], properties: { k: { type: 'string' } } } } });
    const { validator, problems } = await readerOf(doc);
    expect(problems).toEqual([]);
    expect(validator.check('t', 200, 'application/json', { r: null }).ok).toBe(true);
    expect(validator.check('t', 200, 'application/json', { r: { k: 'v' } }).ok).toBe(true);
    expect(validator.check('t', 200, 'application/json', { r: { k: 1 } }).ok).toBe(false);
  });

  it('status ranges: 4XX and default are matched; a schema JS cannot compile is "not run", never an error', async () => {
    const doc = oneOperation('3.1.0', undefined, json({ type: 'string', pattern: '(?<=a)b\\p{Nope}' }), {}, { '4XX': { description: 'e', ...json(ERROR) }, default: { description: 'd', ...json(ERROR) } });
    const { validator, reader } = await readerOf(doc);
    expect(reader.responseKey('t', 404)).toBe('4XX');
    expect(reader.responseKey('t', 503)).toBe('default');
    expect(validator.check('t', 404, 'application/json', { error: { code: 'X', message: 'm' } }).ok).toBe(true);
    const unreadable = validator.check('t', 200, 'application/json', 'b');
    expect(unreadable.notRun).toMatch(/cannot be compiled/);
  });

  it('references by $id (a URL on another host) and by $anchor: found in the document, never fetched', async () => {
    const doc = oneOperation('3.1.0', json({ $ref: 'https://schemas.example/node' }), json({ $ref: 'https://schemas.example/node#leaf' }), {
      schemas: {
        Node: { $id: 'https://schemas.example/node', type: 'object', required: ['name'], properties: { name: { type: 'string' }, kids: { type: 'array', items: { $ref: '#' } }, leaf: { $anchor: 'leaf', type: 'string' } } },
      },
    });
    const { reader, validator, problems } = await readerOf(doc);
    expect(problems).toEqual([]);
    expect(validator.checkRequest('t', { name: 'a', kids: [{ name: 'b' }] }).ok).toBe(true);
    expect(validator.checkRequest('t', { name: 'a', kids: [{ kids: [] }] }).ok, 'the recursion through "#" inside the $id resource is read').toBe(false);
    expect(validator.check('t', 200, 'application/json', 'text').ok).toBe(true);
    expect(validator.check('t', 200, 'application/json', 7).ok).toBe(false);
    expect(minimalInstance(reader.requestSchema('t'))).toEqual({ name: 'x' });
    const away = await loadOpenApi(oneOperation('3.1.0', json({ $ref: 'https://schemas.example/elsewhere' }), {}));
    expect(away.problems.join(' ')).toMatch(/refers outside itself/);
  });

  it('allOf with an anyOf member: the minimal body keeps both (a string that is also "any JSON value")', async () => {
    const any = { anyOf: [{ type: 'null' }, { type: 'boolean' }, { type: 'number' }, { type: 'string' }] };
    const doc = oneOperation('3.1.0', json({ type: 'object', required: ['type'], properties: { type: { allOf: [{ type: 'string', minLength: 1 }, any] } } }), {});
    const { reader, validator } = await readerOf(doc);
    const body = minimalInstance(reader.requestSchema('t'));
    expect(body).toEqual({ type: 'x' });
    expect(validator.checkRequest('t', body).ok).toBe(true);
  });

  it('a base path written into the paths (servers at the root) matches the operations of SPEC.md under --base-url …/api', async () => {
    const doc = { openapi: '3.1.0', info, servers: [{ url: '/' }], paths: { '/api/worlds': { get: { operationId: 'w', responses: { 200: { description: 'ok' } } } } } };
    const reader = await OpenApiReader.load(doc, { basePath: 'http://host/api' });
    expect(reader.operationAt('get', '/worlds')?.operationId).toBe('w');
  });

  it('the reference document reads without a problem, and its every request example validates', async () => {
    const { reader, validator, problems } = await readerOf(REFERENCE);
    expect(problems).toEqual([]);
    const checked = reader.operations().filter((op) => reader.requestSchema(op.operationId));
    expect(checked.length).toBeGreaterThan(20);
    for (const op of checked) expect(validator.checkRequest(op.operationId, minimalInstance(reader.requestSchema(op.operationId))), op.operationId).toMatchObject({ ok: true });
  });
});

describe('the meta-schema check (contract/meta-schema.ts)', () => {
  it('refuses a document its version\'s schema does not allow, in one line naming the place, for 3.0 and 3.1 alike', async () => {
    for (const version of ['3.0.3', '3.1.0']) {
      const doc = oneOperation(version, undefined, json({ type: 'object' }));
      doc.paths['/t'].post.responses = 'none';
      const loaded = await loadOpenApi(doc);
      expect(loaded.problems, version).toHaveLength(1);
      expect(loaded.problems[0], version).toMatch(new RegExp(`^it does not validate against the OpenAPI ${version.slice(0, 3)} schema: #/paths/~1t/post/responses `));
    }
  });

  it('allows what OpenAPI 3.1 allows and the shipped schema revision leaves out: a Path Item given by $ref', async () => {
    const doc = oneOperation('3.1.0', undefined, json({ type: 'object' }));
    doc.components = { pathItems: { t: doc.paths['/t'] } };
    doc.paths['/t'] = { $ref: '#/components/pathItems/t' };
    expect((await loadOpenApi(doc)).problems).toEqual([]);
  });
});
