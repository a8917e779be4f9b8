// Legal variants, the mirror of the faults: each is the reference with ONE different choice where
// SPEC.md is silent ("not shown", or a shape it leaves open), made by a rewriting proxy (proxy.ts) in
// front of the reference. A variant keeps its own promise too: where its choice changes what the
// deployment answers, it rewrites the served /openapi.json to say so, as a deployment generating its
// document from its own schemas would. The suite must pass every one under --strict: no failed
// requirement, no warning, except the SHOULDs a variant names in `allowedWarnings` (a SHOULD that
// names that very choice). Each counts the answers its choice made (`applied`): a variant whose
// choice never showed proves nothing, and fails the matrix.
import { randomUUID } from 'node:crypto';
import { Ajv, type ValidateFunction } from 'ajv';
import { EMBEDDED_RATE_WINDOW_MS, PLAN_RPM } from '../../contract/plans.ts';
import type { RequirementId, SelectableArea } from '../../contract/requirements.ts';
import {
  applied, codeOf, declaredCodes, errorAnswer, errorResponse, is, is2xx, isDocument, isObject, keyOf, onDocument, onResult,
  operationIn, operationsIn, responses, responseSchemaIn, resultOf, type Json,
} from './hooks.ts';
import type { FaultContext, FaultHooks, FaultRequest, FaultResponse } from './proxy.ts';
import { SENTENCE_VARIANTS } from './variants/sentences.ts';
import { MEMBER_VARIANTS } from './variants/members.ts';
import { RATE_LIMIT_VARIANTS } from './variants/rate-limit.ts';
import { VERDICT_VARIANTS } from './variants/verdict.ts';

export interface Variant extends FaultHooks {
  id: string;
  /** The choice, in a sentence. */
  description: string;
  /** The gap of SPEC.md the choice fills (its words). */
  gap: string;
  /** Areas of the suite to run against it (`--only`): those the choice concerns. */
  areas: SelectableArea[];
  /** SHOULD requirements that may warn because they name this very choice; usually none. */
  allowedWarnings: RequirementId[];
  /**
   * Why the choice may not show in a run of today's checks (no check sends what would reveal it):
   * then a run that never met it still passes, and the matrix says so. Absent: it must show.
   */
  quietWhy?: string;
}

// ---- Helpers ----

const LISTS = ['listWorlds', 'listPersonas', 'listWorldEvents'];
const tenantOf = (req: FaultRequest, ctx: FaultContext) => (keyOf(req) === ctx.keys.secondKey ? 'second' : 'main');
/** A Map kept in the proxy's memory under `name`. */
const memory = <K, V>(ctx: FaultContext, name: string): Map<K, V> => {
  if (!ctx.state.has(name)) ctx.state.set(name, new Map<K, V>());
  return ctx.state.get(name) as Map<K, V>;
};
/** Rebuilds every value of a JSON tree: `leaf` sees each member (with its key) and each array item. */
function rewrite(value: unknown, leaf: (v: unknown, key: string | undefined) => unknown, key?: string): unknown {
  if (Array.isArray(value)) return value.map((v) => rewrite(v, leaf, key));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewrite(v, leaf, k)]));
  return leaf(value, key);
}
/** Every 2xx success schema of the operations named, to change in place. */
const successSchemas = (doc: Json, operationIds: string[]) =>
  operationIds.map((id) => operationIn(doc, id)).flatMap((op) => Object.keys(op?.responses ?? {}).filter((s) => s.startsWith('2')).map((s) => responseSchemaIn(op, s))).filter(isObject);
/** The `result` member schema of a success schema (inline, as the reference writes list results). */
const resultSchema = (s: Json): Json | undefined => (isObject(s.properties?.result) ? s.properties.result : undefined);

// ---- Ids: the reference's ids mapped to UUIDs, both ways ----

