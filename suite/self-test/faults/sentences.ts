// Faults for the sentences of SPEC.md that issue 46 gave checks of their own: errors on unknown routes,
// ENTITY_NOT_FOUND for events, the VAD lower bound of standalone personas, a delete that does nothing
// behind an idempotent restore, a restore that resets a member, a phase change nobody reports, a
// persona list that ignores its page size. Each passed every MUST before its check changed.
import { codeOf, errorAnswer, is, isDocument, isObject, onDocument, onResult, operationIn, responses, resultOf, type Json } from '../hooks.ts';
import { json, type FaultContext, type FaultRequest } from '../proxy.ts';
import { operationOf } from '../proxy.ts';
import { idempotentRestore } from '../variants/sentences.ts';
import type { Fault } from '../faults.ts';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** A request no operation of SPEC.md serves: 'method' when its path has other methods, else 'path'. */
const unknownRoute = (req: FaultRequest): 'path' | 'method' | undefined => {
  if (req.operationId !== undefined || isDocument(req)) return undefined;
  return METHODS.some((m) => operationOf(m, req.path).operationId) ? 'method' : 'path';
};

/** Another request to the deployment, with the key of the one being handled. */
const alsoSend = (ctx: FaultContext, req: FaultRequest, method: string, path: string, body?: unknown) =>
  ctx.forward({
    ...req, method, path, query: new URLSearchParams(), body, rawBody: body === undefined ? '' : JSON.stringify(body), params: {}, operationId: undefined,
    headers: { ...req.headers, 'content-type': body === undefined ? '' : 'application/json' },
  });

/** The configuration of each persona before its first PATCH, by id. */
const staleConfigs = (ctx: FaultContext): Map<string, Json> => {
  if (!ctx.state.has('stale-configs')) ctx.state.set('stale-configs', new Map<string, Json>());
  return ctx.state.get('stale-configs') as Map<string, Json>;
};

/** A VAD whose valence sits at the bound pushed under it, as an unclamped sum would. */
const unclamp = (vad: unknown) => { if (isObject(vad) && typeof vad.V === 'number' && vad.V <= -0.95) vad.V = -1.2; };

