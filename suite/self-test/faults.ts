// Faulty deployments: each is ONE fault, injected by the proxy (proxy.ts) in front of a correct
// deployment. A fault names the areas whose checks should notice it (the matrix runs only those) and
// the requirements at least one of which must fail. Together they prove that every check can fail:
// every requirement of contract/requirements.ts is expected by at least one fault (a test keeps it so).
import { EMBEDDED_RATE_WINDOW_MS } from '../../contract/plans.ts';
import { REQUIREMENTS, type RequirementId, type SelectableArea } from '../../contract/requirements.ts';
import { json, wait, type FaultContext, type FaultHooks, type FaultRequest } from './proxy.ts';
import { codeOf, is, is2xx, isDocument, keyOf, onDocument, onResult, originMatchedBy, resultOf, type Json } from './hooks.ts';
import { fastApi, fastApiHooks, optionalMembers } from './frameworks.ts';
import { typeOf as valueTypeOf } from '../generate/values.ts';
import { SENTENCE_FAULTS } from './faults/sentences.ts';
import { MEMBER_FAULTS } from './faults/members.ts';
import { RATE_LIMIT_FAULTS } from './faults/rate-limit.ts';
import { MODEL_FAULTS } from './faults/model.ts';
import { MODEL_PERSONA_FAULTS } from './faults/model-personas.ts';
import { STACK_FAULTS } from './faults/stacks.ts';
import { VERDICT_FAULTS } from './faults/verdict.ts';

export interface Fault extends FaultHooks {
  id: string;
  description: string;
  /** Areas of the suite to run against it (`--only`). */
  areas: SelectableArea[];
  /**
   * Only the checks of these requirements run in those areas (`--only ID`), for a fault only they
   * can see: the matrix stays fast as it grows. Default: every check of the areas.
   */
  only?: RequirementId[];
  /** Requirement ids at least one of which must fail; [] for a control that must pass. */
  expected: RequirementId[];
  /** Shown instead of the ids (e.g. "any MUST"). */
  expectedLabel?: string;
  /** Request timeout of the run against this fault (ms), when it is about time. */
  timeoutMs?: number;
  /** Budget of the generated area in the run against this fault (default: the matrix's). */
  generated?: number;
}

// ---- Helpers the faults are written with (the shared ones are in hooks.ts) ----

/** A success the deployment never produced: what a handler that does nothing would answer. */
const okResult = (result: unknown = { ok: true }) => json(200, { result });

/** Rewrites the status of error responses with this code. */
const statusFor = (code: string, status: number): FaultHooks['response'] => (res) => { if (codeOf(res) === code) res.status = status; };
/** Renames an error code. */
const renameCode = (code: string, to: string): FaultHooks['response'] => (res) => { if (codeOf(res) === code) (res.body as Json).error.code = to; };
/** Changes the JSON body of some operations before it is forwarded. */
const onBody = (operationIds: string[], change: (body: Json, req: FaultRequest) => void): FaultHooks['request'] => (req) => {
  if (is(req, ...operationIds) && req.body && typeof req.body === 'object' && !Array.isArray(req.body)) change(req.body as Json, req);
};
/** Answers a success without forwarding: the operation does nothing. */
const noop = (operationIds: string[], result: unknown = { ok: true }): FaultHooks['answer'] => (req) => (is(req, ...operationIds) ? okResult(result) : undefined);
const eachProgression = (result: Json, change: (p: Json) => void) => { if (result.progression && typeof result.progression === 'object') change(result.progression); };
/** Another request to the deployment, with the headers (key, origin) of the one being handled. */
const forwardTo = (ctx: FaultContext, req: FaultRequest, method: string, path: string, body?: unknown) => {
  const headers = { ...req.headers };
  delete headers['content-type'];
  if (body !== undefined) headers['content-type'] = 'application/json';
  return ctx.forward({ ...req, method, path, query: new URLSearchParams(), headers, body, params: {}, operationId: undefined });
};
const triggersOf = (body: Json): Json[] => (Array.isArray(body.definition?.progression?.triggers) ? body.definition.progression.triggers : []);

/** The keys the deployment knows. */
const knownKeys = (ctx: FaultContext) => [ctx.keys.mainKey, ctx.keys.secondKey, ctx.keys.rateLimitKey, ctx.keys.originKey].filter((k): k is string => !!k);
/** A key comparison gone wrong: an unknown key that `match`es a known one is served as that key. */
const keyMatchedBy = (match: (sent: string, known: string) => boolean): FaultHooks['request'] => (req, ctx) => {
  const sent = keyOf(req);
  if (!sent || knownKeys(ctx).includes(sent)) return;
  const known = knownKeys(ctx).find((k) => match(sent, k));
  if (known) req.headers['x-api-key'] = known;
};
const hostOf = (origin: string) => { try { return new URL(origin).hostname; } catch { return undefined; } };
/** The set of ids kept under `name` in the proxy's memory. */
const idSet = (ctx: FaultContext, name: string): Set<string> => {
  if (!ctx.state.has(name)) ctx.state.set(name, new Set<string>());
  return ctx.state.get(name) as Set<string>;
};
/** Keeps the ids the main tenant soft-deleted (and no longer once restored) under `deleted`, and those restored under `restored`. */
const trackDeletes: FaultHooks['response'] = (res, req, ctx) => {
  const id = req.params.id;
  if (!id || !is2xx(res) || keyOf(req) !== ctx.keys.mainKey) return;
  if (is(req, 'deleteWorld', 'deletePersona')) { idSet(ctx, 'deleted').add(id); idSet(ctx, 'restored').delete(id); }
  if (is(req, 'restoreWorld', 'restorePersona')) { idSet(ctx, 'deleted').delete(id); idSet(ctx, 'restored').add(id); }
};
/** The string values of a body (an annotation or a forced text, whatever member carries it). */
const stringsOf = (body: unknown): string[] => (typeof body === 'string' ? [body] : body && typeof body === 'object' ? Object.values(body).filter((v): v is string => typeof v === 'string') : []);
/** A number member given as a numeric string, turned into the number (Number("60")), as a lenient parser does. */
const coerceNumber = (o: Json | undefined, key: string) => {
  const v = o?.[key];
  if (o && typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) o[key] = Number(v);
};

/** Whether a request names this word: as a path segment, a query value or key, or a key or string of its body. */
function names(req: FaultRequest, word: string): boolean {
  if (req.path.split('/').some((s) => { try { return decodeURIComponent(s) === word; } catch { return false; } })) return true;
  if ([...req.query.entries()].some(([k, v]) => k === word || v === word)) return true;
  const stack: unknown[] = [req.body];
  while (stack.length) {
    const v = stack.pop();
    if (v === word) return true;
    if (typeof v === 'string' && v.includes(`"${word}"`)) return true;
    if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) { if (k === word) return true; stack.push(x); }
  }
  return false;
}

