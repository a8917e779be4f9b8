// Held-out faults: written apart from the model of SPEC and its scenarios (without reading them), to
// measure how well the suite generalizes: each is ONE bug one step away from what a probe checks (an
// identifier matched loosely, a second instance lost, a lenient boundary, a value changed across states
// or views). NOT registered in ../faults.ts: `npm test` does not run them; bench/held-out.ts does, per
// seed. Their catch rate is a measurement, not a gate.
import type { Fault } from '../faults.ts';
import {
  type FaultContext, type FaultRequest, type Json, errorAnswer, forwardTo, is, is2xx, isObject, keyOf, made, okResult, onBody, onResult,
  remember, resultOf, responses,
} from './helpers.ts';

// ---- Loose matching of a name or id against the known ones ----

type Match = (sent: string, known: string) => boolean;
const caseFolded: Match = (s, k) => s !== k && s.toLowerCase() === k.toLowerCase();
const trimmed: Match = (s, k) => s !== k && s.trim() === k;
/** A known id cut short (at least 8 characters kept). */
const cutId: Match = (s, k) => s !== k && s.length >= 8 && k.startsWith(s);
/** A known name cut short (a prefix of it). */
const cutName: Match = (s, k) => s !== k && s.length >= 1 && k.startsWith(s);
/** A known id with characters added after it. */
const extended: Match = (s, k) => s !== k && s.startsWith(k);
/** Compared without the last character (same length). */
const lastCharIgnored: Match = (s, k) => s !== k && s.length === k.length && s.length > 1 && s.slice(0, -1) === k.slice(0, -1);

/** The known value a sent one is (wrongly) taken as: none when it is itself known. */
const looseFind = (sent: unknown, known: Iterable<string>, match: Match): string | undefined => {
  if (typeof sent !== 'string') return undefined;
  const all = [...known];
  return all.includes(sent) ? undefined : all.find((k) => match(sent, k));
};

/** Replaces path segment `i` (`/personas/{id}/state`: id is 2). */
const setSegment = (req: FaultRequest, i: number, value: string) => {
  const segs = req.path.split('/');
  segs[i] = encodeURIComponent(value);
  req.path = segs.join('/');
};

/** The names and entity ids of a world's entities, as its query answers them. */
async function entityKeys(ctx: FaultContext, req: FaultRequest, worldId: string): Promise<string[]> {
  const r = resultOf(await forwardTo(ctx, req, 'POST', `/worlds/${encodeURIComponent(worldId)}/query`, {}));
  return Array.isArray(r?.entities) ? r.entities.flatMap((e: Json) => [e?.name, e?.id]).filter((x: unknown): x is string => typeof x === 'string') : [];
}

/** A persona id sent on these operations is matched loosely against the personas made. */
const loosePersonaId = (ops: string[], match: Match): Pick<Fault, 'request' | 'response'> => ({
  request: (req, ctx) => {
    if (!is(req, ...ops)) return;
    const hit = looseFind(req.params.id, made(ctx, 'personas'), match);
    if (hit) setSegment(req, 2, hit);
  },
  response: remember,
});

/** A world id sent on these operations is matched loosely against the worlds made. */
const looseWorldId = (ops: string[], match: Match): Pick<Fault, 'request' | 'response'> => ({
  request: (req, ctx) => {
    if (!is(req, ...ops)) return;
    const hit = looseFind(req.params.id, made(ctx, 'worlds'), match);
    if (hit) setSegment(req, 2, hit);
  },
  response: remember,
});

/** Body members naming an entity are matched loosely against the world's entities. */
const looseBodyNames = (ops: string[], members: string[], match: Match): Fault['request'] => async (req, ctx) => {
  const b = req.body as Json;
  if (!is(req, ...ops) || !isObject(b) || !req.params.id) return;
  if (!members.some((m) => typeof b[m] === 'string')) return;
  const keys = await entityKeys(ctx, req, req.params.id);
  for (const m of members) {
    const hit = looseFind(b[m], keys, match);
    if (hit) b[m] = hit;
  }
};

/** A world persona `{pid}` (segment 4) is matched loosely against the world's entities. */
const loosePid = (ops: string[], match: Match): Fault['request'] => async (req, ctx) => {
  if (!is(req, ...ops) || !req.params.id || req.params.pid === undefined) return;
  const hit = looseFind(req.params.pid, await entityKeys(ctx, req, req.params.id), match);
  if (hit) setSegment(req, 4, hit);
};