const REFERENCE_ID = /\b(?:wld|per)_[0-9a-f]{20}\b/g;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\b/g;
function uuidHooks(): FaultHooks {
  const maps = (ctx: FaultContext) => ({ out: memory<string, string>(ctx, 'uuid-of'), back: memory<string, string>(ctx, 'id-of') });
  const toUuid = (ctx: FaultContext, id: string) => {
    const { out, back } = maps(ctx);
    if (!out.has(id)) { const u = randomUUID(); out.set(id, u); back.set(u, id); }
    return out.get(id)!;
  };
  const inward = (ctx: FaultContext, s: string) => s.replace(UUID, (u) => maps(ctx).back.get(u) ?? u);
  return {
    request(req, ctx) {
      if (isDocument(req)) return;
      req.path = req.path.split('/').map((seg) => { try { return encodeURIComponent(inward(ctx, decodeURIComponent(seg))); } catch { return seg; } }).join('/');
      req.body = rewrite(req.body, (v) => (typeof v === 'string' ? inward(ctx, v) : v));
    },
    response(res, req, ctx) {
      if (isDocument(req) || res.body === undefined) return;
      let n = 0;
      res.body = rewrite(res.body, (v) => (typeof v === 'string' ? v.replace(REFERENCE_ID, (id) => { n += 1; return toUuid(ctx, id); }) : v));
      for (const [k, v] of Object.entries(res.headers)) res.headers[k] = v.replace(REFERENCE_ID, (id) => toUuid(ctx, id));
      if (n) applied(ctx, n);
    },
  };
}

// ---- Timestamps in seconds ----

const TIMESTAMPS = new Set(['createdAt', 'timestamp', 'lastUpdated', 'lastInteraction', 'enteredAt', 'exitedAt', 'lastReminderTime', 'started_at']);
function secondsHooks(): FaultHooks {
  // A value the proxy sent out in seconds comes back as the exact milliseconds it was made from.
  const sent = (ctx: FaultContext) => memory<number, number>(ctx, 'ms-of');
  return {
    request(req, ctx) {
      if (isDocument(req)) return;
      req.body = rewrite(req.body, (v, k) => (typeof v === 'number' && k && TIMESTAMPS.has(k) ? sent(ctx).get(v) ?? v * 1000 : v));
    },
    response(res, req, ctx) {
      if (isDocument(req) || !is2xx(res)) return;
      res.body = rewrite(res.body, (v, k) => {
        if (typeof v !== 'number' || !k || !TIMESTAMPS.has(k)) return v;
        const s = v / 1000;
        sent(ctx).set(s, v);
        applied(ctx);
        return s;
      });
    },
  };
}

// ---- Phase history recording the phase left ----

interface Entry { phase: string; enteredAt: number; exitedAt?: number; triggerId?: string }
/** Entered-phase history (the reference's) → one entry per phase left, with the trigger that ended it. */
const toLeft = (h: Entry[]): Entry[] => h.slice(0, -1).map((e, i) => ({ phase: e.phase, enteredAt: e.enteredAt, exitedAt: h[i + 1].enteredAt, ...(h[i + 1].triggerId !== undefined ? { triggerId: h[i + 1].triggerId } : {}) }));
function phaseLeftHooks(): FaultHooks {
  const original = (ctx: FaultContext) => memory<string, Entry[]>(ctx, 'history-of');
  const out = (p: Json, ctx: FaultContext) => {
    if (!Array.isArray(p?.phaseHistory)) return;
    const left = toLeft(p.phaseHistory);
    original(ctx).set(JSON.stringify([p.currentPhase, left]), p.phaseHistory);
    if (left.length) applied(ctx);
    p.phaseHistory = left;
  };
  /** Back to the entered-phase history, for an import: the one it was made from, or rebuilt from it. */
  const back = (p: Json, ctx: FaultContext, createdAt: number) => {
    if (!Array.isArray(p?.phaseHistory)) return;
    const left = p.phaseHistory as Entry[];
    const known = original(ctx).get(JSON.stringify([p.currentPhase, left]));
    if (known) { p.phaseHistory = known; return; }
    const last = left[left.length - 1];
    p.phaseHistory = [
      ...left.map((e, i) => ({ phase: e.phase, enteredAt: e.enteredAt, ...(e.exitedAt !== undefined ? { exitedAt: e.exitedAt } : {}), ...(i > 0 && left[i - 1].triggerId ? { triggerId: left[i - 1].triggerId } : {}) })),
      { phase: p.currentPhase, enteredAt: last?.exitedAt ?? createdAt, ...(last?.triggerId ? { triggerId: last.triggerId } : {}) },
    ];
  };
  return {
    request(req, ctx) {
      const snap = is(req, 'putWorldSnapshot') ? (req.body as Json | undefined)?.snapshot : undefined;
      if (isObject(snap) && isObject(snap.progression)) back(snap.progression, ctx, snap.createdAt);
    },
    response: onResult(['queryWorld', 'getWorldSnapshot'], (r, _req, ctx) => out(r.progression, ctx)),
  };
}

