// Documents as frameworks generate them: the reference's served /openapi.json rewritten in the style of
// FastAPI (pydantic), springdoc, NestJS's swagger module and @fastify/swagger, as a team would serve it
// had it built the service with that framework. Each is a Dialect (dialects.ts): its answers are the
// reference's, and where the style promises more than the reference accepts (a bare string beside the
// object for a text body, minutes as well as seconds for a time jump, null for an optional member), the
// proxy keeps the promise the way such a deployment would (the string becomes {text}, minutes become
// seconds, a null member is left out: pydantic's default). What each style does,
// learnt from the frameworks' documentation and code:
// - none lists its own document route (FastAPI serves /openapi.json, springdoc /v3/api-docs, NestJS
//   /api-json, @fastify/swagger /documentation/json, all outside the paths they describe);
// - FastAPI/pydantic: a title on every property and model, optional members as anyOf [X, null] with
//   default null, operationIds `<function>_<path>_<method>`, Body_<operationId> components for bodies
//   declared field by field, a 422 HTTPValidationError response on every operation with parameters
//   or a body, unions as anyOf in declaration order, extra schema keywords (minProperties) from
//   json_schema_extra; pydantic 1 wrapped a described reference in a single allOf;
// - springdoc: OpenAPI 3.0.1, every response under `*/*`, descriptions "OK", "Bad Request"…, a
//   @ControllerAdvice's error responses on every operation, the server it ran on ("Generated server url");
// - NestJS (@nestjs/swagger): OpenAPI 3.0.0, operationIds `<Controller>_<method>`, DTO components
//   (`CreateWorldDto`), nested DTOs as allOf [$ref], response descriptions '';
// - @fastify/swagger: OpenAPI 3.0.3, shared schemas named def-0, def-1… (added without a title),
//   "Default Response", bodies inline and `required: true`, security listed per route.
import type { SelectableArea } from '../../contract/requirements.ts';
import { OpenApiReader } from '../../contract/openapi-reader.ts';
import { mergeAllOf } from '../bodies/schema.ts';
import { is, isObject, operationIn, operationsIn, type Json } from './hooks.ts';
import { componentName, eachRef, eachSchema, intoComponents, mediaTypesIn, responsesIn, schemaRefName } from './document.ts';
import { perOperationSecurity, requireUnsent, toOpenApi30, type Dialect } from './dialects.ts';
import type { FaultContext, FaultHooks, FaultRequest } from './proxy.ts';

// ---- Areas ----
// Cheap, as the dialects (about 4 s of CPU a document): the document itself (openapi: OAS-1..3,
// CONTRACT-2 on GET /openapi.json) and a body built from the served request schema of every world and
// persona operation (isolation: ISO-1, time-jump's included). fastapi, whose bodies only checks of other
// areas need (annotate, next-response: personas; relationship `X | null`: world-parts; ERR-1: errors),
// runs those too (about 12 s).
const DOCUMENT: SelectableArea[] = ['openapi', 'isolation'];

// ---- Shared rewrites ----

/** No path for the document itself. */
function noSelfPath(doc: Json): void {
  delete doc.paths['/openapi.json'];
}

/** Every component schema renamed (references follow). */
function renameSchemas(doc: Json, rename: (name: string, i: number) => string): void {
  const schemas: Json = doc.components?.schemas ?? {};
  const names = new Map(Object.keys(schemas).map((n, i) => [n, rename(n, i)]));
  doc.components.schemas = Object.fromEntries(Object.entries(schemas).map(([n, s]) => [names.get(n)!, s]));
  eachRef(doc, (ref) => { const n = schemaRefName(ref.$ref); if (n && names.has(n)) ref.$ref = `#/components/schemas/${encodeURIComponent(names.get(n)!)}`; });
}

