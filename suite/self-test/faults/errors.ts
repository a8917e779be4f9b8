// Faults of the error codes and validation (ERR-1..10): codes turned into others or a 5xx, inputs left
// unchecked or coerced by a lenient parser, errors on routes no operation has.
import type { Fault } from '../faults.ts';
import { type FaultRequest, type Json, alsoSend, codeOf, is, isDocument, isObject, json, made, okResult, onBody, onDocument, onResult, operationOf, remember, renameCode, statusFor, triggersOf } from './helpers.ts';
import { fastApi, fastApiHooks, optionalMembers } from '../frameworks.ts';
import { typeOf as valueTypeOf } from '../../bodies/values.ts';

/** A number member given as a numeric string, turned into the number (Number("60")), as a lenient parser does. */
const coerceNumber = (o: Json | undefined, key: string) => {
  const v = o?.[key];
  if (o && typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) o[key] = Number(v);
};

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** A request no operation of SPEC.md serves: 'method' when its path has other methods, else 'path'. */
const unknownRoute = (req: FaultRequest): 'path' | 'method' | undefined => {
  if (req.operationId !== undefined || isDocument(req)) return undefined;
  return METHODS.some((m) => operationOf(m, req.path).operationId) ? 'method' : 'path';
};

/** Sends the request on to the id `to` instead of the one it names. */
const retarget = (req: FaultRequest, to: string) => {
  req.path = req.path.replace(/^(\/(?:worlds|personas)\/)[^/]+/, `$1${encodeURIComponent(to)}`);
  req.params.id = to;
};