// ---- Definitions returned as given ----

/** RFC 7396 merge, as PATCH applies it. */
function merge(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return structuredClone(patch);
  const out: Json = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) if (v === null) delete out[k]; else out[k] = merge(out[k], v);
  return out;
}
/** What was returned, cut down to the members the client gave (item by item in arrays). */
function prune(returned: unknown, given: unknown): unknown {
  if (isObject(given) && isObject(returned)) return Object.fromEntries(Object.entries(returned).filter(([k]) => k in given).map(([k, v]) => [k, prune(v, given[k])]));
  if (Array.isArray(given) && Array.isArray(returned)) return returned.map((v, i) => (i < given.length ? prune(v, given[i]) : v));
  return returned;
}
const DEFINITION_SCHEMAS = ['WorldDefinition', 'WorldIdentity', 'WorldRules', 'WorldCulture', 'TopologyConnection', 'Fact', 'Phase', 'Trigger'];
function asGivenHooks(): FaultHooks {
  const given = (ctx: FaultContext) => memory<string, unknown>(ctx, 'definition-given');
  const cut = (world: Json | undefined, id: string | undefined, ctx: FaultContext) => {
    if (!isObject(world) || !id || !given(ctx).has(id) || !isObject(world.definition)) return;
    const before = JSON.stringify(world.definition);
    world.definition = prune(world.definition, given(ctx).get(id));
    if (JSON.stringify(world.definition) !== before) applied(ctx);
  };
  return {
    response: responses(
      (res, req, ctx) => {
        const body = req.body as Json | undefined;
        const r = resultOf(res);
        if (!r) return;
        if (is(req, 'createWorld') && typeof r.worldId === 'string') given(ctx).set(r.worldId, structuredClone(body?.definition ?? {}));
        if (is(req, 'updateWorld') && isObject(body?.definition) && given(ctx).has(req.params.id)) given(ctx).set(req.params.id, merge(given(ctx).get(req.params.id), body.definition));
        if (is(req, 'putWorldSnapshot') && isObject(body?.snapshot?.definition)) given(ctx).set(req.params.id, structuredClone(body.snapshot.definition));
      },
      onResult(['getWorld', 'updateWorld', 'restoreWorld'], (r, req, ctx) => cut(r.world, req.params.id, ctx)),
      onResult(['listWorlds'], (r, _req, ctx) => { for (const w of Array.isArray(r.worlds) ? r.worlds : []) cut(w, w?.id, ctx); }),
      onResult(['getWorldSnapshot'], (r, req, ctx) => cut(r, req.params.id, ctx)),
      // The document no longer promises the members filled in: nothing in a definition is required.
      onDocument((doc) => {
        const free = (s: unknown): void => {
          if (Array.isArray(s)) s.forEach(free);
          else if (isObject(s)) { delete s.required; Object.values(s).forEach(free); }
        };
        for (const name of DEFINITION_SCHEMAS) free(doc.components?.schemas?.[name]);
      }),
    ),
  };
}

// ---- Validation before the lookup ----

interface RequestValidators { of(operationId: string): ValidateFunction | null }

/**
 * The request-body validators of a document, compiled once per document text: every proxy of a
 * matrix serves the same reference, whose document would otherwise be compiled again for each run.
 */
