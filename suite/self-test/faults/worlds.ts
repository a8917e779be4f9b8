// Faults of worlds (WORLD-1..11): members, pagination, definitions and patches, and values compared
// through every view. Each that drops a member SPEC.md lists also takes it out of the served
// document's `required` (legal), so that only what SPEC.md states catches it.
import type { Fault } from '../faults.ts';
import { type Json, errorAnswer, forwardTo, is, isObject, keepOnly, okResult, onBody, onResult, responses, resultOf, unrequire, wait } from './helpers.ts';

/** The worlds of a result of GET /worlds/{id} or GET /worlds. */
const worldsOf = (r: Json): Json[] => [r.world, ...(Array.isArray(r.worlds) ? r.worlds : [])].filter(isObject);

const DEFINITION = ['identity', 'rules', 'culture', 'topology', 'time', 'knowledge', 'progression'];
const IDENTITY = ['name', 'description'];
const PERSONA_CONFIG = ['personality', 'identity', 'goals', 'type', 'reflection'];
const closeDefinition = (definition: unknown) => {
  keepOnly(definition, DEFINITION);
  if (isObject(definition)) keepOnly(definition.identity, IDENTITY);
};


export const FAULTS: Fault[] = [
  {
    id: 'world-created-without-createdAt', areas: ['worlds'], expected: ['WORLD-1', 'CONTRACT-1'],
    description: 'POST /worlds answers {worldId} without createdAt',
    response: onResult(['createWorld'], (r) => { delete r.createdAt; }),
  },
  {
    id: 'world-createdAt-restamped', areas: ['worlds'], only: ['WORLD-1'], expected: ['WORLD-1'],
    description: 'GET /worlds/{id} answers createdAt as the time of the read, not of the creation',
    response: onResult(['getWorld'], (r) => { if (r.world && typeof r.world.createdAt === 'number') r.world.createdAt = Date.now(); }),
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
    id: 'list-limit-ignored', areas: ['worlds'], expected: ['WORLD-2'],
    description: 'GET /worlds ignores limit (always the default page of 20)',
    request: (req) => { if (is(req, 'listWorlds')) req.query.delete('limit'); },
  },
  {
    id: 'list-default-limit-10', areas: ['worlds'], only: ['WORLD-2'], expected: ['WORLD-2'],
    description: 'Limits: GET /worlds without a limit answers pages of 10, not 20',
    request: (req) => { if (is(req, 'listWorlds') && !req.query.has('limit')) req.query.set('limit', '10'); },
  },
  {
    id: 'model-list-odd-limit-plus-one', areas: ['model'], expected: ['WORLD-2'],
    description: 'GET /worlds with an odd limit below 100 (1, 3, …) answers one world more than the limit',
    request: (req) => {
      const limit = Number(req.query.get('limit'));
      if (is(req, 'listWorlds') && Number.isInteger(limit) && limit % 2 === 1 && limit < 100) req.query.set('limit', String(limit + 1));
    },
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
    id: 'limit-101-answers-101', areas: ['worlds'], expected: ['WORLD-3'],
    description: 'GET /worlds caps limit at 101, not 100 (an off-by-one in the bound): limit=101 or more answers 101 worlds when the tenant holds them',
    response: async (res, req, ctx) => {
      // The deployment clamped to 100; the world after its page is the 101st a "> 101" bound lets through.
      const r = is(req, 'listWorlds') && Number(req.query.get('limit')) > 100 ? resultOf(res) : undefined;
      if (!r || !Array.isArray(r.worlds) || r.worlds.length !== 100 || typeof r.nextCursor !== 'string' || !r.nextCursor) return;
      const query = new URLSearchParams({ limit: '1', cursor: r.nextCursor });
      const next = resultOf(await ctx.forward({ ...req, query }));
      if (!Array.isArray(next?.worlds) || !next.worlds.length) return;
      r.worlds.push(next.worlds[0]);
      if (typeof next.nextCursor === 'string' && next.nextCursor) r.nextCursor = next.nextCursor; else delete r.nextCursor;
    },
  },
  {
    id: 'limit-zero-unbounded', areas: ['worlds'], expected: ['WORLD-2', 'WORLD-3'],
    description: 'GET /worlds?limit=0 is read as "no limit": every world of the tenant on one page',
    answer: async (req, ctx) => {
      if (!is(req, 'listWorlds') || req.query.get('limit') !== '0') return undefined;
      const worlds: Json[] = [];
      let cursor = '';
      for (let page = 0; page < 200; page++) {
        const res = await ctx.forward({ ...req, query: new URLSearchParams({ limit: '100', ...(cursor ? { cursor } : {}) }) });
        const r = resultOf(res);
        if (!r || !Array.isArray(r.worlds)) return res;
        worlds.push(...r.worlds);
        cursor = typeof r.nextCursor === 'string' ? r.nextCursor : '';
        if (!cursor) break;
      }
      return okResult({ worlds });
    },
  },
  {
    // ENV-4 is the generated area's: its check of limit values catches this one (the worlds area
    // judges pages only, and a 5xx is none).
    id: 'limit-not-a-number-500', areas: ['generated'], expected: ['ENV-4'],
    description: 'GET /worlds with a limit that is not a number (abc, 20abc) is answered 500: the parser throws on NaN',
    answer: (req) => (is(req, 'listWorlds') && req.query.has('limit') && Number.isNaN(Number(req.query.get('limit')))
      ? errorAnswer(500, 'INTERNAL_ERROR', 'fault: limit is NaN') : undefined),
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
    id: 'list-page-drops-last-item', areas: ['worlds'], only: ['WORLD-4'], expected: ['WORLD-4'],
    description: 'GET /worlds: a page followed by a next one loses its last world (the cursor points past it)',
    response: onResult(['listWorlds'], (r) => { if (r.nextCursor && Array.isArray(r.worlds) && r.worlds.length > 1) r.worlds.pop(); }),
  },
  {
    id: 'world-without-engineVersion', areas: ['worlds'], expected: ['WORLD-5', 'CONTRACT-1'],
    description: 'worlds (GET /worlds/{id}, GET /worlds) lose engineVersion',
    response: onResult(['getWorld', 'listWorlds'], (r) => {
      for (const w of [r.world, ...(Array.isArray(r.worlds) ? r.worlds : [])]) if (w && typeof w === 'object') delete w.engineVersion;
    }),
  },
  {
    id: 'world-definition-not-kept', areas: ['worlds'], expected: ['WORLD-6'],
    description: 'POST /worlds drops definition.rules.physics',
    request: onBody(['createWorld'], (b) => { if (b.definition?.rules) delete b.definition.rules.physics; }),
  },
  {
    id: 'world-patch-refused', areas: ['worlds'], expected: ['WORLD-7'],
    description: 'PATCH /worlds/{id} is answered 400 VALIDATION_ERROR whatever it holds',
    answer: (req) => (is(req, 'updateWorld') ? errorAnswer(400, 'VALIDATION_ERROR', 'fault: nothing can be changed') : undefined),
  },
  {
    id: 'world-without-tenantId', areas: ['worlds'], expected: ['WORLD-8', 'CONTRACT-1'],
    description: 'worlds (GET /worlds/{id}, GET /worlds) lose tenantId (the served document does not mark it required)',
    response: responses(
      onResult(['getWorld', 'listWorlds'], (r) => { for (const w of worldsOf(r)) delete w.tenantId; }),
      unrequire({ World: ['tenantId'] }),
    ),
  },
  {
    id: 'world-tenantId-per-world', areas: ['worlds'], expected: ['WORLD-9'],
    description: 'every world reports a tenantId of its own (its id), the same in every view (schema-valid)',
    response: onResult(['getWorld', 'listWorlds'], (r) => { for (const w of worldsOf(r)) if (typeof w.id === 'string') w.tenantId = `tenant-${w.id}`; }),
  },
  {
    id: 'world-persona-configs-empty', areas: ['worlds'], expected: ['WORLD-10'],
    description: 'GET /worlds/{id} answers personaConfigs {} whatever was given (schema-valid)',
    response: onResult(['getWorld'], (r) => { if (isObject(r.personaConfigs)) r.personaConfigs = {}; }),
  },
  {
    id: 'open-members-stripped', areas: ['worlds'], expected: ['WORLD-10'],
    description: 'the open definition, identity and persona configurations come back without the members SPEC.md does not list (GET /worlds/{id}, GET /worlds, the snapshot)',
    response: responses(
      onResult(['getWorld', 'listWorlds'], (r) => {
        for (const w of worldsOf(r)) closeDefinition(w.definition);
        for (const c of Object.values(isObject(r.personaConfigs) ? r.personaConfigs : {})) keepOnly(c, PERSONA_CONFIG);
      }),
      onResult(['getWorldSnapshot'], (r) => closeDefinition(r.definition)),
    ),
  },
  {
    id: 'world-patch-ignored', areas: ['worlds'], expected: ['WORLD-11'],
    description: 'PATCH /worlds/{id} answers the world unchanged and changes nothing',
    answer: async (req, ctx) => (is(req, 'updateWorld') ? forwardTo(ctx, req, 'GET', req.path) : undefined),
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
    id: 'model-patch-not-listed', areas: ['model'], expected: ['WORLD-11'],
    description: 'GET /worlds lists a renamed world under the name it was created with (the list reads a stale copy); GET, context and snapshot show the new name',
    response: responses(
      (res, req, ctx) => {
        const b = req.body as Json;
        if (is(req, 'createWorld') && resultOf(res) && typeof b?.definition?.identity?.name === 'string') {
          if (!ctx.state.has('names')) ctx.state.set('names', new Map<string, string>());
          (ctx.state.get('names') as Map<string, string>).set(resultOf(res)!.worldId, b.definition.identity.name);
        }
      },
      onResult(['listWorlds'], (r, _req, ctx) => {
        const names = ctx.state.get('names') as Map<string, string> | undefined;
        for (const w of Array.isArray(r.worlds) ? r.worlds : []) {
          const first = names?.get(w?.id);
          if (first && isObject(w.definition?.identity)) w.definition.identity.name = first;
        }
      }),
    ),
  },
];