// ---- Views of the progression state ----

const progressionOf = (r: Json): Json | undefined => (isObject(r.progression) ? r.progression : undefined);
const eachProgression = (ops: string[], change: (p: Json, req: FaultRequest, ctx: FaultContext) => void) =>
  onResult(ops, (r, req, ctx) => { const p = progressionOf(r); if (p) change(p, req, ctx); });

/** Every view of a world record: GET, the list, the restore answer, the snapshot. */
const eachWorldRecord = (change: (w: Json, req: FaultRequest, ctx: FaultContext) => void) => onResult(
  ['getWorld', 'listWorlds', 'restoreWorld', 'updateWorld', 'getWorldSnapshot'],
  (r, req, ctx) => {
    if (is(req, 'getWorldSnapshot')) change(r, req, ctx);
    else if (Array.isArray(r.worlds)) for (const w of r.worlds) { if (isObject(w)) change(w, req, ctx); }
    else if (isObject(r.world)) change(r.world, req, ctx);
  },
);

const store = <T>(ctx: FaultContext, name: string): Map<string, T> => {
  if (!ctx.state.has(name)) ctx.state.set(name, new Map<string, T>());
  return ctx.state.get(name) as Map<string, T>;
};

// ---- Triggers hidden from firing, shown as given ----

/** The eventType a trigger silently gets, so that it never fires. */
const NEVER = '\u0000held-never';
/** The second trigger (and later ones) on an event type another trigger already counts is made never to fire; every view shows it as given. */
const secondTriggerSilent: Pick<Fault, 'request' | 'response'> = {
  request: onBody(['createWorld'], (b) => {
    const triggers = b.definition?.progression?.triggers;
    if (!Array.isArray(triggers)) return;
    const seen = new Set<string>();
    for (const t of triggers) {
      const type = t?.condition?.eventType;
      if (typeof type !== 'string') continue;
      if (seen.has(type)) t.condition.eventType = type + NEVER;
      seen.add(type);
    }
  }),
  response: (res) => {
    // Shown as given, in every answer (GET, list, query, snapshot, context…).
    const stack: unknown[] = [res.body];
    while (stack.length) {
      const v = stack.pop();
      if (!v || typeof v !== 'object') continue;
      for (const [k, x] of Object.entries(v as Json)) {
        if (k === 'eventType' && typeof x === 'string' && x.endsWith(NEVER)) (v as Json)[k] = x.slice(0, -NEVER.length);
        else stack.push(x);
      }
    }
  },
};

// ---- Lists ----

const limitOf = (req: FaultRequest) => (req.query.has('limit') ? Number(req.query.get('limit')) : 20);