const compiledDocuments = new Map<string, RequestValidators>();
function requestValidatorsOf(doc: Json): RequestValidators {
  const text = JSON.stringify(doc);
  let found = compiledDocuments.get(text);
  if (!found) {
    const ajv = new Ajv({ strict: false, allErrors: false, validateSchema: false });
    ajv.addSchema({ $id: 'served', paths: doc.paths, components: doc.components }, 'served');
    const validators = new Map<string, ValidateFunction | null>();
    const esc = (p: string) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'));
    found = {
      of(operationId) {
        if (!validators.has(operationId)) {
          const op = [...operationsIn(doc)].find((o) => o.op.operationId === operationId);
          validators.set(operationId, op?.op.requestBody?.content?.['application/json']?.schema
            ? ajv.compile({ $ref: `served#/paths/${esc(op.path)}/${op.method}/requestBody/content/${esc('application/json')}/schema` }) : null);
        }
        return validators.get(operationId)!;
      },
    };
    if (compiledDocuments.size >= 4) compiledDocuments.delete(compiledDocuments.keys().next().value!);
    compiledDocuments.set(text, found);
  }
  return found;
}

/**
 * Bodies validated before the world or persona is looked up: a 404 for an unknown id becomes 400
 * VALIDATION_ERROR when the body is invalid for the request schema of the document the deployment
 * itself serves (fetched upstream, past any rewriting of the proxy: the document dialects validate
 * against the original this way).
 */
export function validateFirstHooks(): FaultHooks {
  const validatorFor = async (req: FaultRequest, ctx: FaultContext) => {
    // The deployment's own request schemas: those of the document it serves, fetched once per proxy.
    if (!ctx.state.has('validators')) {
      const doc = (await ctx.forward({ ...req, method: 'GET', path: '/openapi.json', query: new URLSearchParams(), body: undefined, rawBody: '', operationId: 'getOpenApi', params: {} })).body as Json;
      ctx.state.set('validators', requestValidatorsOf(doc));
    }
    return (ctx.state.get('validators') as RequestValidators).of(req.operationId!);
  };
  return {
    async response(res, req, ctx) {
      if (res.status !== 404 || !['WORLD_NOT_FOUND', 'PERSONA_NOT_FOUND'].includes(codeOf(res) ?? '') || !req.operationId || req.rawBody === '') return;
      const validate = await validatorFor(req, ctx);
      if (!validate || validate(req.body)) return;
      applied(ctx);
      Object.assign(res, errorAnswer(400, 'VALIDATION_ERROR', `body: ${validate.errors?.[0]?.instancePath || '/'} ${validate.errors?.[0]?.message ?? 'invalid'}`));
    },
  };
}

// ---- A sliding rate window ----

function slidingWindowHooks(limit = PLAN_RPM.free, windowMs = EMBEDDED_RATE_WINDOW_MS): FaultHooks {
  const LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
  const remainingAfter = new WeakMap<FaultRequest, number>();
  return {
    answer(req, ctx) {
      if (!ctx.keys.rateLimitKey || keyOf(req) !== ctx.keys.rateLimitKey || isDocument(req)) return undefined;
      const now = Date.now();
      const log = ((ctx.state.get('log') as number[] | undefined) ?? []).filter((t) => now - t < windowMs);
      ctx.state.set('log', log);
      if (log.length >= limit) {
        applied(ctx);
        // True: the oldest request counted leaves the window then (50 ms margin, as the reference).
        const retryAfter = Math.max(1, Math.ceil((log[0] + windowMs - now + 50) / 1000));
        return errorAnswer(429, 'RATE_LIMITED', `more than ${limit} requests in the last ${windowMs} ms`, { 'retry-after': String(retryAfter) });
      }
      log.push(now);
      // The proxy is this key's limiter: the reference serves its requests under a key of the same
      // tenant without a tight limit (its own fixed window would otherwise count them too).
      req.headers['x-api-key'] = ctx.keys.mainKey;
      remainingAfter.set(req, limit - log.length);
      return undefined;
    },
    response(res, req) {
      const remaining = remainingAfter.get(req);
      if (remaining === undefined) return;
      for (const h of LIMIT_HEADERS) delete res.headers[h];
      res.headers['x-ratelimit-limit'] = String(limit);
      res.headers['x-ratelimit-remaining'] = String(remaining);
    },
  };
}

// ---- Soft-deleted records answered 410 ----

