// Faults the model area (scenarios/model.test.ts) is proven with: one per sentence of SPEC.md the model
// covers, written after the model and none of them a probe's target, each a bug one step from what the
// other areas check (docs/finding-power.md, "The model of SPEC"). A control changes nothing.
import type { Fault } from '../faults.ts';
import type { FaultContext, FaultRequest } from '../proxy.ts';
import { is, isObject, keyOf, onResult, resultOf, responses, type Json } from '../hooks.ts';

/** The ids of the worlds (or personas) the deployment made, as the proxy saw them answered. */
const made = (ctx: FaultContext, kind: 'worlds' | 'personas'): Set<string> => {
  if (!ctx.state.has(kind)) ctx.state.set(kind, new Set<string>());
  return ctx.state.get(kind) as Set<string>;
};
const remember: Fault['response'] = (res, req, ctx) => {
  const r = resultOf(res);
  if (is(req, 'createWorld') && typeof r?.worldId === 'string') made(ctx, 'worlds').add(r.worldId);
  if (is(req, 'createPersona') && typeof r?.personaId === 'string') made(ctx, 'personas').add(r.personaId);
};
/** Sends the request on to the id `to` instead of the one it names. */
const retarget = (req: FaultRequest, to: string) => {
  req.path = req.path.replace(/^(\/(?:worlds|personas)\/)[^/]+/, `$1${encodeURIComponent(to)}`);
  req.params.id = to;
};
const eachProgression = (r: Json, change: (p: Json) => void) => { if (isObject(r.progression)) change(r.progression); };

export const MODEL_FAULTS: Fault[] = [
  {
    id: 'model-list-odd-limit-plus-one', areas: ['model'], expected: ['WORLD-2'],
    description: 'GET /worlds with an odd limit below 100 (1, 3, …) answers one world more than the limit',
    request: (req) => {
      const limit = Number(req.query.get('limit'));
      if (is(req, 'listWorlds') && Number.isInteger(limit) && limit % 2 === 1 && limit < 100) req.query.set('limit', String(limit + 1));
    },
  },
  {
    id: 'model-tick-rounds-seconds', areas: ['model'], expected: ['MODEL-2'],
    description: 'a world tick rounds its seconds to the nearest whole second (1.5 s advances 2 s)',
    request: (req) => {
      const b = req.body as Json;
      if (is(req, 'tickWorld') && isObject(b) && typeof b.seconds === 'number' && !Number.isInteger(b.seconds)) b.seconds = Math.max(1, Math.round(b.seconds));
    },
  },
  {
    id: 'model-event-type-trimmed', areas: ['model'], expected: ['PROG-1', 'PROG-2'],
    description: 'a dispatched event type is trimmed of spaces before it is counted ("cf-Thunder " counts as "cf-Thunder")',
    request: (req) => {
      const b = req.body as Json;
      if (is(req, 'dispatchEvent') && isObject(b) && typeof b.type === 'string' && b.type.trim() !== '') b.type = b.type.trim();
    },
  },
  {
    id: 'model-phase-history-first-firing-only', areas: ['model'], expected: ['PROG-3'],
    description: 'progression.phaseHistory (query and snapshot) keeps only the first entry with a triggerId: later firings are not recorded there',
    response: onResult(['queryWorld', 'getWorldSnapshot'], (r) => eachProgression(r, (p) => {
      if (!Array.isArray(p.phaseHistory)) return;
      const first = p.phaseHistory.findIndex((h: Json) => typeof h?.triggerId === 'string');
      if (first >= 0) p.phaseHistory = p.phaseHistory.filter((h: Json, i: number) => i <= first || typeof h?.triggerId !== 'string');
    })),
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
  {
    id: 'model-import-drops-last-space', areas: ['model'], expected: ['MODEL-3', 'SIM-10'],
    description: 'PUT /worlds/{id}/snapshot drops the last space of the snapshot when it holds more than one',
    request: (req) => {
      const spaces = (req.body as Json)?.snapshot?.spaces;
      if (is(req, 'putWorldSnapshot') && Array.isArray(spaces) && spaces.length > 1) spaces.pop();
    },
  },
  {
    id: 'model-import-resets-trust', areas: ['model'], expected: ['MODEL-3'],
    description: "PUT /worlds/{id}/snapshot imports each entity's relationships with trust reset to 0.5",
    request: (req) => {
      const entities = (req.body as Json)?.snapshot?.entities;
      if (!is(req, 'putWorldSnapshot') || !Array.isArray(entities)) return;
      for (const e of entities) for (const r of Array.isArray(e?.relationships) ? e.relationships : []) if (isObject(r?.relationship)) r.relationship.trust = 0.5;
    },
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
    id: 'model-key-without-first-char', areas: ['model'], expected: ['AUTH-2'],
    description: 'a key without its first character is accepted as the key (compared from the end)',
    request: (req, ctx) => {
      const sent = keyOf(req);
      const known = [ctx.keys.mainKey, ctx.keys.secondKey].find((k) => k && sent && k.length === sent.length + 1 && k.endsWith(sent));
      if (known) req.headers['x-api-key'] = known;
    },
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
    id: 'model-list-restamps-patched', areas: ['model'], expected: ['MODEL-1'],
    description: 'GET /worlds shows a world changed by PATCH with the createdAt of its change (its updatedAt, a millisecond later than created); GET /worlds/{id} and the snapshot keep the first',
    response: responses(
      (res, req, ctx) => {
        if (is(req, 'updateWorld') && resultOf(res) && req.params.id) made(ctx, 'worlds').add(`patched:${req.params.id}`);
      },
      onResult(['listWorlds'], (r, _req, ctx) => {
        for (const w of Array.isArray(r.worlds) ? r.worlds : []) {
          if (typeof w?.createdAt === 'number' && made(ctx, 'worlds').has(`patched:${w.id}`)) w.createdAt += 1;
        }
      }),
    ),
  },
  {
    id: 'model-control-pass-through', areas: ['model'], expected: [],
    description: 'control: the model area through a proxy that remembers ids and changes nothing (must pass)',
    response: remember,
  },
];