export const FAULTS: Fault[] = [
  {
    id: 'world-not-found-as-500', areas: ['errors'], expected: ['ERR-1'],
    description: 'WORLD_NOT_FOUND comes with status 500',
    response: statusFor('WORLD_NOT_FOUND', 500),
  },
  {
    id: 'model-world-id-prefix-match', areas: ['model'], expected: ['ERR-1'],
    description: 'a world id with characters added after a known id (a prefix match) is served as that world',
    request: (req, ctx) => {
      const id = req.params.id;
      if (!id || !req.path.startsWith('/worlds/') || made(ctx, 'worlds').has(id)) return;
      const known = [...made(ctx, 'worlds')].find((w) => id.length > w.length && id.startsWith(w));
      if (known) retarget(req, known);
    },
    response: remember,
  },
  {
    id: 'entity-not-found-as-400', areas: ['errors'], expected: ['ERR-2'],
    description: 'ENTITY_NOT_FOUND comes with status 400',
    response: statusFor('ENTITY_NOT_FOUND', 400),
  },
  {
    id: 'event-unknown-entity-ignored', areas: ['errors'], only: ['ERR-2'], expected: ['ERR-2'],
    description: 'an event whose targetEntity or sourceEntity names no entity is dispatched as if it named none (to every entity)',
    async answer(req, ctx) {
      if (!is(req, 'dispatchEvent') || !isObject(req.body)) return undefined;
      const res = await ctx.forward(req);
      if (codeOf(res) !== 'ENTITY_NOT_FOUND') return res;
      const { targetEntity: _t, sourceEntity: _s, ...rest } = req.body as Json;
      return alsoSend(ctx, req, 'POST', req.path, rest);
    },
  },
  {
    id: 'model-entity-name-prefix', areas: ['model'], expected: ['ERR-2'],
    description: 'POST /worlds/{id}/context takes an entityName that begins a known entity name ("an" for "ana") as that entity',
    request: (req, ctx) => {
      const b = req.body as Json;
      if (is(req, 'createWorld') && Array.isArray(b?.entities)) ctx.state.set('entityNames', b.entities.map((e: Json) => e?.name).filter((n: unknown) => typeof n === 'string'));
      if (!is(req, 'worldContext') || typeof b?.entityName !== 'string' || b.entityName.length < 2) return;
      const names = (ctx.state.get('entityNames') as string[] | undefined) ?? [];
      const known = names.find((n) => n !== b.entityName && n.startsWith(b.entityName));
      if (known && !names.includes(b.entityName)) b.entityName = known;
    },
  },
  {
    id: 'validation-error-as-500', areas: ['errors'], expected: ['ERR-3'],
    description: 'VALIDATION_ERROR comes with status 500',
    response: statusFor('VALIDATION_ERROR', 500),
  },
  {
    id: 'mutate-bad-operation-as-500', areas: ['errors'], expected: ['ERR-3'],
    description: 'a batch mutation with a wrongly typed operation is answered 500 (every other VALIDATION_ERROR stays 400)',
    response: (res, req) => { if (is(req, 'mutateWorld') && codeOf(res) === 'VALIDATION_ERROR') res.status = 500; },
  },
  {
    id: 'mutate-bad-operation-ok', areas: ['errors'], expected: ['ERR-3'],
    description: 'a batch mutation refused for a wrongly typed operation is answered 200 with every result ok: true',
    response: (res, req) => {
      const operations = (req.body as Json | undefined)?.operations;
      if (!is(req, 'mutateWorld') || codeOf(res) !== 'VALIDATION_ERROR' || !Array.isArray(operations)) return;
      Object.assign(res, okResult({ results: operations.map((o: Json) => ({ op: String(o?.op), ok: true })) }));
    },
  },
  {
    id: 'nested-members-unchecked', areas: ['errors'], expected: ['ERR-3'],
    description: 'world definitions are not validated below the top level (a wrongly typed nested member is dropped, the world created)',
    request: onBody(['createWorld'], (b) => { if (b.definition && typeof b.definition === 'object' && !Array.isArray(b.definition)) b.definition = { identity: { name: 'nested members not validated' } }; }),
  },
  {
    id: 'event-members-unchecked', areas: ['errors'], only: ['ERR-3'], expected: ['ERR-3'],
    // The near miss: one member of the Event, the last string one, every other still checked.
    description: 'a dispatched event\'s targetEntity is not type-checked: one that is no string is made one (String(v)); type, spaceId and the rest are',
    request: onBody(['dispatchEvent'], (b) => {
      if (b.targetEntity !== undefined && typeof b.targetEntity !== 'string') b.targetEntity = String(b.targetEntity);
    }),
  },
  {
    id: 'numeric-string-coerced', areas: ['errors'], only: ['ERR-3'], expected: ['ERR-3'],
    description: 'number members (tick seconds, VAD members, event timestamp, trigger threshold) given as numeric strings are coerced: "60" is taken as 60',
    request: (req) => {
      const b = req.body as Json | undefined;
      if (!b || typeof b !== 'object') return;
      if (is(req, 'tickWorld', 'tickPersona', 'timeJump')) coerceNumber(b, 'seconds');
      if (is(req, 'overrideEmotion') && b.vad && typeof b.vad === 'object') for (const k of ['V', 'A', 'D']) coerceNumber(b.vad, k);
      if (is(req, 'dispatchEvent', 'perceive')) coerceNumber(b, 'timestamp');
      if (is(req, 'createWorld')) for (const t of triggersOf(b)) coerceNumber(t.condition, 'threshold');
    },
  },
  {
    id: 'boolean-string-coerced', areas: ['errors'], only: ['ERR-3'], expected: ['ERR-3'],
    description: 'rules.physics (map<string,boolean>) values given as "true" or "false" are coerced to booleans',
    request: onBody(['createWorld'], (b) => {
      const physics = b.definition?.rules?.physics;
      if (physics && typeof physics === 'object') for (const [k, v] of Object.entries(physics)) if (v === 'true' || v === 'false') physics[k] = v === 'true';
    }),
  },
  {
    id: 'model-physics-value-coerced', areas: ['model'], expected: ['ERR-3'],
    description: 'POST /worlds takes a number in rules.physics as a boolean (1 → true, 0 → false)',
    request: (req) => {
      const physics = (req.body as Json)?.definition?.rules?.physics;
      if (is(req, 'createWorld') && isObject(physics)) for (const [k, v] of Object.entries(physics)) if (v === 1 || v === 0) physics[k] = v === 1;
    },
  },
  {
    id: 'persona-not-found-renamed', areas: ['errors'], expected: ['ERR-4'],
    description: 'PERSONA_NOT_FOUND is renamed NOT_FOUND',
    response: renameCode('PERSONA_NOT_FOUND', 'NOT_FOUND'),
  },
  {
    id: 'model-persona-id-suffix-match', areas: ['model'], expected: ['ERR-4'],
    description: 'a persona id without its first character (a suffix match) is served as that persona',
    request: (req, ctx) => {
      const id = req.params.id;
      if (!id || !req.path.startsWith('/personas/') || made(ctx, 'personas').has(id)) return;
      const known = [...made(ctx, 'personas')].find((p) => p.length === id.length + 1 && p.endsWith(id));
      if (known) retarget(req, known);
    },
    response: remember,
  },
  {
    id: 'persona-not-found-as-410', areas: ['errors'], expected: ['ERR-5'],
    description: 'PERSONA_NOT_FOUND comes with status 410',
    response: statusFor('PERSONA_NOT_FOUND', 410),
  },
  {
    id: 'snapshot-import-unchecked', areas: ['errors'], expected: ['ERR-7'],
    description: 'world snapshot imports with a wrongly typed nested member are answered {ok: true} without being applied',
    answer: (req) => {
      if (!is(req, 'putWorldSnapshot')) return undefined;
      const text = JSON.stringify(req.body ?? {});
      return text.includes('"not-a-number"') ? okResult() : undefined;
    },
  },
  {
    id: 'missing-member-defaulted', areas: ['errors'], expected: ['ERR-6'],
    description: 'a chat without message is not refused: the deployment fills one in',
    request: onBody(['chat'], (b) => { if (b.message === undefined) b.message = '(no message)'; }),
  },
  {
    // Errors: "`VALIDATION_ERROR` 400: request body failed schema validation". A FastAPI service whose
    // Optional members go through a lenient "before" validator (what does not parse becomes None): its
    // document says anyOf [X, null], and a value of another type there is taken for no value.
    id: 'optional-member-unchecked', areas: ['errors'], only: ['ERR-6'], expected: ['ERR-6'],
    description: 'a FastAPI-style deployment (its document: optional members as anyOf [X, null]) takes a wrong-typed value of an optional member for none: a perceive with timestamp "not-a-number" is processed',
    async request(req, ctx) {
      await fastApiHooks.request!(req, ctx);
      const body = req.body;
      if (!body || typeof body !== 'object' || Array.isArray(body)) return;
      for (const [name, schema] of await optionalMembers(req, ctx)) {
        const types = (Array.isArray(schema.anyOf) ? schema.anyOf : [schema]).flatMap((arm: Json) => arm?.type);
        const type = valueTypeOf((body as Json)[name]);
        if (name in body && types.every(Boolean) && !types.includes(type) && !(type === 'integer' && types.includes('number'))) delete (body as Json)[name];
      }
    },
    response: onDocument(fastApi),
  },
  {
    id: 'unknown-route-framework-detail', areas: ['errors'], only: ['ERR-8', 'ERR-9'], expected: ['ERR-8'],
    description: "a path no operation has answers a framework's default 404 {\"detail\": \"Not Found\"}, a method a path lacks 405 {\"detail\": \"Method Not Allowed\"}",
    answer: (req) => {
      const kind = unknownRoute(req);
      return kind ? json(kind === 'path' ? 404 : 405, { detail: kind === 'path' ? 'Not Found' : 'Method Not Allowed' }) : undefined;
    },
  },
  {
    id: 'unknown-route-html-404', areas: ['errors'], only: ['ERR-8', 'ERR-9'], expected: ['ERR-8'],
    description: 'a path or method no operation has is answered 404 with an HTML page',
    answer: (req) => (unknownRoute(req)
      ? { status: 404, headers: { 'content-type': 'text/html' }, body: '<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>' }
      : undefined),
  },
  {
    id: 'unknown-path-400', areas: ['errors'], only: ['ERR-8', 'ERR-9'], expected: ['ERR-9'],
    description: 'a path no operation has is answered 400 VALIDATION_ERROR (the envelope, a status that says nothing of the route)',
    answer: (req) => (unknownRoute(req) === 'path' ? json(400, { error: { code: 'VALIDATION_ERROR', message: 'fault: bad request' } }) : undefined),
  },
  {
    id: 'mutate-unknown-entity-ok', areas: ['errors'], only: ['ERR-10'], expected: ['ERR-10'],
    description: 'a batch operation naming an entity the world does not have is reported ok: true (silently skipped)',
    response: onResult(['mutateWorld'], (r) => {
      for (const x of Array.isArray(r.results) ? r.results : []) if (x?.ok === false && /not exist|not found/i.test(String(x.error))) { x.ok = true; delete x.error; }
    }),
  },
];