/** Every operationId renamed; links follow. */
function renameOperationIds(doc: Json, rename: (operationId: string, path: string, method: string) => string): void {
  const ids = new Map<string, string>();
  for (const { path, method, op } of operationsIn(doc)) ids.set(op.operationId, rename(op.operationId, path, method));
  for (const { op } of operationsIn(doc)) op.operationId = ids.get(op.operationId);
  for (const { status, responses } of responsesIn(doc)) {
    for (const link of Object.values<Json>(responses[status]?.links ?? {})) if (ids.has(link.operationId)) link.operationId = ids.get(link.operationId);
  }
}

/** Inline request body schemas moved into components under a generated name, referenced. */
function bodiesToComponents(doc: Json, name: (operationId: string, path: string, method: string) => string): void {
  for (const { path, method, op } of operationsIn(doc)) {
    const media = op.requestBody?.content?.['application/json'];
    if (isObject(media?.schema) && !media.schema.$ref) media.schema = intoComponents(doc, 'schemas', name(op.operationId, path, method), media.schema);
  }
}

/** A described or defaulted reference wrapped in a single allOf, the description beside it (pydantic 1, NestJS). */
function singleAllOf(doc: Json): void {
  eachSchema(doc, (s) => {
    for (const [k, v] of Object.entries<unknown>(isObject(s.properties) ? s.properties : {})) {
      if (isObject(v) && typeof v.$ref === 'string') { const { $ref, ...rest } = v; s.properties[k] = { ...rest, allOf: [{ $ref }] }; }
    }
  });
}

const words = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(/[^a-zA-Z0-9]+/).filter(Boolean);
const snake = (name: string) => words(name).map((w) => w.toLowerCase()).join('_');
/** pydantic's title of a field or model: its name with underscores as spaces, each word capitalised ("createdAt" → "Createdat"). */
const pydanticTitle = (name: string) => name.split('_').filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1).toLowerCase()).join(' ');

/** A title on every property and every component schema. */
function titles(doc: Json): void {
  for (const [name, s] of Object.entries<Json>(doc.components?.schemas ?? {})) if (isObject(s) && s.title === undefined) s.title = name;
  eachSchema(doc, (s) => {
    for (const [k, v] of Object.entries<unknown>(isObject(s.properties) ? s.properties : {})) if (isObject(v) && v.title === undefined) v.title = pydanticTitle(k);
  });
}

/** Whether a schema already takes null. */
const takesNull = (s: Json) => s.type === 'null' || (Array.isArray(s.type) && s.type.includes('null')) || s.const === null
  || (Array.isArray(s.anyOf) && s.anyOf.some((a: unknown) => isObject(a) && a.type === 'null'));

/** Optional members as pydantic writes `Optional[X] = None`: anyOf [X, null], default null, the title outside. */
function optionalAsNullable(doc: Json): void {
  eachSchema(doc, (s) => {
    // Models only: the overlays of an allOf (no type of their own) are no pydantic model.
    if (!isObject(s.properties) || s.type !== 'object') return;
    const required = new Set<string>(Array.isArray(s.required) ? s.required : []);
    for (const [k, v] of Object.entries<unknown>(s.properties)) {
      if (required.has(k) || !isObject(v) || !Object.keys(v).length || takesNull(v)) continue;
      const { title, description, ...inner } = v;
      s.properties[k] = { anyOf: [inner, { type: 'null' }], ...(title !== undefined ? { title } : {}), ...(description !== undefined ? { description } : {}), default: null };
    }
  });
}

/** FastAPI's 422 on every operation with a parameter or a body, and its two schemas. */
function validation422(doc: Json): void {
  doc.components.schemas.ValidationError = {
    title: 'ValidationError', type: 'object', required: ['loc', 'msg', 'type'],
    properties: {
      loc: { title: 'Location', type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
      msg: { title: 'Message', type: 'string' }, type: { title: 'Error Type', type: 'string' },
    },
  };
  doc.components.schemas.HTTPValidationError = {
    title: 'HTTPValidationError', type: 'object',
    properties: { detail: { title: 'Detail', type: 'array', items: { $ref: '#/components/schemas/ValidationError' } } },
  };
  for (const { op } of operationsIn(doc)) {
    if (!op.requestBody && !(Array.isArray(op.parameters) && op.parameters.length)) continue;
    op.responses['422'] = { description: 'Validation Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/HTTPValidationError' } } } };
  }
}

