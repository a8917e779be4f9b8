// Faults of the persona runtime (PERS-1..12).
import type { Fault } from '../faults.ts';
import { type FaultContext, type Json, alsoSend, errorAnswer, is, is2xx, isObject, json, noop, okResult, onBody, onDocument, onResult, operationIn, responses, resultOf } from './helpers.ts';

/** The string values of a body (an annotation or a forced text, whatever member carries it). */
const stringsOf = (body: unknown): string[] => (typeof body === 'string' ? [body] : body && typeof body === 'object' ? Object.values(body).filter((v): v is string => typeof v === 'string') : []);
/** A VAD whose valence sits at the bound pushed under it, as an unclamped sum would. */
const unclamp = (vad: unknown) => { if (isObject(vad) && typeof vad.V === 'number' && vad.V <= -0.95) vad.V = -1.2; };
/** The configuration of each persona before its first PATCH, by id. */
const staleConfigs = (ctx: FaultContext): Map<string, Json> => {
  if (!ctx.state.has('stale-configs')) ctx.state.set('stale-configs', new Map<string, Json>());
  return ctx.state.get('stale-configs') as Map<string, Json>;
};


export const FAULTS: Fault[] = [
  {
    id: 'persona-created-without-createdAt', areas: ['personas'], expected: ['PERS-1', 'CONTRACT-1'],
    description: 'POST /personas answers {personaId} without createdAt',
    response: onResult(['createPersona'], (r) => { delete r.createdAt; }),
  },
  {
    id: 'persona-patch-not-ok', areas: ['personas'], expected: ['PERS-2', 'CONTRACT-1'],
    description: 'PATCH /personas/{id} answers {} instead of {ok: true}',
    response: onResult(['updatePersona'], (r) => { delete r.ok; }),
  },
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
  {
    id: 'persona-list-repeats', areas: ['personas'], expected: ['PERS-3'],
    description: 'GET /personas serves the first persona again at the top of every following page',
    response: onResult(['listPersonas'], (r, req, ctx) => {
      if (!Array.isArray(r.personas) || !r.personas.length) return;
      if (!req.query.get('cursor')) ctx.state.set('first', r.personas[0]);
      else if (ctx.state.has('first')) r.personas.unshift(ctx.state.get('first'));
    }),
  },
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
    id: 'persona-state-without-mood', areas: ['personas'], expected: ['PERS-6', 'CONTRACT-1'],
    description: 'GET /personas/{id}/state loses mood',
    response: onResult(['getPersonaState'], (r) => { delete r.mood; }),
  },
  {
    id: 'annotate-ignored', areas: ['personas'], expected: ['PERS-7'],
    description: 'POST /personas/{id}/annotate answers ok and does nothing',
    answer: noop(['annotate']),
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
    id: 'next-response-ignored', areas: ['personas'], expected: ['PERS-8'],
    description: 'POST /personas/{id}/next-response answers ok and does nothing',
    answer: noop(['forceNextResponse']),
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
  {
    id: 'persona-snapshot-without-selfConcept', areas: ['personas'], expected: ['PERS-9', 'CONTRACT-1'],
    description: 'GET /personas/{id}/snapshot loses selfConcept',
    response: onResult(['getPersonaSnapshot'], (r) => { delete r.selfConcept; }),
  },
  {
    id: 'persona-snapshot-import-lossy', areas: ['personas'], expected: ['PERS-10'],
    description: 'PUT /personas/{id}/snapshot drops selfConcept and mood of the imported snapshot',
    request: onBody(['putPersonaSnapshot'], (b) => { if (b.snapshot && typeof b.snapshot === 'object') { delete b.snapshot.selfConcept; delete b.snapshot.mood; } }),
  },
  {
    id: 'perceive-ignored', areas: ['personas'], expected: ['PERS-11'],
    description: 'POST /personas/{id}/perceive answers a neutral response and processes nothing',
    answer: (req) => (is(req, 'perceive') ? okResult({
      response: { emotion: { V: 0, A: 0, D: 0 }, discrete: { primary: 'neutral', secondary: 'neutral', intensity: 0 }, socialUpdates: [], goalChanges: { achieved: [], abandoned: [], activated: [] }, text: '' },
    }) : undefined),
  },
  {
    id: 'persona-valence-below-bound', areas: ['personas'], expected: ['PERS-12'],
    description: 'a standalone persona whose valence reaches -0.95 or lower is shown at -1.2 (state emotion and mood, snapshot mood and emotion): no clamp at -1',
    response: onResult(['getPersonaState', 'getPersonaSnapshot'], (r) => {
      unclamp(r.emotion?.vad); unclamp(r.mood?.vad); unclamp(r.mood); unclamp(r.state?.emotion);
    }),
  },
];