export const SENTENCE_FAULTS: Fault[] = [
  // ---- Unknown routes and methods ----
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

  // ---- ENTITY_NOT_FOUND for events ----
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
    id: 'mutate-unknown-entity-ok', areas: ['errors'], only: ['ERR-10'], expected: ['ERR-10'],
    description: 'a batch operation naming an entity the world does not have is reported ok: true (silently skipped)',
    response: onResult(['mutateWorld'], (r) => {
      for (const x of Array.isArray(r.results) ? r.results : []) if (x?.ok === false && /not exist|not found/i.test(String(x.error))) { x.ok = true; delete x.error; }
    }),
  },

  // ---- The VAD lower bound of standalone personas ----
  {
    id: 'persona-valence-below-bound', areas: ['personas'], expected: ['PERS-12', 'CONTRACT-1'],
    description: 'a standalone persona whose valence reaches -0.95 or lower is shown at -1.2 (state emotion and mood, snapshot mood and emotion): no clamp at -1',
    response: onResult(['getPersonaState', 'getPersonaSnapshot'], (r) => {
      unclamp(r.emotion?.vad); unclamp(r.mood?.vad); unclamp(r.mood); unclamp(r.state?.emotion);
    }),
  },

  // ---- A persona PATCH read back ----
  {
    id: 'persona-patch-ignored', areas: ['personas'], only: ['PERS-2', 'PERS-13', 'PERS-14'], expected: ['PERS-14'],
    description: 'PATCH /personas/{id} answers {ok: true} and changes nothing (schema-valid)',
    answer: (req) => (is(req, 'updatePersona') ? json(200, { result: { ok: true } }) : undefined),
  },
  {
    id: 'persona-patch-refused', areas: ['personas'], only: ['PERS-2', 'PERS-13', 'PERS-14'], expected: ['PERS-13'],
    description: 'PATCH /personas/{id} answers 400 VALIDATION_ERROR to any body but the empty object: nothing can be changed',
    answer: (req) => (is(req, 'updatePersona') && isObject(req.body) && Object.keys(req.body).length ? errorAnswer(400, 'VALIDATION_ERROR', 'fault: nothing can be changed') : undefined),
  },
  {
    id: 'persona-patch-not-in-list', areas: ['personas'], only: ['PERS-14'], expected: ['PERS-14'],
    description: 'GET /personas lists a PATCHed persona with the configuration it had before its first PATCH (a stale read model); GET /personas/{id} shows the change',
    async answer(req, ctx) {
      if (!is(req, 'updatePersona')) return undefined;
      const stale = staleConfigs(ctx);
      const read = resultOf(await alsoSend(ctx, req, 'GET', `/personas/${encodeURIComponent(req.params.id)}`));
      if (!stale.has(req.params.id) && isObject(read?.persona?.config)) stale.set(req.params.id, read.persona.config);
      return ctx.forward(req);
    },
    response: onResult(['listPersonas'], (r, _req, ctx) => {
      for (const p of Array.isArray(r.personas) ? r.personas : []) if (isObject(p) && staleConfigs(ctx).has(p.id)) p.config = staleConfigs(ctx).get(p.id);
    }),
  },

  // ---- Paging of GET /personas ----
  {
    id: 'persona-list-page-size-ignored', areas: ['personas'], only: ['PERS-3'], expected: ['PERS-3'],
    description: 'GET /personas ignores the page size it is asked for (every parameter but the cursor dropped): pages of the default size',
    request: (req) => { if (is(req, 'listPersonas')) for (const k of [...req.query.keys()]) if (k !== 'cursor') req.query.delete(k); },
  },

  {
    id: 'persona-list-repeats-no-page-size', areas: ['personas'], only: ['PERS-3'], expected: ['PERS-3'],
    description: 'GET /personas declares no page-size parameter (pages of its default), and serves the first persona again at the top of every following page',
    request: (req) => { if (is(req, 'listPersonas')) req.query.delete('limit'); },
    response: responses(
      onResult(['listPersonas'], (r, req, ctx) => {
        if (!Array.isArray(r.personas) || !r.personas.length) return;
        if (!req.query.get('cursor')) ctx.state.set('first', r.personas[0]);
        else if (ctx.state.has('first')) r.personas.unshift(ctx.state.get('first'));
      }),
      onDocument((doc) => {
        const op = operationIn(doc, 'listPersonas');
        if (Array.isArray(op?.parameters)) op.parameters = op.parameters.filter((p: Json) => p?.name !== 'limit');
      }),
    ),
  },

  // ---- A delete that does nothing, a restore that resets ----
  {
    id: 'world-delete-noop-restore-idempotent', areas: ['states'], expected: ['STATE-1'],
    description: 'DELETE /worlds/{id} answers ok and does nothing; a restore of a live world answers the world (idempotent)',
    async answer(req, ctx) {
      if (is(req, 'deleteWorld')) return json(200, { result: { ok: true } });
      return idempotentRestore().answer!(req, ctx);
    },
  },
  {
    id: 'persona-delete-noop-restore-idempotent', areas: ['states'], expected: ['STATE-3'],
    description: 'DELETE /personas/{id} answers ok and does nothing; a restore of a live persona answers the persona (idempotent)',
    async answer(req, ctx) {
      if (is(req, 'deletePersona')) return json(200, { result: { ok: true } });
      return idempotentRestore().answer!(req, ctx);
    },
  },
  {
    id: 'world-restore-resets-description', areas: ['states'], only: ['STATE-5'], expected: ['STATE-5'],
    description: "a restored world comes back with its definition's identity.description reset to ''",
    async response(res, req, ctx) {
      if (!is(req, 'restoreWorld') || !resultOf(res)) return;
      await alsoSend(ctx, req, 'PATCH', `/worlds/${encodeURIComponent(req.params.id)}`, { definition: { identity: { description: '' } } });
    },
  },
  {
    id: 'persona-restore-resets-self-concept', areas: ['states'], only: ['STATE-5'], expected: ['STATE-5'],
    description: "a restored persona comes back with its selfConcept reset to ''",
    async response(res, req, ctx) {
      if (!is(req, 'restorePersona') || !resultOf(res)) return;
      const path = `/personas/${encodeURIComponent(req.params.id)}/snapshot`;
      const snapshot = resultOf(await alsoSend(ctx, req, 'GET', path));
      if (snapshot) await alsoSend(ctx, req, 'PUT', path, { snapshot: { ...snapshot, selfConcept: '' } });
    },
  },

  // ---- A phase change nobody reports ----
  {
    id: 'phase-change-never-reported', areas: ['progression'], only: ['PROG-4'], expected: ['PROG-4'],
    description: 'triggers fire at the event; an event with a future timestamp is delivered at once; no result (event, chat or tick) carries phaseChanged',
    request: (req) => { if (is(req, 'dispatchEvent') && isObject(req.body)) delete (req.body as Json).timestamp; },
    response: onResult(['tickWorld', 'dispatchEvent', 'chat'], (r) => { delete r.phaseChanged; }),
  },
];