/** The request body schema of an operation, after any move into components. */
const bodySchemaOf = (doc: Json, operationId: string): Json | undefined => {
  const s = operationIn(doc, operationId)?.requestBody?.content?.['application/json']?.schema;
  const name = schemaRefName(s?.$ref);
  return name ? doc.components.schemas[name] : s;
};

// ---- Text bodies: a bare string or an object with `text` ----

const TEXT_BODIES = ['annotate', 'forceNextResponse'];

/** annotate and next-response take `str | TextBody` (declaration order: the string first). */
function textUnion(doc: Json): void {
  for (const id of TEXT_BODIES) {
    const media = operationIn(doc, id)?.requestBody?.content?.['application/json'];
    if (!media?.schema) continue;
    const object = media.schema.$ref ? media.schema : intoComponents(doc, 'schemas', 'TextBody', media.schema);
    media.schema = { title: 'Body', anyOf: [{ type: 'string', minLength: 1, maxLength: 10_000 }, object] };
  }
}

/** What such a deployment does with a bare string: the same as with {text}. */
const textUnionHooks: FaultHooks = {
  request(req) { if (is(req, ...TEXT_BODIES) && typeof req.body === 'string') req.body = { text: req.body }; },
};

// ---- Time jumps: at least one member ----

/** time-jump's body with its one member optional (null allowed, as pydantic's Optional) and minProperties: 1 (json_schema_extra). */
function timeJumpAtLeastOne(doc: Json): void {
  const body = bodySchemaOf(doc, 'timeJump');
  if (!body) return;
  body.required = [];
  body.minProperties = 1;
}

/** "Exactly one of seconds, minutes, hours, days": each a positive number, one member only. */
const UNIT_SECONDS: Record<string, number> = { seconds: 1, minutes: 60, hours: 3600, days: 86_400 };
function timeJumpOneUnit(doc: Json): void {
  const media = operationIn(doc, 'timeJump')?.requestBody?.content?.['application/json'];
  if (!media) return;
  const amount = (unit: string) => ({ type: 'number', exclusiveMinimum: 0, maximum: 31_536_000 / UNIT_SECONDS[unit], description: `Simulated ${unit} to advance (at most one year).` });
  media.schema = {
    type: 'object', additionalProperties: false, minProperties: 1, maxProperties: 1,
    description: 'Exactly one of seconds, minutes, hours, days.',
    properties: Object.fromEntries(Object.keys(UNIT_SECONDS).map((u) => [u, amount(u)])),
  };
}

/** What such a deployment does with minutes, hours or days: the same as with their seconds. */
const timeJumpUnitHooks: FaultHooks = {
  request(req) {
    const body = req.body;
    if (!is(req, 'timeJump') || !isObject(body)) return;
    const [unit, ...more] = Object.keys(body);
    if (more.length || !unit || unit === 'seconds' || !UNIT_SECONDS[unit] || typeof body[unit] !== 'number') return;
    req.body = { seconds: body[unit] * UNIT_SECONDS[unit] };
  },
};

// ---- Optional members: null is their default ----

/**
 * The members of a request's body that the FastAPI document declares Optional (`X | None = None`: a
 * union with null), each with its schema; the document is the deployment's own, fetched once per proxy
 * and rewritten as `fastApi` writes it.
 */