const WORLD_SCOPED = /^\/worlds\/[^/]+(\/|$)/;
const PERSONA_SCOPED = /^\/personas\/[^/]+(\/|$)/;
function goneHooks(): FaultHooks {
  const deleted = (ctx: FaultContext) => memory<string, true>(ctx, 'deleted');
  return {
    response: responses(
      (res, req, ctx) => {
        const id = `${tenantOf(req, ctx)} ${req.params.id}`;
        if (is2xx(res) && is(req, 'deleteWorld', 'deletePersona')) deleted(ctx).set(id, true);
        if (is2xx(res) && is(req, 'restoreWorld', 'restorePersona')) deleted(ctx).delete(id);
        if (res.status === 404 && ['WORLD_NOT_FOUND', 'PERSONA_NOT_FOUND'].includes(codeOf(res) ?? '') && deleted(ctx).has(id) && !is(req, 'restoreWorld', 'restorePersona')) {
          applied(ctx);
          Object.assign(res, errorAnswer(410, 'GONE', `${req.params.id} was deleted; POST …/restore brings it back`));
        }
      },
      onDocument((doc) => {
        for (const { path, op } of operationsIn(doc)) {
          if ((WORLD_SCOPED.test(path) || PERSONA_SCOPED.test(path)) && !/\/restore$/.test(path)) op.responses['410'] = errorResponse(['GONE'], 'GONE: the record was soft-deleted; restore brings it back.');
        }
      }),
    ),
  };
}

/** A 400 declaration of every operation also allows `code`. */
const alsoCode400 = (code: string) => onDocument((doc) => {
  for (const { op } of operationsIn(doc)) {
    const codes = declaredCodes(op.responses['400']);
    if (codes) codes.push(code);
    else op.responses['400'] = errorResponse([code], `${code}: the body is not JSON.`);
  }
});

/** The list results of GET /worlds, /personas and the event log end with `nextCursor` = `last`. */
function lastCursor(last: null | ''): FaultHooks {
  return {
    response: responses(
      onResult(LISTS, (r, _req, ctx) => { if (r.nextCursor === undefined) { r.nextCursor = last; applied(ctx); } }),
      onDocument((doc) => {
        for (const s of successSchemas(doc, LISTS)) {
          const result = resultSchema(s);
          if (!result?.properties?.nextCursor) continue;
          if (last === null) result.properties.nextCursor = { ...result.properties.nextCursor, type: ['string', 'null'] };
          result.required = [...(result.required ?? []), 'nextCursor'];
        }
      }),
    ),
  };
}

// ---- A batch that reports a bad operation in its own entry ----

/**
 * The deployment validates each operation of a batch on its own: a batch the reference refuses whole
 * (400 VALIDATION_ERROR: an operation of the wrong shape) is applied operation by operation (each sent
 * alone: the reference's own batches change nothing for an operation that fails), the refused ones
 * reported {op, ok: false, error}. Its document is the reference's: it already declares such results,
 * and what it says of requests (`op` a string) is what it expects, not what it refuses whole.
 */
function perOperationHooks(): FaultHooks {
  return {
    response: responses(
      async (res, req, ctx) => {
        const operations = (req.body as Json | undefined)?.operations;
        if (!is(req, 'mutateWorld') || codeOf(res) !== 'VALIDATION_ERROR' || !Array.isArray(operations) || !operations.length || !operations.every(isObject)) return;
        // The batch is read, then the world looked up, then each operation tried.
        const world = await ctx.forward({ ...req, method: 'GET', path: req.path.replace(/\/mutate$/, ''), body: undefined, rawBody: '', headers: withoutBody(req.headers) });
        if (!is2xx(world)) { Object.assign(res, world); return; }
        const results: Json[] = [];
        for (const operation of operations) {
          const one = await ctx.forward({ ...req, body: { operations: [operation] }, rawBody: JSON.stringify({ operations: [operation] }) });
          const entry = resultOf(one)?.results?.[0];
          if (entry) { results.push(entry); continue; }
          if (codeOf(one) !== 'VALIDATION_ERROR') { Object.assign(res, one); return; }
          results.push({ op: typeof operation.op === 'string' ? operation.op : JSON.stringify(operation.op ?? null), ok: false, error: (one.body as Json).error.message ?? 'invalid operation' });
        }
        applied(ctx);
        Object.assign(res, { status: 200, headers: { ...res.headers }, body: { result: { results } } });
      },
    ),
  };
}
const withoutBody = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).filter(([k]) => k !== 'content-type'));