/** How deep a body nests (a parsed value, or a text the proxy could not parse), without recursion. */
function nesting(body: unknown): number {
  if (typeof body === 'string') {
    let depth = 0, max = 0, inString = false;
    for (let i = 0; i < body.length; i++) {
      const c = body[i];
      if (inString) { if (c === '\\') i++; else if (c === '"') inString = false; continue; }
      if (c === '"') inString = true;
      else if (c === '[' || c === '{') max = Math.max(max, ++depth);
      else if (c === ']' || c === '}') depth--;
    }
    return max;
  }
  let max = 0;
  const stack: Array<[unknown, number]> = [[body, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (!v || typeof v !== 'object') continue;
    max = Math.max(max, d + 1);
    for (const x of Object.values(v)) stack.push([x, d + 1]);
  }
  return max;
}

export const MUST_IDS = REQUIREMENTS.filter((r) => r.level === 'MUST').map((r) => r.id);

/** A delay on every request (GET /openapi.json too, unless `documentToo` is false): the load tests use it for a slow target. */
export function slowFault(delayMs: number, options: { documentToo?: boolean; only?: (req: FaultRequest) => boolean } = {}): FaultHooks {
  return {
    async request(req, ctx) {
      if (options.documentToo === false && isDocument(req)) return;
      if (options.only && !options.only(req)) return;
      await wait(delayMs, ctx);
    },
  };
}

/** Answers every `n`th request (GET /openapi.json not counted) 503 without forwarding. */
export function flakyFault(n: number): FaultHooks {
  return {
    answer: (req) => (req.seq >= 0 && req.seq % n === n - 1 ? json(503, { error: { code: 'UNAVAILABLE', message: 'fault: temporarily unavailable' } }, { 'retry-after': '1' }) : undefined),
  };
}

export const FAULTS: Fault[] = [
  // ---- Envelopes and content types ----
  {
    id: 'env-result-unwrapped', areas: ['worlds'], expected: ['ENV-1'],
    description: '2xx bodies come without the `result` wrapper',
    response: (res, req) => { const r = isDocument(req) ? undefined : resultOf(res); if (r) res.body = r; },
  },
  {
    id: 'env-error-without-code', areas: ['errors'], expected: ['ENV-2'],
    description: 'error bodies lose error.code',
    response: (res) => { if (res.status >= 400 && codeOf(res) !== undefined) delete (res.body as Json).error.code; },
  },
  {
    id: 'env-text-plain', areas: ['worlds'], expected: ['ENV-3'],
    description: 'JSON bodies are labelled text/plain',
    response: (res, req) => { if (!isDocument(req) && res.body !== undefined) res.headers['content-type'] = 'text/plain; charset=utf-8'; },
  },

  // ---- Schema violations, one kind of resource each ----
  {
    id: 'world-created-without-createdAt', areas: ['worlds'], expected: ['CONTRACT-1', 'WORLD-1'],
    description: 'POST /worlds answers {worldId} without createdAt',
    response: onResult(['createWorld'], (r) => { delete r.createdAt; }),
  },
  {
    id: 'world-without-engineVersion', areas: ['worlds'], expected: ['WORLD-5', 'CONTRACT-1'],
    description: 'worlds (GET /worlds/{id}, GET /worlds) lose engineVersion',
    response: onResult(['getWorld', 'listWorlds'], (r) => {
      for (const w of [r.world, ...(Array.isArray(r.worlds) ? r.worlds : [])]) if (w && typeof w === 'object') delete w.engineVersion;
    }),
  },
  {
    id: 'chat-intensity-string', areas: ['simulation'], expected: ['CONTRACT-1'],
    description: 'chat response.discrete.intensity is a string',
    response: onResult(['chat'], (r) => { if (r.response?.discrete) r.response.discrete.intensity = String(r.response.discrete.intensity); }),
  },
  {
    id: 'chat-valence-below-bound', areas: ['simulation'], expected: ['SIM-11', 'CONTRACT-1'],
    description: 'chat response.emotion.V is -1.5 (below the bound -1)',
    response: onResult(['chat'], (r) => { if (r.response?.emotion) r.response.emotion.V = -1.5; }),
  },
  {
    id: 'chat-without-groupAwareness', areas: ['simulation'], expected: ['SIM-1', 'CONTRACT-1'],
    description: 'chat results lose groupAwareness',
    response: onResult(['chat'], (r) => { delete r.groupAwareness; }),
  },
  {
    id: 'event-type-not-echoed', areas: ['simulation'], expected: ['SIM-2'],
    description: 'POST /worlds/{id}/events answers type "event" whatever was dispatched (schema-valid)',
    response: onResult(['dispatchEvent'], (r) => { r.type = 'event'; }),
  },
  {
    id: 'tick-without-events', areas: ['simulation'], expected: ['SIM-3', 'CONTRACT-1'],
    description: 'POST /worlds/{id}/tick results lose events',
    response: onResult(['tickWorld'], (r) => { delete r.events; }),
  },
  {
    id: 'query-space-extra-member', areas: ['simulation'], expected: ['CONTRACT-1'],
    description: 'query answers spaces with an extra member (Space is closed)',
    response: onResult(['queryWorld'], (r) => { for (const s of Array.isArray(r.spaces) ? r.spaces : []) s.floor = 3; }),
  },
  {
    id: 'query-loses-an-entity', areas: ['simulation'], expected: ['SIM-4'],
    description: 'query leaves out the last entity of the world (schema-valid)',
    response: onResult(['queryWorld'], (r) => { if (Array.isArray(r.entities)) r.entities = r.entities.slice(0, -1); }),
  },
  {
    id: 'context-ignores-entityName', areas: ['simulation', 'errors'], expected: ['SIM-5', 'ERR-2'],
    description: "POST /worlds/{id}/context answers the context of the world's first entity whatever entityName says",
    async request(req, ctx) {
      if (!is(req, 'worldContext') || !req.body || typeof req.body !== 'object') return;
      const q = await forwardTo(ctx, req, 'POST', `/worlds/${encodeURIComponent(req.params.id)}/query`, {});
      const first = (resultOf(q)?.entities ?? [])[0]?.name;
      if (typeof first === 'string') (req.body as Json).entityName = first;
    },
  },
  {
    id: 'snapshot-without-recentEvents', areas: ['simulation'], expected: ['SIM-9', 'CONTRACT-1'],
    description: 'GET /worlds/{id}/snapshot loses recentEvents',
    response: onResult(['getWorldSnapshot'], (r) => { delete r.recentEvents; }),
  },
  {
    id: 'persona-created-without-createdAt', areas: ['personas'], expected: ['PERS-1', 'CONTRACT-1'],
    description: 'POST /personas answers {personaId} without createdAt',
    response: onResult(['createPersona'], (r) => { delete r.createdAt; }),
  },
  {
    id: 'persona-state-without-mood', areas: ['personas'], expected: ['PERS-6', 'CONTRACT-1'],
    description: 'GET /personas/{id}/state loses mood',
    response: onResult(['getPersonaState'], (r) => { delete r.mood; }),
  },
  {
    id: 'persona-snapshot-without-selfConcept', areas: ['personas'], expected: ['PERS-9', 'CONTRACT-1'],
    description: 'GET /personas/{id}/snapshot loses selfConcept',
    response: onResult(['getPersonaSnapshot'], (r) => { delete r.selfConcept; }),
  },
  {
    id: 'served-document-broken-promise', areas: ['worlds'], expected: ['CONTRACT-2'],
    description: 'the served /openapi.json declares World.engineVersion a number; the deployment answers a string',
    response: onDocument((doc) => { const w = doc.components?.schemas?.World; if (w?.properties?.engineVersion) w.properties.engineVersion = { type: 'number' }; }),
  },

  // ---- Error codes turned into others or into a 5xx ----
  {
    id: 'world-not-found-as-500', areas: ['errors'], expected: ['ERR-1'],
    description: 'WORLD_NOT_FOUND comes with status 500',
    response: statusFor('WORLD_NOT_FOUND', 500),
  },
  {
    id: 'entity-not-found-as-400', areas: ['errors'], expected: ['ERR-2'],
    description: 'ENTITY_NOT_FOUND comes with status 400',
    response: statusFor('ENTITY_NOT_FOUND', 400),
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
    id: 'persona-not-found-renamed', areas: ['errors'], expected: ['ERR-4'],
    description: 'PERSONA_NOT_FOUND is renamed NOT_FOUND',
    response: renameCode('PERSONA_NOT_FOUND', 'NOT_FOUND'),
  },
  {
    id: 'persona-not-found-as-410', areas: ['errors'], expected: ['ERR-5'],
    description: 'PERSONA_NOT_FOUND comes with status 410',
    response: statusFor('PERSONA_NOT_FOUND', 410),
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
    id: 'unauthorized-as-403', areas: ['auth'], expected: ['AUTH-1', 'AUTH-2'],
    description: 'UNAUTHORIZED comes with status 403',
    response: statusFor('UNAUTHORIZED', 403),
  },
  {
    id: 'rate-limited-renamed', areas: ['rate-limit'], expected: ['RATE-1'],
    description: 'RATE_LIMITED is renamed TOO_MANY_REQUESTS',
    response: renameCode('RATE_LIMITED', 'TOO_MANY_REQUESTS'),
  },

  // ---- Authentication and the origin allowlist ----
  {
    id: 'auth-missing-key-filled-in', areas: ['auth'], expected: ['AUTH-1'],
    description: 'a request without X-API-Key is served as the main key (auth bypassed)',
    request: (req, ctx) => { if (!keyOf(req)) req.headers['x-api-key'] = ctx.keys.mainKey; },
  },
  {
    id: 'auth-invalid-key-accepted', areas: ['auth'], expected: ['AUTH-2'],
    description: 'an unknown X-API-Key is served as the main key (auth bypassed)',
    request: (req, ctx) => {
      const known = [ctx.keys.mainKey, ctx.keys.secondKey, ctx.keys.rateLimitKey, ctx.keys.originKey];
      const key = keyOf(req);
      if (key && !known.includes(key)) req.headers['x-api-key'] = ctx.keys.mainKey;
    },
  },
  {
    id: 'persona-api-refuses-key', areas: ['auth'], expected: ['AUTH-3'],
    description: 'the Persona API answers 401 to the key the World API accepts',
    answer: (req, ctx) => (req.path.startsWith('/personas') && keyOf(req) === ctx.keys.mainKey
      ? json(401, { error: { code: 'UNAUTHORIZED', message: 'fault: not a persona key' } }) : undefined),
  },
  {
    id: 'origin-allowlist-ignored', areas: ['auth'], expected: ['AUTH-4'],
    description: 'the Origin of an origin-restricted key is rewritten to its allowed origin (allowlist ignored)',
    request: (req, ctx) => { if (req.headers.origin && keyOf(req) === ctx.keys.originKey && ctx.keys.allowedOrigin) req.headers.origin = ctx.keys.allowedOrigin; },
  },
  {
    id: 'origin-key-always-refused', areas: ['auth'], expected: ['AUTH-5'],
    description: 'an origin-restricted key is refused 403 from its allowed origin too',
    answer: (req, ctx) => (keyOf(req) === ctx.keys.originKey ? json(403, { error: { code: 'ORIGIN_NOT_ALLOWED', message: 'fault: origin refused' } }) : undefined),
  },
  {
    id: 'open-key-refused-with-origin', areas: ['auth'], expected: ['AUTH-6'],
    description: 'a key without configured origins is refused 403 when the request carries an Origin',
    answer: (req, ctx) => (req.headers.origin && keyOf(req) === ctx.keys.mainKey ? json(403, { error: { code: 'ORIGIN_NOT_ALLOWED', message: 'fault: origin refused' } }) : undefined),
  },
  {
    id: 'blocked-origin-as-401', areas: ['auth'], expected: ['AUTH-7'],
    description: 'a blocked origin is answered 401 instead of 403',
    response: (res) => { if (res.status === 403) res.status = 401; },
  },

  // ---- Tenant isolation ----
  {
    id: 'other-tenant-world-served', areas: ['isolation'], expected: ['ISO-1'],
    description: "the second tenant's requests on /worlds/{id}… are served as the main tenant (another tenant's world served and changed)",
    request: (req, ctx) => { if (keyOf(req) === ctx.keys.secondKey && req.path.startsWith('/worlds/')) req.headers['x-api-key'] = ctx.keys.mainKey; },
  },
  {
    id: 'other-tenant-worlds-listed', areas: ['isolation'], expected: ['ISO-2'],
    description: "GET /worlds with the second tenant's key lists the main tenant's worlds",
    request: (req, ctx) => { if (keyOf(req) === ctx.keys.secondKey && is(req, 'listWorlds')) req.headers['x-api-key'] = ctx.keys.mainKey; },
  },
  {
    id: 'other-tenant-persona-served', areas: ['isolation'], expected: ['ISO-3'],
    description: "the second tenant's persona requests are served as the main tenant",
    request: (req, ctx) => { if (keyOf(req) === ctx.keys.secondKey && req.path.startsWith('/personas')) req.headers['x-api-key'] = ctx.keys.mainKey; },
  },
  {
    id: 'personas-listed-elsewhere-with-a-foreign-one', areas: ['isolation'], expected: ['ISO-3'],
    description: "GET /personas lists under `items` (its document says so), and the second tenant's list holds the main tenant's personas",
    request: (req, ctx) => { if (keyOf(req) === ctx.keys.secondKey && is(req, 'listPersonas')) req.headers['x-api-key'] = ctx.keys.mainKey; },
    response: (res, req) => {
      const result = is(req, 'listPersonas') ? resultOf(res) : undefined;
      if (result && Array.isArray(result.personas)) { result.items = result.personas; delete result.personas; }
      if (isDocument(req) && res.status === 200 && res.body && typeof res.body === 'object') {
        const schema = (res.body as Json).paths?.['/personas']?.get?.responses?.['200']?.content?.['application/json']?.schema?.properties?.result;
        if (schema?.properties?.personas) { schema.properties.items = schema.properties.personas; delete schema.properties.personas; schema.required = ['items']; }
      }
    },
  },

  // ---- Rate limits and Retry-After ----
  {
    id: 'rate-limit-not-enforced', areas: ['rate-limit'], expected: ['RATE-1'],
    description: "the free-plan key's requests are never limited (forwarded as an unlimited key)",
    request: (req, ctx) => { if (keyOf(req) === ctx.keys.rateLimitKey) req.headers['x-api-key'] = ctx.keys.mainKey; },
  },
  {
    id: 'retry-after-missing', areas: ['rate-limit'], expected: ['RATE-2'],
    description: '429 answers lose Retry-After',
    response: (res) => { if (res.status === 429) delete res.headers['retry-after']; },
  },
  {
    id: 'retry-after-zero', areas: ['rate-limit'], expected: ['RATE-3'],
    description: '429 answers say Retry-After: 0 (a lie: the window is still closed)',
    response: (res) => { if (res.status === 429) res.headers['retry-after'] = '0'; },
  },
  {
    id: 'rate-limit-half-the-plan', areas: ['rate-limit'], expected: ['RATE-4'],
    description: 'the free-plan key is limited at 50 requests a window instead of 100',
    answer: (req, ctx) => {
      if (keyOf(req) !== ctx.keys.rateLimitKey) return undefined;
      const now = Date.now();
      const w = (ctx.state.get('window') as { start: number; count: number } | undefined) ?? { start: now, count: 0 };
      if (now - w.start >= EMBEDDED_RATE_WINDOW_MS) { w.start = now; w.count = 0; }
      w.count += 1;
      ctx.state.set('window', w);
      if (w.count <= 50) return undefined;
      return json(429, { error: { code: 'RATE_LIMITED', message: 'fault: limited' } }, { 'retry-after': String(Math.max(1, Math.ceil((w.start + EMBEDDED_RATE_WINDOW_MS - now) / 1000))) });
    },
  },

  // ---- Pagination ----
  {
    id: 'list-limit-ignored', areas: ['worlds'], expected: ['WORLD-2'],
    description: 'GET /worlds ignores limit (always the default page of 20)',
    request: (req) => { if (is(req, 'listWorlds')) req.query.delete('limit'); },
  },
  {
    id: 'list-cap-ignored', areas: ['worlds'], expected: ['WORLD-3'],
    description: 'GET /worlds?limit=1000 answers 101 worlds (the cap of 100 not applied; padded with repeats, the tenant holds fewer)',
    response: onResult(['listWorlds'], (r, req) => {
      const n = Array.isArray(r.worlds) ? r.worlds.length : 0;
      if (Number(req.query.get('limit')) > 100 && n) while (r.worlds.length <= 100) r.worlds.push(r.worlds[r.worlds.length % n]);
    }),
  },
  {
    id: 'list-cursor-ignored', areas: ['worlds'], expected: ['WORLD-4'],
    description: 'GET /worlds ignores cursor (every page is the first)',
    request: (req) => { if (is(req, 'listWorlds')) req.query.delete('cursor'); },
  },
  {
    id: 'list-first-item-repeated', areas: ['worlds'], expected: ['WORLD-4'],
    description: 'GET /worlds serves the first world of the list again at the top of every following page',
    response: onResult(['listWorlds'], (r, req, ctx) => {
      if (!Array.isArray(r.worlds) || !r.worlds.length) return;
      if (!req.query.get('cursor')) ctx.state.set('first', r.worlds[0]);
      else if (ctx.state.has('first')) r.worlds.unshift(ctx.state.get('first'));
    }),
  },
  {
    id: 'persona-list-repeats', areas: ['personas'], expected: ['PERS-3'],
    description: 'GET /personas serves the first persona again at the top of every following page',
    response: onResult(['listPersonas'], (r, req, ctx) => {
      if (!Array.isArray(r.personas) || !r.personas.length) return;
      if (!req.query.get('cursor')) ctx.state.set('first', r.personas[0]);
      else if (ctx.state.has('first')) r.personas.unshift(ctx.state.get('first'));
    }),
  },

  // ---- Soft-delete and restore ----
  {
    id: 'world-delete-noop', areas: ['states'], expected: ['STATE-1', 'STATE-2'],
    description: 'DELETE /worlds/{id} answers ok and does nothing',
    answer: noop(['deleteWorld']),
  },
  {
    id: 'world-restore-noop', areas: ['states'], expected: ['STATE-1'],
    description: 'POST /worlds/{id}/restore answers ok and does nothing',
    answer: noop(['restoreWorld']),
  },
  {
    id: 'persona-delete-noop', areas: ['states'], expected: ['STATE-3', 'STATE-4'],
    description: 'DELETE /personas/{id} answers ok and does nothing',
    answer: noop(['deletePersona']),
  },
  {
    id: 'persona-restore-noop', areas: ['states'], expected: ['STATE-3'],
    description: 'POST /personas/{id}/restore answers ok and does nothing',
    answer: noop(['restorePersona']),
  },

  // ---- Progression ----
  {
    id: 'event-counts-lost', areas: ['progression'], expected: ['PROG-1'],
    description: 'query answers eventCounts empty',
    response: onResult(['queryWorld'], (r) => eachProgression(r, (p) => { p.eventCounts = {}; })),
  },
  {
    id: 'triggers-never-fire', areas: ['progression'], expected: ['PROG-2'],
    description: 'the triggers of a world definition are dropped at creation',
    request: onBody(['createWorld'], (b) => { if (b.definition?.progression) b.definition.progression.triggers = []; }),
  },
  {
    id: 'trigger-fires-early', areas: ['progression'], expected: ['PROG-2'],
    description: 'triggers fire one event before their threshold',
    request: onBody(['createWorld'], (b) => { for (const t of triggersOf(b)) if (t.condition?.threshold > 1) t.condition.threshold -= 1; }),
  },
  {
    id: 'phase-history-lost', areas: ['progression'], expected: ['PROG-3'],
    description: 'query answers phaseHistory empty',
    response: onResult(['queryWorld'], (r) => eachProgression(r, (p) => { p.phaseHistory = []; })),
  },
  {
    id: 'phase-change-unreported', areas: ['progression'], expected: ['PROG-4'],
    description: 'tick and event results lose phaseChanged',
    response: onResult(['tickWorld', 'dispatchEvent'], (r) => { delete r.phaseChanged; }),
  },
  {
    id: 'tick-loses-phase-changed', areas: ['progression'], expected: ['PROG-4'],
    description: 'tick results lose phaseChanged (event results keep it)',
    response: onResult(['tickWorld'], (r) => { delete r.phaseChanged; }),
  },
  {
    id: 'one-shot-fires-twice', areas: ['progression'], expected: ['PROG-5'],
    description: 'oneShot is turned to false at creation: the trigger fires again',
    request: onBody(['createWorld'], (b) => { for (const t of triggersOf(b)) t.oneShot = false; }),
  },

  // ---- Batch mutations and snapshots ----
  {
    id: 'mutate-results-truncated', areas: ['simulation'], expected: ['SIM-6'],
    description: 'mutate answers only the first result of a batch',
    response: onResult(['mutateWorld'], (r) => { if (Array.isArray(r.results)) r.results = r.results.slice(0, 1); }),
  },
  {
    id: 'mutate-failure-hidden', areas: ['simulation'], expected: ['SIM-7'],
    description: 'a failed mutate operation is reported ok: true without error',
    response: onResult(['mutateWorld'], (r) => { for (const x of Array.isArray(r.results) ? r.results : []) if (x?.ok === false) { x.ok = true; delete x.error; } }),
  },
  {
    id: 'mutate-stops-at-failure', areas: ['simulation'], expected: ['SIM-8'],
    description: 'mutate stops at the first failing operation: the ones after it are reported ok but not applied',
    async answer(req, ctx) {
      const ops = is(req, 'mutateWorld') && Array.isArray((req.body as Json | undefined)?.operations) ? (req.body as Json).operations as Json[] : undefined;
      if (!ops || ops.length < 2) return undefined;
      // Applied one at a time, as a deployment without transactions over the batch would.
      const results: Json[] = [];
      let failed = false;
      for (const op of ops) {
        if (failed) { results.push({ op: op?.op, ok: true }); continue; }
        const one = await forwardTo(ctx, req, 'POST', req.path, { operations: [op] });
        const r = resultOf(one)?.results?.[0];
        if (!r) return one;
        results.push(r);
        failed = r.ok === false;
      }
      return okResult({ results });
    },
  },
  {
    id: 'world-snapshot-import-ignored', areas: ['simulation'], expected: ['SIM-10'],
    description: 'PUT /worlds/{id}/snapshot answers ok and imports nothing',
    answer: noop(['putWorldSnapshot']),
  },
  {
    id: 'persona-snapshot-import-lossy', areas: ['personas'], expected: ['PERS-10'],
    description: 'PUT /personas/{id}/snapshot drops selfConcept and mood of the imported snapshot',
    request: onBody(['putPersonaSnapshot'], (b) => { if (b.snapshot && typeof b.snapshot === 'object') { delete b.snapshot.selfConcept; delete b.snapshot.mood; } }),
  },

  // ---- Persona runtime ----
  {
    id: 'persona-patch-not-ok', areas: ['personas'], expected: ['PERS-2', 'CONTRACT-1'],
    description: 'PATCH /personas/{id} answers {} instead of {ok: true}',
    response: onResult(['updatePersona'], (r) => { delete r.ok; }),
  },
  {
    id: 'emotion-override-ignored', areas: ['personas'], expected: ['PERS-4'],
    description: 'POST /personas/{id}/emotion answers ok and does nothing',
    answer: noop(['overrideEmotion']),
  },
  {
    id: 'persona-tick-noop', areas: ['personas'], expected: ['PERS-5'],
    description: 'POST /personas/{id}/tick answers {pendingEvents: []} and lets no time pass (no decay)',
    answer: noop(['tickPersona'], { pendingEvents: [] }),
  },
  {
    id: 'annotate-ignored', areas: ['personas'], expected: ['PERS-7'],
    description: 'POST /personas/{id}/annotate answers ok and does nothing',
    answer: noop(['annotate']),
  },
  {
    id: 'next-response-ignored', areas: ['personas'], expected: ['PERS-8'],
    description: 'POST /personas/{id}/next-response answers ok and does nothing',
    answer: noop(['forceNextResponse']),
  },
  {
    id: 'perceive-ignored', areas: ['personas'], expected: ['PERS-11'],
    description: 'POST /personas/{id}/perceive answers a neutral response and processes nothing',
    answer: (req) => (is(req, 'perceive') ? okResult({
      response: { emotion: { V: 0, A: 0, D: 0 }, discrete: { primary: 'neutral', secondary: 'neutral', intensity: 0 }, socialUpdates: [], goalChanges: { achieved: [], abandoned: [], activated: [] }, text: '' },
    }) : undefined),
  },

  // ---- Worlds ----
  {
    id: 'world-definition-not-kept', areas: ['worlds'], expected: ['WORLD-6'],
    description: 'POST /worlds drops definition.rules.physics',
    request: onBody(['createWorld'], (b) => { if (b.definition?.rules) delete b.definition.rules.physics; }),
  },
  {
    id: 'world-patch-ignored', areas: ['worlds'], expected: ['WORLD-11'],
    description: 'PATCH /worlds/{id} answers the world unchanged and changes nothing',
    answer: async (req, ctx) => (is(req, 'updateWorld') ? forwardTo(ctx, req, 'GET', req.path) : undefined),
  },

  // ---- World parts (SHOULD: the shapes are not shown) ----
  {
    id: 'world-persona-remove-noop', areas: ['world-parts'], expected: ['PART-1'],
    description: 'DELETE /worlds/{id}/personas/{pid} answers ok and does nothing',
    answer: noop(['removeWorldPersona']),
  },
  {
    id: 'custom-action-delete-noop', areas: ['world-parts'], expected: ['PART-2'],
    description: 'DELETE /worlds/{id}/actions/{aid} answers ok and does nothing',
    answer: noop(['deleteAction']),
  },
  {
    id: 'relationship-delete-noop', areas: ['world-parts'], expected: ['PART-3'],
    description: 'DELETE /worlds/{id}/relationships/{rid} answers ok and does nothing',
    answer: noop(['deleteRelationship']),
  },
  {
    id: 'relationship-direction-reversed', areas: ['world-parts'], expected: ['PART-3'],
    description: 'GET /worlds/{id}/relationships lists every relationship the wrong way round (source and target swapped)',
    response: onResult(['listRelationships'], (r) => {
      for (const rec of Array.isArray(r.relationships) ? r.relationships : []) [rec.source, rec.target] = [rec.target, rec.source];
    }),
  },
  {
    id: 'event-log-empty', areas: ['world-parts'], expected: ['PART-4'],
    description: 'GET /worlds/{id}/events answers an empty log',
    response: onResult(['listWorldEvents'], (r) => { r.events = []; }),
  },
  {
    id: 'interact-noop', areas: ['world-parts'], expected: ['PART-5'],
    description: 'POST /worlds/{id}/interact answers ok and executes nothing',
    answer: noop(['interact']),
  },
  {
    id: 'time-jump-noop', areas: ['world-parts'], expected: ['PART-6'],
    description: 'POST /worlds/{id}/time-jump answers ok and does not advance time',
    answer: noop(['timeJump']),
  },

  // ---- The served OpenAPI description ----
  {
    id: 'openapi-invalid', areas: ['openapi'], expected: ['OAS-1'],
    description: 'the served /openapi.json has no info (not a valid OpenAPI document)',
    response: onDocument((doc) => { delete doc.info; }),
  },
  {
    id: 'no-openapi-document', areas: ['openapi', 'worlds'], expected: ['OAS-1'],
    description: 'GET /openapi.json answers 404: the run goes on against the SPEC contract and fails OAS-1',
    answer: (req) => (isDocument(req) ? json(404, { error: { code: 'NOT_FOUND', message: 'fault: no document' } }) : undefined),
  },
  {
    // A SHOULD alone catches it (a run without --strict warns): the openapi area sends no time-jump for CONTRACT-2 to judge.
    id: 'openapi-path-missing', areas: ['openapi'], expected: ['OAS-2'],
    description: 'the served /openapi.json lacks POST /worlds/{id}/time-jump',
    response: onDocument((doc) => { delete doc.paths?.['/worlds/{id}/time-jump']; }),
  },
  {
    id: 'openapi-versioned-paths', areas: ['openapi'], expected: ['OAS-3'],
    description: 'the served /openapi.json puts every path under /v1',
    response: onDocument((doc) => { doc.paths = Object.fromEntries(Object.entries(doc.paths ?? {}).map(([p, v]) => [`/v1${p}`, v])); }),
  },

  // ---- What generated inputs and stateful sequences find (the generated area) ----
  {
    id: 'proto-name-breaks-every-tenant', areas: ['generated'], expected: ['GEN-1', 'GEN-2'],
    description: 'after a request naming `__proto__`, every request of every key answers 400 VALIDATION_ERROR until restart',
    answer(req, ctx) {
      if (isDocument(req)) return undefined;
      if (ctx.state.has('poisoned')) return json(400, { error: { code: 'VALIDATION_ERROR', message: 'fault: entityId is not an allowed member' } });
      if (names(req, '__proto__')) ctx.state.set('poisoned', true);
      return undefined;
    },
  },
  {
    id: 'deep-nesting-500', areas: ['generated'], expected: ['ENV-4', 'GEN-1'],
    description: 'a body nested deeper than 1,000 levels is answered 500 (a stack overflow in the store)',
    answer: (req) => (req.body !== undefined && nesting(req.body) > 1_000 ? json(500, { error: { code: 'INTERNAL_ERROR', message: 'fault: Maximum call stack size exceeded' } }) : undefined),
  },
  {
    id: 'long-tick-never-answers', areas: ['generated'], expected: ['ENV-4', 'GEN-1'], timeoutMs: 1_000,
    description: 'a tick or time-jump of a million seconds or more never answers (cut by the request timeout)',
    async answer(req, ctx) {
      const seconds = (req.body as Json | undefined)?.seconds;
      if (!is(req, 'tickWorld', 'tickPersona', 'timeJump') || !(typeof seconds === 'number' && seconds >= 1e6)) return undefined;
      await wait(30_000, ctx);
      return json(200, { result: { affected: [], events: [] } });
    },
  },
  {
    id: 'use-after-changed-import-500', areas: ['generated'], expected: ['GEN-1', 'ENV-4'],
    description: 'a world snapshot import that changes any member of the exported one is accepted, after which every use of that world answers 500',
    // Accepted here, whatever the deployment behind would answer (the reference refuses most changes).
    answer(req, ctx) {
      const id = req.params.id;
      const exported = id ? ctx.state.get(`snapshot ${id}`) as string | undefined : undefined;
      if (!id || !is(req, 'putWorldSnapshot') || exported === undefined || JSON.stringify((req.body as Json | undefined)?.snapshot) === exported) return undefined;
      ctx.state.set(`broken ${id}`, true);
      return okResult();
    },
    response(res, req, ctx) {
      const id = req.params.id;
      if (!id || !is2xx(res)) return;
      if (is(req, 'getWorldSnapshot')) ctx.state.set(`snapshot ${id}`, JSON.stringify(resultOf(res)));
      else if (ctx.state.has(`broken ${id}`) && is(req, 'chat', 'tickWorld', 'dispatchEvent', 'worldContext', 'queryWorld', 'timeJump')) {
        res.status = 500;
        res.body = { error: { code: 'INTERNAL_ERROR', message: 'fault: Cannot read properties of undefined' } };
      }
    },
  },
  {
    id: 'builtin-entity-name-breaks-chat', areas: ['generated'], expected: ['GEN-1', 'ENV-4'],
    description: 'after an accepted world write naming constructor, toString, valueOf or hasOwnProperty, every chat of that world answers 500',
    response(res, req, ctx) {
      const id = req.params.id;
      if (!id || !req.path.startsWith('/worlds/')) return;
      if (is(req, 'chat') && ctx.state.has(`builtin ${id}`)) {
        res.status = 500;
        res.body = { error: { code: 'INTERNAL_ERROR', message: 'fault: x.call is not a function' } };
      } else if (is2xx(res) && req.method !== 'GET' && ['constructor', 'toString', 'valueOf', 'hasOwnProperty'].some((n) => names(req, n))) ctx.state.set(`builtin ${id}`, true);
    },
  },
  {
    id: 'malformed-error-outside-envelope', areas: ['generated'], expected: ['ENV-2', 'ENV-3'],
    description: 'a body that is not JSON is answered by the HTTP layer: 400 text/html outside the error envelope',
    answer: (req) => (typeof req.body === 'string' && /json/.test(req.headers['content-type'] ?? '')
      ? { status: 400, headers: { 'content-type': 'text/html' }, body: '<html><body><h1>400 Bad Request</h1></body></html>' } : undefined),
  },

  // ---- Near misses (docs/finding-power.md): a rule compared one step short of the truth ----
  {
    id: 'auth-key-prefix-match', areas: ['auth'], only: ['AUTH-2'], expected: ['AUTH-2'],
    description: 'Authentication 1: a key is compared on the length of the stored one (a known key with characters added is accepted)',
    request: keyMatchedBy((sent, known) => sent.startsWith(known)),
  },
  {
    id: 'auth-key-truncated-accepted', areas: ['auth'], only: ['AUTH-2'], expected: ['AUTH-2'],
    description: 'Authentication 1: a key is compared on the length of the sent one (a known key cut short, 8 characters or more, is accepted)',
    request: keyMatchedBy((sent, known) => sent.length >= 8 && known.startsWith(sent)),
  },
  {
    id: 'auth-key-last-char-ignored', areas: ['auth'], only: ['AUTH-2'], expected: ['AUTH-2'],
    description: 'Authentication 1: a key is compared without its last character (a known key with its last character changed is accepted)',
    request: keyMatchedBy((sent, known) => sent.length === known.length && sent.slice(0, -1) === known.slice(0, -1)),
  },
  {
    id: 'auth-key-case-insensitive', areas: ['auth'], only: ['AUTH-2'], expected: ['AUTH-2'],
    description: 'Authentication 1: keys are compared without case',
    request: keyMatchedBy((sent, known) => sent.toLowerCase() === known.toLowerCase()),
  },
  {
    id: 'auth-key-whitespace-stripped', areas: ['auth'], only: ['AUTH-2'], expected: ['AUTH-2'],
    description: 'Authentication 1: whitespace is removed from a key before it is compared',
    request: keyMatchedBy((sent, known) => sent.replace(/\s+/g, '') === known),
  },
  {
    id: 'origin-allowlist-prefix-match', areas: ['auth'], only: ['AUTH-4'], expected: ['AUTH-4'],
    description: 'Authentication 6: an Origin is allowed when it begins with a configured one (https://allowed.example.evil.test passes)',
    request: originMatchedBy((sent, allowed) => sent.startsWith(allowed)),
  },
  {
    id: 'origin-allowlist-host-only', areas: ['auth'], only: ['AUTH-4'], expected: ['AUTH-4'],
    description: 'Authentication 6: an Origin is compared on its host alone (another scheme or port passes)',
    request: originMatchedBy((sent, allowed) => hostOf(sent) !== undefined && hostOf(sent) === hostOf(allowed)),
  },
  {
    id: 'origin-allowlist-world-api-only', areas: ['auth'], only: ['AUTH-4'], expected: ['AUTH-4'],
    description: 'Authentication 6: the allowlist guards the World API only; the Persona API serves any Origin',
    request: originMatchedBy((_sent, _allowed, req) => req.path.startsWith('/personas')),
  },
  {
    id: 'other-tenant-restores-deleted', areas: ['isolation'], only: ['ISO-1', 'ISO-3'], expected: ['ISO-1', 'ISO-3'],
    description: "Resources (a world belongs to a tenant): the tenant is not checked on soft-deleted records; another tenant's read or restore of a soft-deleted world or persona is served as its owner's",
    request: (req, ctx) => { if (keyOf(req) === ctx.keys.secondKey && req.params.id && idSet(ctx, 'deleted').has(req.params.id)) req.headers['x-api-key'] = ctx.keys.mainKey; },
    response: trackDeletes,
  },

  // ---- Second instances: appending, order, paging, a one-off ----
  {
    id: 'list-page-drops-last-item', areas: ['worlds'], only: ['WORLD-4'], expected: ['WORLD-4'],
    description: 'GET /worlds: a page followed by a next one loses its last world (the cursor points past it)',
    response: onResult(['listWorlds'], (r) => { if (r.nextCursor && Array.isArray(r.worlds) && r.worlds.length > 1) r.worlds.pop(); }),
  },
  {
    id: 'list-default-limit-10', areas: ['worlds'], only: ['WORLD-2'], expected: ['WORLD-2'],
    description: 'Limits: GET /worlds without a limit answers pages of 10, not 20',
    request: (req) => { if (is(req, 'listWorlds') && !req.query.has('limit')) req.query.set('limit', '10'); },
  },
  {
    id: 'annotation-replaces-previous', areas: ['personas'], only: ['PERS-7'], expected: ['PERS-7'],
    description: 'POST /personas/{id}/annotate "appends": a second annotation replaces the first in the prompt',
    request: (req, ctx) => {
      if (!is(req, 'annotate') || !req.params.id) return;
      const key = `notes ${req.params.id}`;
      ctx.state.set(key, [...((ctx.state.get(key) as string[] | undefined) ?? []), ...stringsOf(req.body)]);
    },
    response: (res, req, ctx) => {
      const notes = is(req, 'promptContext') && is2xx(res) ? ctx.state.get(`notes ${req.params.id}`) as string[] | undefined : undefined;
      if (!notes || notes.length < 2) return;
      let text = JSON.stringify(res.body);
      for (const earlier of notes.slice(0, -1)) text = text.split(JSON.stringify(earlier).slice(1, -1)).join('');
      res.body = JSON.parse(text);
    },
  },
  {
    id: 'forced-response-sticks', areas: ['personas'], only: ['PERS-8'], expected: ['PERS-8'],
    description: 'POST /personas/{id}/next-response forces "the next response text": the forced text stays for every later response',
    request: (req, ctx) => { if (is(req, 'forceNextResponse') && req.params.id) { const [text] = stringsOf(req.body); if (text) ctx.state.set(`forced ${req.params.id}`, text); } },
    response: onResult(['perceive'], (r, req, ctx) => {
      const text = ctx.state.get(`forced ${req.params.id}`);
      if (typeof text !== 'string') return;
      if (r.response && typeof r.response === 'object') r.response.text = text; else r.text = text;
    }),
  },

  // ---- Values compared through every view (type right, value wrong or stale) ----
  {
    id: 'world-createdAt-restamped', areas: ['worlds'], only: ['WORLD-1'], expected: ['WORLD-1'],
    description: 'GET /worlds/{id} answers createdAt as the time of the read, not of the creation',
    response: onResult(['getWorld'], (r) => { if (r.world && typeof r.world.createdAt === 'number') r.world.createdAt = Date.now(); }),
  },
  {
    id: 'world-patch-not-in-views', areas: ['worlds'], only: ['WORLD-11'], expected: ['WORLD-11'],
    description: "PATCH /worlds/{id} reaches GET only: the context's worldIdentity and the snapshot's definition keep the identity given at creation",
    response: async (res, req, ctx) => {
      if (is(req, 'createWorld')) { const r = resultOf(res); if (r?.worldId && (req.body as Json)?.definition?.identity) ctx.state.set(`identity ${r.worldId}`, (req.body as Json).definition.identity); return; }
      const identity = ctx.state.get(`identity ${req.params.id}`);
      const r = identity ? resultOf(res) : undefined;
      if (!r) return;
      if (is(req, 'worldContext') && r.worldIdentity) r.worldIdentity = identity;
      if (is(req, 'getWorldSnapshot') && r.definition) r.definition.identity = identity;
    },
  },
  {
    id: 'recent-events-not-updated', areas: ['simulation'], only: ['SIM-12'], expected: ['SIM-12'],
    description: 'Events 5: the world snapshot answers recentEvents empty whatever was dispatched',
    response: onResult(['getWorldSnapshot'], (r) => { if (Array.isArray(r.recentEvents)) r.recentEvents = []; }),
  },
  {
    id: 'what-happened-stale', areas: ['simulation'], only: ['SIM-12'], expected: ['SIM-12'],
    description: 'Events 5: the context of an entity answers whatHappened empty whatever was dispatched to it',
    response: onResult(['worldContext'], (r) => { if (Array.isArray(r.whatHappened)) r.whatHappened = []; }),
  },
  {
    id: 'snapshot-event-counts-stale', areas: ['progression'], only: ['PROG-1'], expected: ['PROG-1'],
    description: 'Progression state "in query and snapshot results": the snapshot answers eventCounts empty (query keeps them)',
    response: onResult(['getWorldSnapshot'], (r) => eachProgression(r, (p) => { p.eventCounts = {}; })),
  },
  {
    id: 'context-phase-stale', areas: ['progression'], only: ['PROG-2'], expected: ['PROG-2'],
    description: "World context currentPhase: the context answers the world's initialPhase whatever triggers fired",
    response: async (res, req, ctx) => {
      if (is(req, 'createWorld')) { const r = resultOf(res); const p = (req.body as Json)?.definition?.progression?.initialPhase; if (r?.worldId && typeof p === 'string') ctx.state.set(`initial ${r.worldId}`, p); return; }
      const initial = ctx.state.get(`initial ${req.params.id}`);
      const r = is(req, 'worldContext') && initial ? resultOf(res) : undefined;
      if (r && typeof r.currentPhase === 'string') r.currentPhase = initial;
    },
  },
  {
    id: 'deleted-world-still-queryable', areas: ['states'], only: ['STATE-2'], expected: ['STATE-2'],
    description: 'a soft-deleted world is hidden from GET and the list, but query, context and snapshot still serve it',
    async answer(req, ctx) {
      const id = req.params.id;
      if (!id || !is(req, 'queryWorld', 'worldContext', 'getWorldSnapshot') || !idSet(ctx, 'deleted').has(id)) return undefined;
      const world = `/worlds/${encodeURIComponent(id)}`;
      await forwardTo(ctx, req, 'POST', `${world}/restore`);
      try { return await ctx.forward(req); } finally { await forwardTo(ctx, req, 'DELETE', world); }
    },
    response: trackDeletes,
  },
  {
    id: 'restored-world-views-missing', areas: ['states'], only: ['STATE-1'], expected: ['STATE-1'],
    description: 'a restored world is back in GET and the list, but query, context and snapshot still answer WORLD_NOT_FOUND',
    answer: (req, ctx) => (req.params.id && is(req, 'queryWorld', 'worldContext', 'getWorldSnapshot') && idSet(ctx, 'restored').has(req.params.id)
      ? json(404, { error: { code: 'WORLD_NOT_FOUND', message: 'fault: world not found' } }) : undefined),
    response: trackDeletes,
  },
  {
    id: 'deleted-persona-state-readable', areas: ['states'], only: ['STATE-4'], expected: ['STATE-4'],
    description: 'a soft-deleted persona is hidden from GET and the list, but its state and snapshot are still served',
    async answer(req, ctx) {
      const id = req.params.id;
      if (!id || !is(req, 'getPersonaState', 'getPersonaSnapshot') || !idSet(ctx, 'deleted').has(id)) return undefined;
      const persona = `/personas/${encodeURIComponent(id)}`;
      await forwardTo(ctx, req, 'POST', `${persona}/restore`);
      try { return await ctx.forward(req); } finally { await forwardTo(ctx, req, 'DELETE', persona); }
    },
    response: trackDeletes,
  },

  // ---- Lenient parsers: wrong inputs coerced, huge ones answered 5xx ----
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
    id: 'long-integer-500', areas: ['generated'], expected: ['ENV-4'],
    description: 'a body holding an integer literal of 100 digits or more is answered 500 (the number parser overflows)',
    answer: (req) => (/\d{100,}/.test(req.rawBody) ? json(500, { error: { code: 'INTERNAL_ERROR', message: 'fault: number out of range' } }) : undefined),
  },

  // ---- Slow and flaky ----
  {
    id: 'flaky-every-7th-503', areas: ['worlds'], expected: MUST_IDS, expectedLabel: 'any MUST',
    description: 'every 7th request is answered 503',
    ...flakyFault(7),
  },
  {
    id: 'stall-past-timeout', areas: ['worlds'], expected: ['WORLD-1'], timeoutMs: 1_000,
    description: 'the first GET /worlds/{id} stalls 1.5 s, past the 1 s request timeout',
    async request(req, ctx) {
      if (!is(req, 'getWorld') || ctx.state.has('stalled')) return;
      ctx.state.set('stalled', true);
      await wait(1_500, ctx);
    },
  },
  {
    id: 'control-slow-but-correct', areas: ['worlds'], expected: [], timeoutMs: 1_000,
    description: 'control: every answer 50 ms late, well within the 1 s request timeout (must pass)',
    ...slowFault(50, { documentToo: false }),
  },
  ...SENTENCE_FAULTS,
  ...MEMBER_FAULTS,
  ...RATE_LIMIT_FAULTS,
  ...MODEL_FAULTS,
  ...MODEL_PERSONA_FAULTS,
  ...STACK_FAULTS,
  ...VERDICT_FAULTS,
];