export async function optionalMembers(req: FaultRequest, ctx: FaultContext): Promise<Array<[string, Json]>> {
  if (!req.operationId || !isObject(req.body)) return [];
  if (!ctx.state.has(OPTIONAL)) {
    const original = (await ctx.forward({ ...req, method: 'GET', path: '/openapi.json', query: new URLSearchParams(), body: undefined, rawBody: '', operationId: 'getOpenApi', params: {} })).body as Json;
    const where = new Map([...operationsIn(original)].map(({ path, method, op }) => [op.operationId as string, { path, method }]));
    const doc = structuredClone(original);
    fastApi(doc);
    // The rewrite of the deployment's own document: test/conformance/dialects.test.ts checks it is valid OpenAPI.
    const reader = await OpenApiReader.load(doc, { validated: true });
    ctx.state.set(OPTIONAL, (operationId: string) => {
      const at = where.get(operationId);
      const op = at && reader.operationAt(at.method, at.path);
      const body = op && reader.requestSchema(op.operationId);
      const members = body ? mergeAllOf(body).properties : undefined;
      return isObject(members) ? Object.entries<Json>(members).filter(([, m]) => isObject(m) && takesNull(m)) : [];
    });
  }
  return (ctx.state.get(OPTIONAL) as (operationId: string) => Array<[string, Json]>)(req.operationId);
}
const OPTIONAL = 'fastapi-optional-members';

/** What such a deployment does with null for an Optional member: pydantic takes it for the default, as if it were absent. */
const nullAsDefaultHooks: FaultHooks = {
  async request(req, ctx) {
    const body = req.body;
    if (!isObject(body) || !Object.values(body).includes(null)) return;
    for (const [name] of await optionalMembers(req, ctx)) if (body[name] === null) delete body[name];
  },
};

/** Every hook of a FastAPI deployment: the text union and null for Optional members. */
export const fastApiHooks: FaultHooks = {
  async request(req, ctx) {
    await textUnionHooks.request!(req, ctx);
    await nullAsDefaultHooks.request!(req, ctx);
  },
};

// ---- springdoc ----

const REASONS: Record<string, string> = { 200: 'OK', 201: 'Created', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 409: 'Conflict', 410: 'Gone', 413: 'Payload Too Large', 429: 'Too Many Requests', 500: 'Internal Server Error' };

/** Every response under `*\/*`, described by its reason phrase; a @ControllerAdvice's error responses (the envelope) on every operation. */
function springResponses(doc: Json): void {
  for (const { content, type, request } of [...mediaTypesIn(doc)]) {
    if (request || type !== 'application/json') continue;
    content['*/*'] = content[type];
    delete content[type];
  }
  for (const { op } of operationsIn(doc)) {
    for (const status of ['400', '404', '500']) {
      op.responses[status] ??= { description: '', content: { '*/*': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } };
    }
    for (const [status, res] of Object.entries<Json>(op.responses)) if (isObject(res) && REASONS[status]) res.description = REASONS[status];
  }
}

// ---- @fastify/swagger ----

/** Every response described "Default Response"; bodies marked required. */
function fastifyResponses(doc: Json): void {
  for (const { op } of operationsIn(doc)) {
    for (const res of Object.values<Json>(op.responses)) if (isObject(res) && !res.$ref) res.description = 'Default Response';
    if (isObject(op.requestBody)) op.requestBody.required = true;
  }
}

// ---- The catalogue ----

const fastApiOperationId = (operationId: string, path: string, method: string) => `${snake(operationId)}${path.replace(/\W/g, '_')}_${method}`;

/** FastAPI (pydantic 2, OpenAPI 3.1), as `app.openapi()` writes it for models declared in Python. */
export function fastApi(doc: Json): void {
  noSelfPath(doc);
  // Before bodies are shared as components: time-jump's is tick's until it changes.
  textUnion(doc);
  timeJumpAtLeastOne(doc);
  bodiesToComponents(doc, (...op) => `Body_${fastApiOperationId(...op)}`);
  renameOperationIds(doc, fastApiOperationId);
  titles(doc);
  optionalAsNullable(doc);
  validation422(doc);
  perOperationSecurity(doc);
}

