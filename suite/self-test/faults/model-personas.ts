// Faults the model area's persona, chat and origin commands (model/personas.ts, chat.ts, origins.ts)
// are proven with: one per sentence they predict from, written after them, each a bug one step from
// what the areas' own checks send (a second PATCH, a third annotation, a second forced response, a
// persona operation other than GET, a member of chat's answer its check does not read). A control
// changes nothing.
import type { Fault } from '../faults.ts';
import type { FaultContext, FaultRequest } from '../proxy.ts';
import { json } from '../proxy.ts';
import { errorAnswer, is, isObject, keyOf, onResult, originMatchedBy, resultOf, responses, type Json } from '../hooks.ts';

/** A Map kept in the proxy's memory under `name`. */
const memory = <V>(ctx: FaultContext, name: string): Map<string, V> => {
  if (!ctx.state.has(name)) ctx.state.set(name, new Map<string, V>());
  return ctx.state.get(name) as Map<string, V>;
};
/** Counts, per persona, the requests of an operation since the persona's last perceive; returns the new count. */
const countSincePerceive = (req: FaultRequest, ctx: FaultContext, name: string): number => {
  const counts = memory<number>(ctx, name);
  const id = req.params.id ?? '';
  if (is(req, 'perceive')) { counts.delete(id); return 0; }
  counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts.get(id)!;
};
const ok = () => json(200, { result: { ok: true } });
/** Remembers which key created each persona; whether a request comes with that key. */
const rememberOwner: NonNullable<Fault['response']> = (res, req, ctx) => {
  const id = resultOf(res)?.personaId;
  if (is(req, 'createPersona') && typeof id === 'string' && keyOf(req)) memory<string>(ctx, 'owners').set(id, keyOf(req)!);
};
const byOwner = (req: FaultRequest, ctx: FaultContext) => !!req.params.id && memory<string>(ctx, 'owners').get(req.params.id) === keyOf(req);