// ---- Relationships recorded both ways ----

/** Every relationship listed also the other way round (the persona's view of the actor), with its own id and values. */
function bothWaysHooks(): FaultHooks {
  return {
    response: onResult(['listRelationships'], (r, _req, ctx) => {
      if (!Array.isArray(r.relationships)) return;
      const reverse = r.relationships.filter(isObject).map((rec: Json) => ({ id: `${rec.id}-reverse`, source: rec.target, target: rec.source, relationship: { type: 'stranger', strength: 0, trust: 0.5 } }));
      if (reverse.length) applied(ctx);
      r.relationships.push(...reverse);
    }),
  };
}

export const VARIANTS: Variant[] = [
  {
    id: 'create-200', areas: ['worlds', 'personas', 'world-parts', 'model'], allowedWarnings: [],
    description: 'creations answer 200 instead of 201 (POST /worlds, /personas, /worlds/{id}/personas, /worlds/{id}/actions)',
    gap: 'Endpoints: "Success status codes of every endpoint: not shown."',
    response: responses(
      (res, req, ctx) => { if (res.status === 201) { res.status = 200; applied(ctx); } },
      onDocument((doc) => {
        for (const { op } of operationsIn(doc)) if (op.responses['201']) { op.responses['200'] = op.responses['201']; delete op.responses['201']; }
      }),
    ),
  },
  {
    id: 'soft-deleted-410', areas: ['states', 'model'], allowedWarnings: [],
    description: "a soft-deleted world or persona is answered 410 GONE (to its tenant) until restored, instead of 404",
    gap: 'States, notes: "what a soft-deleted record returns on read is not shown."',
    ...goneHooks(),
  },
  {
    id: 'uuid-ids', areas: ['worlds', 'states', 'simulation', 'personas', 'isolation', 'model'], allowedWarnings: [],
    description: 'world and persona ids are UUIDs (the reference\'s ids mapped both ways: bodies, paths, headers)',
    gap: 'Resources: `id` is a string; its form is not shown.',
    ...uuidHooks(),
  },
  {
    id: 'timestamps-in-seconds', areas: ['worlds', 'simulation', 'personas', 'progression', 'model'], allowedWarnings: [],
    description: 'timestamps (createdAt, timestamp, lastUpdated, enteredAt, exitedAt, …) in seconds since the epoch, not milliseconds',
    gap: 'Resources: "Timestamps are numbers. Unit of timestamps: not shown."',
    ...secondsHooks(),
  },
  {
    id: 'persona-list-items', areas: ['personas', 'states', 'isolation', 'model'], allowedWarnings: [],
    description: 'GET /personas answers {items, nextCursor} instead of {personas, nextCursor}',
    gap: 'Endpoints: GET /personas "cursor-based pagination" → "list of personas"; the shape is not shown.',
    response: responses(
      onResult(['listPersonas'], (r, _req, ctx) => { if ('personas' in r) { r.items = r.personas; delete r.personas; applied(ctx); } }),
      onDocument((doc) => {
        for (const s of successSchemas(doc, ['listPersonas'])) {
          const result = resultSchema(s);
          if (!result?.properties?.personas) continue;
          result.properties.items = result.properties.personas;
          delete result.properties.personas;
          result.required = (result.required ?? []).map((m: string) => (m === 'personas' ? 'items' : m));
        }
      }),
    ),
  },
  {
    id: 'next-cursor-null', areas: ['worlds', 'personas', 'states', 'world-parts', 'model'], allowedWarnings: [],
    description: 'the last page of a list says nextCursor: null (instead of leaving it out)',
    gap: 'Endpoints: GET /worlds → {worlds, nextCursor}; how the last page is marked is not shown.',
    ...lastCursor(null),
  },
  {
    id: 'next-cursor-empty', areas: ['worlds', 'personas', 'states', 'world-parts', 'model'], allowedWarnings: [],
    description: 'the last page of a list says nextCursor: "" (instead of leaving it out)',
    gap: 'Endpoints: GET /worlds → {worlds, nextCursor string}; how the last page is marked is not shown.',
    ...lastCursor(''),
  },
  {
    id: 'limit-over-100-refused', areas: ['worlds', 'personas', 'model'], allowedWarnings: [],
    description: 'a list limit above 100 is refused 400 VALIDATION_ERROR instead of clamped to 100',
    gap: 'Limits: "`limit` of `GET /worlds`: default 20, maximum 100"; what a larger limit gets is not shown.',
    answer: (req, ctx) => {
      if (!is(req, ...LISTS) || !(Number(req.query.get('limit')) > 100)) return undefined;
      applied(ctx);
      return errorAnswer(400, 'VALIDATION_ERROR', 'limit: at most 100');
    },
  },
  {
    id: 'phase-history-left', areas: ['progression', 'simulation', 'model'], allowedWarnings: [],
    description: 'phaseHistory gains an entry for the phase LEFT when a trigger fires: {phase left, enteredAt, exitedAt, triggerId that ended it}; the current phase has none',
    gap: 'States and transitions: "`phaseHistory` gains an entry with `triggerId`"; entries are {phase, enteredAt, exitedAt, triggerId}.',
    ...phaseLeftHooks(),
  },
  {
    id: 'validate-before-lookup', areas: ['errors', 'isolation', 'model'], allowedWarnings: [],
    description: 'the body is validated before the world or persona is looked up: an unknown id with an invalid body is 400 VALIDATION_ERROR',
    gap: 'Errors: both WORLD_NOT_FOUND (404) and VALIDATION_ERROR (400) apply; which comes first is not shown.',
    quietWhy: 'no check sends a body this deployment refuses to an unknown or foreign world or persona (ERR-1 and ISO-1 send bodies valid for its schemas)',
    ...validateFirstHooks(),
  },
  {
    id: 'definition-as-given', areas: ['worlds', 'states', 'simulation', 'model'], allowedWarnings: [],
    description: 'GET /worlds/{id} (and lists, PATCH and restore results, snapshots) return the definition as given: no defaults filled in',
    gap: 'Resources: WorldDefinition lists its members; which are always returned is not shown ("Which body fields are required or optional … not shown").',
    ...asGivenHooks(),
  },
  {
    id: 'blocked-origin-forbidden', areas: ['auth'], allowedWarnings: [],
    description: 'a blocked origin is answered 403 FORBIDDEN instead of 403 ORIGIN_NOT_ALLOWED',
    gap: 'Errors: "Error code and status returned when an origin is blocked by the allowlist: not shown."',
    response: responses(
      (res, _req, ctx) => { if (res.status === 403 && codeOf(res) === 'ORIGIN_NOT_ALLOWED') { (res.body as Json).error.code = 'FORBIDDEN'; applied(ctx); } },
      onDocument((doc) => {
        for (const { op } of operationsIn(doc)) {
          const codes = declaredCodes(op.responses['403']);
          if (codes) codes.splice(0, codes.length, ...codes.map((c) => (c === 'ORIGIN_NOT_ALLOWED' ? 'FORBIDDEN' : c)));
        }
      }),
    ),
  },
  {
    id: 'openapi-needs-key', areas: ['openapi', 'auth'], allowedWarnings: [],
    description: 'GET /openapi.json needs a valid key: 401 UNAUTHORIZED without one',
    gap: 'Authentication 9: "Whether `{base_url}/openapi.json` requires a key: not shown."',
    answer: (req, ctx) => {
      if (!isDocument(req)) return undefined;
      const known = [ctx.keys.mainKey, ctx.keys.secondKey, ctx.keys.rateLimitKey, ctx.keys.originKey];
      // Served or refused, the key decided it: a run that fetched the document without one would fail.
      applied(ctx);
      if (keyOf(req) && known.includes(keyOf(req))) return undefined;
      return errorAnswer(401, 'UNAUTHORIZED', 'X-API-Key is required');
    },
    response: onDocument((doc) => {
      const op = operationIn(doc, 'getOpenApi');
      if (!op) return;
      delete op.security;
      op.responses['401'] = errorResponse(['UNAUTHORIZED'], 'UNAUTHORIZED: the X-API-Key header is missing or the key is not recognised.');
    }),
  },
  {
    id: 'sliding-rate-window', areas: ['rate-limit'], allowedWarnings: [],
    description: 'the free plan\'s limit is a sliding window (at most 100 requests in any window), with a true Retry-After, instead of a fixed one',
    gap: 'Limits: "100 requests per minute … per API key"; the kind of window is not shown.',
    ...slidingWindowHooks(),
  },
  {
    id: 'malformed-json-bad-request', areas: ['errors'], allowedWarnings: ['ERR-6'],
    description: 'a body that is not JSON is answered 400 BAD_REQUEST instead of 400 VALIDATION_ERROR',
    gap: 'Errors: "`VALIDATION_ERROR` 400: request body failed schema validation"; a body that is not JSON at all is not named.',
    answer: (req, ctx) => {
      if (isDocument(req) || req.rawBody.trim() === '' || !/json/i.test(req.headers['content-type'] ?? '')) return undefined;
      try { JSON.parse(req.rawBody); return undefined; } catch { /* not JSON: this variant's answer */ }
      applied(ctx);
      return errorAnswer(400, 'BAD_REQUEST', 'the body is not JSON');
    },
    response: alsoCode400('BAD_REQUEST'),
  },
  {
    id: 'restore-answers-ok', areas: ['states', 'model'], allowedWarnings: [],
    description: 'POST /worlds/{id}/restore and /personas/{id}/restore answer {ok: true} instead of the restored record',
    gap: 'Endpoints: restore is known only by method, path and purpose; its result is not shown.',
    response: responses(
      onResult(['restoreWorld', 'restorePersona'], (r, _req, ctx) => { for (const k of Object.keys(r)) delete r[k]; r.ok = true; applied(ctx); }),
      onDocument((doc) => {
        for (const s of successSchemas(doc, ['restoreWorld', 'restorePersona'])) s.properties = { result: { $ref: '#/components/schemas/Ok' } };
      }),
    ),
  },
  {
    id: 'mutate-reports-bad-operations', areas: ['errors', 'simulation'], allowedWarnings: [],
    description: 'a batch mutation with a wrongly typed operation answers 200, that operation reported in its own result {op, ok: false, error}, the others applied',
    gap: 'Errors: "Inside a batch mutation, a failed operation is reported in its own result entry with `ok` false and an `error` string; the batch response itself remains a `result` envelope."',
    ...perOperationHooks(),
  },
  {
    id: 'relationships-both-ways', areas: ['world-parts'], allowedWarnings: [],
    description: 'GET /worlds/{id}/relationships also lists each relationship the other way round (persona → actor, trust 0.5), as a record of its own',
    gap: 'Endpoints: GET /worlds/{id}/relationships "List all relationships in the world" (shape not shown); Resources: relationships are directed, source then target.',
    ...bothWaysHooks(),
  },
  {
    id: 'envelope-extras', areas: ['worlds', 'errors', 'personas', 'model'], allowedWarnings: [],
    description: 'every answer carries an x-request-id header, and every success envelope a requestId member beside result',
    gap: 'What the service does: "Every successful response is wrapped in an object with a `result` member" (other members not excluded); headers other than Retry-After: not shown.',
    response: (res: FaultResponse, req, ctx) => {
      const id = randomUUID();
      res.headers['x-request-id'] = id;
      if (!isDocument(req) && resultOf(res)) { (res.body as Json).requestId = id; applied(ctx); }
    },
  },
  ...SENTENCE_VARIANTS,
  ...MEMBER_VARIANTS,
  ...RATE_LIMIT_VARIANTS,
  ...VERDICT_VARIANTS,
];

/** Triggers evaluated only at ticks: not a variant here, and why (docs/self-test.md, "Legal variants"). */
export const NOT_EMULATED = [
  {
    id: 'triggers-at-tick',
    why: 'a proxy could hide a firing from the event result and from query until the next tick, but the reference has already entered the phase: '
      + 'the events between the firing and the tick are appraised under the new phase\'s normMapOverride, which a deployment that fires at the tick would not do. '
      + 'Faithful emulation needs the triggers held by the proxy (stripped from the definition sent, put back in every answer) and applied at each tick by a snapshot import; '
      + 'or a switch of the reference.',
  },
];