export const FRAMEWORK_DOCUMENTS: Dialect[] = [
  // FastAPI 0.100+ with pydantic 2: the commonest Python stack, and the one a new deployment of SPEC.md was built with.
  {
    id: 'fastapi', areas: [...DOCUMENT, 'errors', 'personas', 'world-parts'],
    description: 'FastAPI/pydantic 2: no /openapi.json path, a title on every property, optional members as anyOf [X, null] (null taken for the default, as pydantic does), Body_<operationId> components, '
      + 'annotate and next-response as anyOf [string, TextBody], time-jump with minProperties: 1 and no required member, 422 HTTPValidationError on every operation',
    style: 'FastAPI, pydantic 2',
    rewrite: fastApi,
    hooks: fastApiHooks,
  },
  // FastAPI before 0.100 (pydantic 1), still the most deployed: a described reference is allOf [$ref].
  {
    id: 'fastapi-pydantic1', areas: DOCUMENT,
    description: 'as fastapi, and every referenced property wrapped in a single allOf beside its title (pydantic 1)',
    style: 'FastAPI < 0.100, pydantic 1',
    rewrite: (doc) => { fastApi(doc); singleAllOf(doc); },
    hooks: fastApiHooks,
  },
  // springdoc-openapi 1.x/2.x for Spring Boot: 3.0.1, */* answers, @ControllerAdvice errors everywhere, the server it ran on.
  {
    id: 'springdoc', areas: DOCUMENT,
    description: 'springdoc: OpenAPI 3.0.1, no /openapi.json path, every response under */* with its reason phrase, 400/404/500 envelopes on every operation, servers: the generated server url',
    style: 'springdoc',
    rewrite: (doc, env) => {
      noSelfPath(doc);
      toOpenApi30(doc);
      doc.openapi = '3.0.1';
      springResponses(doc);
      doc.servers = [{ url: `${env.tripwireUrl}/generated`, description: 'Generated server url' }];
    },
  },
  // NestJS with @nestjs/swagger: DTO classes, Controller_method ids, nested DTOs as allOf [$ref].
  {
    id: 'nestjs', areas: DOCUMENT,
    description: 'NestJS swagger module: OpenAPI 3.0.0, no /openapi.json path, operationIds <Controller>_<method>, request bodies as <Operation>Dto components, nested references as allOf [$ref], empty response descriptions',
    style: '@nestjs/swagger',
    rewrite: (doc) => {
      noSelfPath(doc);
      bodiesToComponents(doc, (operationId) => `${componentName(operationId)}Dto`);
      singleAllOf(doc);
      toOpenApi30(doc);
      doc.openapi = '3.0.0';
      renameOperationIds(doc, (operationId, path) => `${componentName(path.split('/')[1] || 'app')}Controller_${operationId}`);
      for (const { op } of operationsIn(doc)) for (const res of Object.values<Json>(op.responses)) if (isObject(res) && !res.$ref) res.description = '';
    },
  },
  // @fastify/swagger (dynamic mode) from route schemas: def-N names, Default Response, and a hand-written time-jump body.
  {
    id: 'fastify-swagger', areas: DOCUMENT,
    description: '@fastify/swagger: OpenAPI 3.0.3, no /openapi.json path, component schemas named def-0, def-1…, "Default Response", security per route, '
      + 'time-jump as exactly one of seconds, minutes, hours, days (minProperties and maxProperties 1)',
    style: '@fastify/swagger',
    rewrite: (doc) => {
      noSelfPath(doc);
      timeJumpOneUnit(doc);
      renameSchemas(doc, (_name, i) => `def-${i}`);
      toOpenApi30(doc);
      fastifyResponses(doc);
      perOperationSecurity(doc);
    },
    hooks: timeJumpUnitHooks,
  },
  {
    id: 'control-fastapi-stricter', areas: ['worlds'], control: { mustFail: ['CONTRACT-2'] },
    description: 'control: the fastapi document, with the result of POST /worlds also requiring `revision`, which the reference never sends',
    style: '(control)',
    rewrite: (doc) => { requireUnsent(doc); fastApi(doc); },
    hooks: fastApiHooks,
  },
];