export const FAULTS: Fault[] = [
  // ==== 1. Identifiers and names matched loosely ====
  {
    id: 'held-persona-state-id-case', areas: ['model', 'personas', 'errors'], expected: ['ERR-4'],
    description: 'GET /personas/{id}/state takes a persona id in another case as that persona',
    ...loosePersonaId(['getPersonaState'], caseFolded),
  },
  {
    id: 'held-persona-snapshot-id-trimmed', areas: ['model', 'personas', 'errors'], expected: ['ERR-4'],
    description: 'GET and PUT /personas/{id}/snapshot trim spaces around the persona id ("<id> " is that persona)',
    ...loosePersonaId(['getPersonaSnapshot', 'putPersonaSnapshot'], trimmed),
  },
  {
    id: 'held-persona-tick-id-cut', areas: ['model', 'personas', 'errors'], expected: ['ERR-4'],
    description: 'POST /personas/{id}/tick takes a persona id cut short (8 characters or more, a prefix of a known id) as that persona',
    ...loosePersonaId(['tickPersona'], cutId),
  },
  {
    id: 'held-persona-emotion-id-extended', areas: ['model', 'personas', 'errors'], expected: ['ERR-4'],
    description: 'POST /personas/{id}/emotion takes a known persona id with characters added after it as that persona',
    ...loosePersonaId(['overrideEmotion'], extended),
  },
  {
    id: 'held-prompt-context-id-last-char', areas: ['model', 'personas', 'errors'], expected: ['ERR-4'],
    description: 'POST /personas/{id}/prompt-context compares the persona id without its last character',
    ...loosePersonaId(['promptContext'], lastCharIgnored),
  },
  {
    // A world persona that does not exist is a persona that does not exist (PERSONA_NOT_FOUND), as the reference answers.
    id: 'held-world-persona-pid-case', areas: ['model', 'world-parts', 'errors'], expected: ['ERR-4'],
    description: 'GET /worlds/{id}/personas/{pid} takes an entity name in another case ("ANA" for "ana") as that persona',
    request: loosePid(['getWorldPersona'], caseFolded),
  },
  {
    id: 'held-world-persona-remove-pid-cut', areas: ['model', 'world-parts', 'errors'], expected: ['ERR-4'],
    description: 'DELETE /worlds/{id}/personas/{pid} takes the beginning of an entity name ("an" for "ana") as that persona, and removes it',
    request: loosePid(['removeWorldPersona'], cutName),
  },
  {
    id: 'held-context-entity-trimmed', areas: ['model', 'simulation', 'errors'], expected: ['ERR-2'],
    description: 'POST /worlds/{id}/context trims spaces around entityName (" ana " is "ana")',
    request: looseBodyNames(['worldContext'], ['entityName'], trimmed),
  },
  {
    id: 'held-event-target-case', areas: ['model', 'simulation', 'errors'], expected: ['ERR-2'],
    description: 'POST /worlds/{id}/events matches targetEntity and sourceEntity without case (an event to "ANA" reaches "ana")',
    request: looseBodyNames(['dispatchEvent'], ['targetEntity', 'sourceEntity'], caseFolded),
  },
  {
    id: 'held-chat-from-cut', areas: ['model', 'simulation', 'errors'], expected: ['ERR-2'],
    description: 'POST /worlds/{id}/chat takes a `from` that begins an entity name ("bo" for "bob") as that entity',
    request: looseBodyNames(['chat'], ['from'], cutName),
  },
  {
    id: 'held-relationship-names-case', areas: ['model', 'world-parts', 'errors'], expected: ['ERR-2'],
    description: 'PUT /worlds/{id}/relationships matches source and target without case (an upsert to "ANA" lands on "ana")',
    request: looseBodyNames(['upsertRelationship'], ['source', 'target'], caseFolded),
  },
  {
    id: 'held-event-counts-case-merged', areas: ['model', 'progression'], expected: ['PROG-1'],
    description: 'eventCounts (query and snapshot) counts event types without case: "Boom" is counted under "boom" when both were dispatched',
    response: eachProgression(['queryWorld', 'getWorldSnapshot'], (p) => {
      if (!isObject(p.eventCounts)) return;
      const merged: Json = {};
      const first = new Map<string, string>();
      for (const [k, n] of Object.entries(p.eventCounts)) {
        const key = first.get(k.toLowerCase()) ?? k;
        first.set(k.toLowerCase(), key);
        merged[key] = (merged[key] ?? 0) + (n as number);
      }
      p.eventCounts = merged;
    }),
  },
  {
    id: 'held-snapshot-put-world-id-case', areas: ['model', 'simulation', 'errors'], expected: ['ERR-1'],
    description: 'PUT /worlds/{id}/snapshot takes a world id in another case as that world (the import lands on it)',
    ...looseWorldId(['putWorldSnapshot'], caseFolded),
  },
  {
    id: 'held-world-tick-id-trimmed', areas: ['model', 'simulation', 'errors'], expected: ['ERR-1'],
    description: 'POST /worlds/{id}/tick trims spaces around the world id ("<id> " advances that world)',
    ...looseWorldId(['tickWorld'], trimmed),
  },
  {
    id: 'held-key-other-environment-prefix', areas: ['model', 'auth'], expected: ['AUTH-2'],
    description: 'a key is compared without its environment prefix: mk_live_<secret> is accepted as the known mk_test_<secret> (and the other way round)',
    request: (req, ctx) => {
      const sent = keyOf(req);
      if (!sent) return;
      const known = [ctx.keys.mainKey, ctx.keys.secondKey, ctx.keys.rateLimitKey, ctx.keys.originKey].filter((k): k is string => !!k);
      if (known.includes(sent)) return;
      const secret = (k: string) => k.replace(/^mk_(live|test)_/, '');
      const hit = known.find((k) => secret(k) === secret(sent) && k !== sent && /^mk_(live|test)_/.test(sent));
      if (hit) req.headers['x-api-key'] = hit;
    },
  },

  // ==== 2. Second instances ====
  {
    // A trigger that never fires breaks both sentences of the progression row: the phase does not move, the id is not added.
    id: 'held-second-trigger-same-type-silent', areas: ['model', 'progression'], expected: ['PROG-2', 'PROG-3'], expectedLabel: 'PROG-2 or PROG-3',
    description: 'a second trigger on an event type another trigger already counts never fires (the first found per type is the only one evaluated); the definition shows both',
    ...secondTriggerSilent,
  },
  {
    id: 'held-fired-trigger-ids-last-only', areas: ['model', 'progression'], expected: ['PROG-3'],
    description: 'firedTriggerIds (query and snapshot) keeps only the last trigger fired',
    response: eachProgression(['queryWorld', 'getWorldSnapshot'], (p) => {
      if (Array.isArray(p.firedTriggerIds) && p.firedTriggerIds.length > 1) p.firedTriggerIds = p.firedTriggerIds.slice(-1);
    }),
  },
  {
    id: 'held-import-second-new-space-dropped', areas: ['model', 'simulation'], expected: ['MODEL-3'],
    description: 'PUT /worlds/{id}/snapshot adds only the first of the spaces the world did not have: a second new space is dropped',
    request: async (req, ctx) => {
      const snap = (req.body as Json)?.snapshot;
      if (!is(req, 'putWorldSnapshot') || !isObject(snap) || !Array.isArray(snap.spaces)) return;
      const r = resultOf(await forwardTo(ctx, req, 'POST', `/worlds/${encodeURIComponent(req.params.id)}/query`, {}));
      if (!Array.isArray(r?.spaces)) return;
      const have = new Set(r.spaces.map((s: Json) => s?.id));
      let added = 0;
      snap.spaces = snap.spaces.filter((s: Json) => have.has(s?.id) || ++added === 1);
    },
  },
  {
    id: 'held-relationship-second-target-replaces', areas: ['model', 'world-parts'], expected: ['PART-3'],
    description: 'PUT /worlds/{id}/relationships keys relationships by source alone: a second target of one source replaces the first',
    request: async (req, ctx) => {
      const b = req.body as Json;
      if (!is(req, 'upsertRelationship') || !isObject(b) || typeof b.source !== 'string' || typeof b.target !== 'string') return;
      const base = `/worlds/${encodeURIComponent(req.params.id)}/relationships`;
      const r = resultOf(await forwardTo(ctx, req, 'GET', base));
      for (const rel of Array.isArray(r?.relationships) ? r.relationships : []) {
        if (rel?.source === b.source && rel?.target !== b.target && typeof rel?.id === 'string') await forwardTo(ctx, req, 'DELETE', `${base}/${encodeURIComponent(rel.id)}`);
      }
    },
  },
  {
    id: 'held-second-annotation-ignored', areas: ['model', 'personas'], expected: ['PERS-7'],
    description: 'POST /personas/{id}/annotate answers ok but drops a second annotation while one waits for the next prompt',
    answer: (req, ctx) => {
      const pending = store<boolean>(ctx, 'annotated');
      if (is(req, 'annotate') && pending.get(req.params.id)) return okResult();
      return undefined;
    },
    response: (res, req, ctx) => {
      const pending = store<boolean>(ctx, 'annotated');
      if (is(req, 'annotate') && is2xx(res)) pending.set(req.params.id, true);
      if (is(req, 'promptContext') && is2xx(res)) pending.delete(req.params.id);
    },
  },
  {
    id: 'held-world-list-cursor-off-by-one', areas: ['model', 'worlds'], expected: ['WORLD-4'],
    description: 'GET /worlds: the cursor points at the last world of a page, not past it: every following page starts with it again',
    request: (req, ctx) => {
      const c = req.query.get('cursor');
      const L = limitOf(req);
      if (is(req, 'listWorlds') && c && store<Json>(ctx, 'lastOfPage').has(c) && L >= 2 && L <= 100) req.query.set('limit', String(L - 1));
    },
    response: onResult(['listWorlds'], (r, req, ctx) => {
      const last = store<Json>(ctx, 'lastOfPage');
      const c = req.query.get('cursor');
      if (!Array.isArray(r.worlds)) return;
      const prev = c ? last.get(c) : undefined;
      if (prev && limitOf(req) >= 1) r.worlds.unshift(prev);
      if (typeof r.nextCursor === 'string' && r.worlds.length) last.set(r.nextCursor, structuredClone(r.worlds[r.worlds.length - 1]));
    }),
  },
  {
    id: 'held-world-personas-second-added-unlisted', areas: ['model', 'world-parts'], expected: ['PART-1'],
    description: 'GET /worlds/{id}/personas lists only the first persona added with POST /worlds/{id}/personas: later additions are missing (GET of each still works)',
    response: responses(
      (res, req, ctx) => {
        const r = resultOf(res);
        if (!is(req, 'addWorldPersona') || typeof r?.persona?.name !== 'string') return;
        const added = store<string[]>(ctx, 'added');
        added.set(req.params.id, [...(added.get(req.params.id) ?? []), r.persona.name]);
      },
      onResult(['listWorldPersonas'], (r, req, ctx) => {
        const later = (store<string[]>(ctx, 'added').get(req.params.id) ?? []).slice(1);
        if (Array.isArray(r.personas)) r.personas = r.personas.filter((p: Json) => !later.includes(p?.name));
      }),
    ),
  },
  {
    id: 'held-second-persona-config-dropped', areas: ['model', 'worlds'], expected: ['WORLD-10'],
    description: 'GET /worlds/{id} answers personaConfigs with only the first configuration given at creation',
    response: onResult(['getWorld'], (r) => {
      if (!isObject(r.personaConfigs)) return;
      const [first] = Object.keys(r.personaConfigs);
      for (const k of Object.keys(r.personaConfigs)) if (k !== first) delete r.personaConfigs[k];
    }),
  },

  // ==== 3. Boundaries and lenient parsers ====
  {
    id: 'held-limit-101-answers-101', areas: ['model', 'worlds'], expected: ['WORLD-3'],
    description: 'GET /worlds?limit=101 answers 101 worlds when the tenant has them (the cap is checked as "more than 101")',
    response: async (res, req, ctx) => {
      const r = is(req, 'listWorlds') && req.query.get('limit') === '101' ? resultOf(res) : undefined;
      if (!r || !Array.isArray(r.worlds) || typeof r.nextCursor !== 'string') return;
      const q = new URLSearchParams({ limit: '1', cursor: r.nextCursor });
      const more = resultOf(await ctx.forward({ ...req, query: q, body: undefined, rawBody: '' }));
      if (Array.isArray(more?.worlds) && more.worlds.length) {
        r.worlds.push(more.worlds[0]);
        if (typeof more.nextCursor === 'string') r.nextCursor = more.nextCursor; else delete r.nextCursor;
      }
    },
  },
  {
    id: 'held-limit-zero-unbounded', areas: ['model', 'worlds'], expected: ['WORLD-2'],
    description: 'GET /worlds?limit=0 is read as "no limit": every world of the tenant in one page',
    answer: async (req, ctx) => {
      if (!is(req, 'listWorlds') || req.query.get('limit') !== '0') return undefined;
      const worlds: Json[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 1_000; i++) {
        const q = new URLSearchParams({ limit: '100', ...(cursor ? { cursor } : {}) });
        const res = await ctx.forward({ ...req, query: q, body: undefined, rawBody: '' });
        const r = resultOf(res);
        if (!r) return res;
        worlds.push(...(Array.isArray(r.worlds) ? r.worlds : []));
        cursor = typeof r.nextCursor === 'string' ? r.nextCursor : undefined;
        if (!cursor) break;
      }
      return okResult({ worlds });
    },
  },
  {
    id: 'held-limit-not-a-number-500', areas: ['model', 'generated', 'worlds'], expected: ['ENV-4'],
    description: 'GET /worlds?limit=abc (not a number) is answered 500 (the parser throws)',
    answer: (req) => (is(req, 'listWorlds') && req.query.has('limit') && !/^-?\d+(\.\d+)?$/.test(req.query.get('limit') ?? '')
      ? errorAnswer(500, 'INTERNAL_ERROR', 'limit: NaN') : undefined),
  },
  {
    id: 'held-tick-under-a-second-ignored', areas: ['model', 'simulation'], expected: ['MODEL-2'],
    description: 'POST /worlds/{id}/tick with seconds under 1 (0.5, 0.25) answers as a tick and advances nothing (an integer clock); 1.5 still advances 1.5',
    answer: async (req, ctx) => {
      const s = (req.body as Json)?.seconds;
      if (!is(req, 'tickWorld') || typeof s !== 'number' || !(s > 0 && s < 1)) return undefined;
      const q = await forwardTo(ctx, req, 'POST', `/worlds/${encodeURIComponent(req.params.id)}/query`, {});
      const r = resultOf(q);
      if (!r) return q;
      return okResult({ affected: [], events: [], elapsedTime: r.progression?.elapsedTime ?? 0 });
    },
  },
  {
    id: 'held-physics-false-dropped', areas: ['model', 'worlds'], expected: ['WORLD-6'],
    description: 'POST /worlds drops the rules.physics members that are false (only the true ones are kept)',
    request: onBody(['createWorld'], (b) => {
      const physics = b.definition?.rules?.physics;
      if (isObject(physics)) for (const [k, v] of Object.entries(physics)) if (v === false) delete physics[k];
    }),
  },
  {
    id: 'held-patch-physics-false-as-true', areas: ['model', 'worlds'], expected: ['WORLD-11'],
    description: 'PATCH /worlds/{id} takes a rules.physics member set to false as true',
    request: onBody(['updateWorld'], (b) => {
      const physics = b.definition?.rules?.physics;
      if (isObject(physics)) for (const [k, v] of Object.entries(physics)) if (v === false) physics[k] = true;
    }),
  },
  {
    id: 'held-emotion-vad-null-accepted', areas: ['model', 'personas', 'errors'], expected: ['ERR-3'],
    description: 'POST /personas/{id}/emotion takes vad: null (not an object) as the empty override and answers ok',
    request: onBody(['overrideEmotion'], (b) => { if (b.vad === null) b.vad = {}; }),
  },
  {
    id: 'held-event-object-as-one-element-array', areas: ['model', 'simulation', 'errors'], expected: ['ERR-3'],
    description: 'POST /worlds/{id}/events takes payload, appraisal or stimulus given as a one-element array of an object as that object',
    request: onBody(['dispatchEvent'], (b) => {
      for (const m of ['payload', 'appraisal', 'stimulus']) if (Array.isArray(b[m]) && b[m].length === 1 && isObject(b[m][0])) b[m] = b[m][0];
    }),
  },

  // ==== 4. Values changed across states and views ====
  {
    id: 'held-restore-createdAt-restamped', areas: ['model', 'states'], expected: ['STATE-5'],
    description: 'a restored world reports createdAt as the time of its restore (GET, the list, the snapshot)',
    response: responses(
      (res, req, ctx) => { if (is(req, 'restoreWorld') && is2xx(res)) store<number>(ctx, 'restoredAt').set(req.params.id, Date.now()); },
      eachWorldRecord((w, _req, ctx) => {
        const at = typeof w.id === 'string' ? store<number>(ctx, 'restoredAt').get(w.id) : undefined;
        if (at !== undefined && typeof w.createdAt === 'number') w.createdAt = at;
      }),
    ),
  },
  {
    id: 'held-restore-physics-reset', areas: ['model', 'states'], expected: ['STATE-5'],
    description: 'restoring a world resets its definition.rules.physics to {} (the restore writes a default)',
    response: async (res, req, ctx) => {
      if (!is(req, 'restoreWorld') || !is2xx(res)) return;
      // A map<string,boolean> takes no null in a merge: the reset is written as an import of the world's own snapshot.
      const path = `/worlds/${encodeURIComponent(req.params.id)}`;
      const snap = resultOf(await forwardTo(ctx, req, 'GET', `${path}/snapshot`));
      const physics = snap?.definition?.rules?.physics;
      if (!snap || !isObject(physics) || !Object.keys(physics).length) return;
      snap.definition.rules.physics = {};
      await forwardTo(ctx, req, 'PUT', `${path}/snapshot`, { snapshot: snap });
      const w = resultOf(await forwardTo(ctx, req, 'GET', path))?.world;
      const r = resultOf(res);
      if (r && w) r.world = w;
    },
  },
  {
    id: 'held-restore-event-counts-reset', areas: ['model', 'states', 'progression'], expected: ['PROG-1'],
    description: 'a restored world counts events from its restore on: eventCounts (query and snapshot) forgets those dispatched before the delete',
    response: responses(
      async (res, req, ctx) => {
        if (!is(req, 'restoreWorld') || !is2xx(res)) return;
        const r = resultOf(await forwardTo(ctx, req, 'POST', `/worlds/${encodeURIComponent(req.params.id)}/query`, {}));
        if (isObject(r?.progression?.eventCounts)) store<Json>(ctx, 'countsAtRestore').set(req.params.id, r.progression.eventCounts);
      },
      eachProgression(['queryWorld', 'getWorldSnapshot'], (p, req, ctx) => {
        const before = store<Json>(ctx, 'countsAtRestore').get(req.params.id);
        if (!before || !isObject(p.eventCounts)) return;
        for (const [k, n] of Object.entries(before)) {
          const left = (p.eventCounts[k] ?? 0) - (n as number);
          if (left > 0) p.eventCounts[k] = left; else delete p.eventCounts[k];
        }
      }),
    ),
  },
  {
    // What an import does with the createdAt it carries is not shown: a SHOULD (an export imported
    // unchanged leaves every view as it was), not MODEL-1's MUST (written expecting MODEL-1 at first).
    id: 'held-import-createdAt-restamped', areas: ['model', 'simulation'], expected: ['SIM-10', 'MODEL-3'], expectedLabel: 'SIM-10 or MODEL-3 (SHOULDs)',
    description: 'after PUT /worlds/{id}/snapshot of its own export, the world reports createdAt as the time of the import (GET, the list, the snapshot)',
    response: responses(
      (res, req, ctx) => {
        const snap = (req.body as Json)?.snapshot;
        if (is(req, 'putWorldSnapshot') && is2xx(res) && isObject(snap)) store<number>(ctx, 'importedAt').set(req.params.id, Date.now());
      },
      eachWorldRecord((w, _req, ctx) => {
        const at = typeof w.id === 'string' ? store<number>(ctx, 'importedAt').get(w.id) : undefined;
        if (at !== undefined && typeof w.createdAt === 'number') w.createdAt = at;
      }),
    ),
  },
  {
    id: 'held-list-createdAt-in-seconds', areas: ['model', 'worlds'], expected: ['MODEL-1'],
    description: 'GET /worlds lists createdAt in seconds while GET /worlds/{id} and POST /worlds give milliseconds',
    response: onResult(['listWorlds'], (r) => {
      for (const w of Array.isArray(r.worlds) ? r.worlds : []) if (typeof w?.createdAt === 'number') w.createdAt = Math.floor(w.createdAt / 1000);
    }),
  },
  {
    id: 'held-snapshot-phase-stale', areas: ['model', 'progression'], expected: ['PROG-2'],
    description: "the world snapshot's progression.currentPhase stays the definition's initialPhase whatever triggers fired (query moves)",
    response: onResult(['getWorldSnapshot'], (r) => {
      const p = progressionOf(r);
      const initial = r.definition?.progression?.initialPhase;
      if (p && typeof initial === 'string' && typeof p.currentPhase === 'string') p.currentPhase = initial;
    }),
  },
  {
    id: 'held-snapshot-elapsed-in-ms', areas: ['model', 'simulation'], expected: ['MODEL-2'],
    description: "the world snapshot's progression.elapsedTime is in milliseconds (×1000) while query's is in seconds",
    response: eachProgression(['getWorldSnapshot'], (p) => { if (typeof p.elapsedTime === 'number') p.elapsedTime *= 1000; }),
  },
  {
    id: 'held-import-event-counts-dropped', areas: ['model', 'simulation'], expected: ['SIM-10'],
    description: 'PUT /worlds/{id}/snapshot imports the progression without its eventCounts (reset to {}): the next export differs',
    request: onBody(['putWorldSnapshot'], (b) => { if (isObject(b.snapshot?.progression) && isObject(b.snapshot.progression.eventCounts)) b.snapshot.progression.eventCounts = {}; }),
  },
];