export const FAULTS: Fault[] = [
  {
    id: 'model-persona-page-one-repeats', areas: ['model'], expected: ['PERS-3'],
    description: 'GET /personas with a page size of 1 serves, on every page after the first, the persona of the page before again (the cursor points at the last item served, not after it)',
    response: onResult(['listPersonas'], (r, req, ctx) => {
      const last = memory<Json>(ctx, 'last-listed');
      const size = [...req.query.entries()].find(([k]) => /limit|size/i.test(k))?.[1];
      const items = Array.isArray(r.personas) ? r.personas : undefined;
      if (size !== '1' || !items) return;
      const cursor = [...req.query.entries()].find(([k]) => /cursor|token/i.test(k))?.[1];
      const before = cursor ? last.get(cursor) : undefined;
      if (typeof r.nextCursor === 'string' && items.length) last.set(r.nextCursor, items[items.length - 1]);
      if (before) r.personas = [before, ...items].slice(0, 1);
    }),
  },
  {
    id: 'model-persona-second-patch-no-content', areas: ['model'], expected: ['PERS-2'],
    description: 'PATCH /personas/{id} of a persona already PATCHed once answers 204 with no body (nothing changed), instead of {ok: true}',
    answer: (req, ctx) => {
      if (!is(req, 'updatePersona') || !byOwner(req, ctx)) return undefined;
      const seen = memory<boolean>(ctx, 'patched');
      const id = req.params.id!;
      if (!seen.has(id)) { seen.set(id, true); return undefined; }
      return { status: 204, headers: {}, body: undefined };
    },
    response: rememberOwner,
  },
  {
    id: 'model-persona-restore-drops-name', areas: ['model'], expected: ['STATE-5'],
    description: "GET /personas/{id} of a restored persona shows a configuration rebuilt from defaults: its name is gone (the persona's id in its place)",
    response: responses(
      (res, req, ctx) => {
        const name = (req.body as Json)?.config?.identity?.name;
        const id = resultOf(res)?.personaId;
        if (is(req, 'createPersona') && typeof id === 'string' && typeof name === 'string') memory<string>(ctx, 'names').set(id, name);
        if (is(req, 'restorePersona') && res.status < 300 && req.params.id) memory<boolean>(ctx, 'restored').set(req.params.id, true);
      },
      onResult(['getPersona'], (r, req, ctx) => {
        const id = req.params.id ?? '';
        const name = memory<string>(ctx, 'names').get(id);
        if (!name || !memory<boolean>(ctx, 'restored').has(id)) return;
        const persona = isObject(r.persona) ? r.persona : r;
        if (isObject(persona.config)) persona.config = JSON.parse(JSON.stringify(persona.config).split(JSON.stringify(name)).join(JSON.stringify(id)));
      }),
    ),
  },
  {
    id: 'model-persona-third-annotation-dropped', areas: ['model'], expected: ['PERS-7'],
    description: 'POST /personas/{id}/annotate keeps two annotations until the next response: a third is answered {ok: true} and dropped',
    request: (req, ctx) => { if (is(req, 'perceive')) countSincePerceive(req, ctx, 'annotations'); },
    answer: (req, ctx) => (is(req, 'annotate') && countSincePerceive(req, ctx, 'annotations') > 2 ? ok() : undefined),
  },
  {
    id: 'model-persona-second-forced-ignored', areas: ['model'], expected: ['PERS-8'],
    description: "POST /personas/{id}/next-response works once per persona: a second forced response is answered {ok: true} and never used",
    answer: (req, ctx) => {
      if (!is(req, 'forceNextResponse') || !byOwner(req, ctx)) return undefined;
      const forced = memory<number>(ctx, 'forced');
      const id = req.params.id!;
      forced.set(id, (forced.get(id) ?? 0) + 1);
      return forced.get(id)! > 1 ? ok() : undefined;
    },
    response: rememberOwner,
  },
  {
    id: 'model-persona-perceive-after-forced-fails', areas: ['model'], expected: ['PERS-11'],
    description: 'POST /personas/{id}/perceive right after the response that used a forced text fails 500 (the emptied forced slot is read)',
    answer: (req, ctx) => {
      const used = memory<boolean>(ctx, 'just-used');
      if (!is(req, 'perceive') || !byOwner(req, ctx) || !used.has(req.params.id!)) return undefined;
      used.delete(req.params.id!);
      return errorAnswer(500, 'INTERNAL', 'forced response slot empty');
    },
    response: (res, req, ctx) => {
      rememberOwner(res, req, ctx);
      const pending = memory<boolean>(ctx, 'pending');
      const id = req.params.id;
      if (!id || res.status >= 300 || !byOwner(req, ctx)) return;
      if (is(req, 'forceNextResponse')) pending.set(id, true);
      if (is(req, 'perceive') && pending.delete(id)) memory<boolean>(ctx, 'just-used').set(id, true);
    },
  },
  {
    id: 'model-chat-intensity-as-text', areas: ['model'], expected: ['SIM-1'],
    description: 'chat answers each EntityResponse with discrete.intensity as a string of two decimals ("0.05")',
    response: onResult(['chat'], (r) => {
      const items = [r.response, ...(Array.isArray(r.affected) ? r.affected : []), ...(Array.isArray(r.groupAwareness) ? r.groupAwareness : [])].map((x: Json) => x?.response ?? x);
      for (const e of items) if (typeof e?.discrete?.intensity === 'number') e.discrete.intensity = e.discrete.intensity.toFixed(2);
    }),
  },
  {
    id: 'model-chat-snapshot-rescaled', areas: ['model'], expected: ['SIM-11'],
    description: "chat answers the recipient's memoryEpisode.emotionSnapshot mapped from 0..1 to -1..1 once more (2v − 1), so a negative member falls below -1",
    response: onResult(['chat'], (r) => {
      const v = r.response?.memoryEpisode?.emotionSnapshot;
      if (isObject(v)) for (const k of ['V', 'A', 'D']) if (typeof v[k] === 'number') v[k] = 2 * v[k] - 1;
    }),
  },
  {
    id: 'model-chat-recipient-any-case', areas: ['model'], expected: ['ERR-2'],
    description: 'POST /worlds/{id}/chat finds the recipient (`to`) without regard to case ("ANA" is ana)',
    request: (req, ctx) => {
      const b = req.body as Json;
      if (is(req, 'createWorld') && Array.isArray(b?.entities)) for (const e of b.entities) if (typeof e?.name === 'string') memory<string>(ctx, 'names').set(e.name.toLowerCase(), e.name);
      if (!is(req, 'chat') || typeof b?.to !== 'string') return;
      const known = memory<string>(ctx, 'names').get(b.to.toLowerCase());
      if (known) b.to = known;
    },
  },
  {
    id: 'model-persona-runtime-id-trimmed', areas: ['model'], expected: ['ERR-4'],
    description: 'the persona runtime operations (perceive, tick, emotion, annotate, next-response, state, prompt-context, snapshot) look the id up trimmed of spaces',
    request: (req) => {
      const id = req.params.id;
      if (!id || id.trim() === id || !is(req, 'perceive', 'tickPersona', 'overrideEmotion', 'annotate', 'forceNextResponse', 'getPersonaState', 'promptContext', 'getPersonaSnapshot')) return;
      req.params.id = id.trim();
      req.path = req.path.replace(/^(\/personas\/)[^/]+/, `$1${encodeURIComponent(id.trim())}`);
    },
  },
  {
    id: 'model-persona-patch-any-tenant', areas: ['model'], expected: ['ISO-3'],
    description: "PATCH /personas/{id} finds the persona in any tenant: another tenant's key updates it",
    request: (req, ctx) => {
      const owners = memory<string>(ctx, 'owners');
      const owner = req.params.id ? owners.get(req.params.id) : undefined;
      if (is(req, 'updatePersona') && owner && keyOf(req) !== owner) req.headers['x-api-key'] = owner;
    },
    response: (res, req, ctx) => {
      const id = resultOf(res)?.personaId;
      if (is(req, 'createPersona') && typeof id === 'string' && keyOf(req)) memory<string>(ctx, 'owners').set(id, keyOf(req)!);
    },
  },
  {
    id: 'model-persona-list-deleted-large-pages', areas: ['model'], expected: ['STATE-4'],
    description: 'GET /personas asked for more than 50 a page still lists soft-deleted personas (the large-page query forgets the deleted filter)',
    response: responses(
      onResult(['listPersonas'], (r, req, ctx) => {
        const seen = memory<Json>(ctx, 'listed');
        const items = Array.isArray(r.personas) ? r.personas : [];
        for (const p of items) if (typeof p?.id === 'string') seen.set(p.id, p);
        const size = Number([...req.query.entries()].find(([k]) => /limit|size/i.test(k))?.[1]);
        if (!(size > 50) || r.nextCursor) return;
        for (const id of memory<boolean>(ctx, 'deleted').keys()) if (seen.has(id) && !items.some((p: Json) => p?.id === id)) items.push(seen.get(id));
      }),
      (res, req, ctx) => {
        const id = req.params.id;
        if (!id || res.status >= 300) return;
        if (is(req, 'deletePersona')) memory<boolean>(ctx, 'deleted').set(id, true);
        if (is(req, 'restorePersona')) memory<boolean>(ctx, 'deleted').delete(id);
      },
    ),
  },
  {
    id: 'model-origin-any-port', areas: ['model'], expected: ['AUTH-4'],
    description: "the origin allowlist compares scheme and host but not the port: the origin key is served from the allowed host on another port",
    request: originMatchedBy((sent, allowed) => {
      try { const a = new URL(sent); const b = new URL(allowed); return a.protocol === b.protocol && a.hostname === b.hostname; } catch { return false; }
    }),
  },
  {
    id: 'model-origin-personas-trailing-slash', areas: ['model'], expected: ['AUTH-5'],
    description: 'the Persona API compares the Origin with the allowed origins written with a trailing slash: the origin key is refused 403 from its own origin on /personas',
    answer: (req, ctx) => (is(req, 'listPersonas') && keyOf(req) === ctx.keys.originKey && req.headers.origin === ctx.keys.allowedOrigin
      ? errorAnswer(403, 'ORIGIN_NOT_ALLOWED', 'origin not allowed') : undefined),
  },
  {
    id: 'model-no-origins-personas-blocked', areas: ['model'], expected: ['AUTH-6'],
    description: 'GET /personas with a key without configured origins is refused 403 when the request carries an Origin (an empty allowlist read as "none allowed" on the Persona API)',
    answer: (req, ctx) => (is(req, 'listPersonas') && req.headers.origin && keyOf(req) === ctx.keys.mainKey ? errorAnswer(403, 'ORIGIN_NOT_ALLOWED', 'origin not allowed') : undefined),
  },
  {
    id: 'model-personas-control', areas: ['model'], expected: [],
    description: 'control: the model area through a proxy that counts persona operations and changes nothing (must pass)',
    request: (req, ctx) => { if (req.params.id) countSincePerceive(req, ctx, 'all'); },
  },
];
