// Faults the model's world parts (model/world-parts.ts: personas of a world, actions, relationships,
// the time jump, the batch mutation) are proven with: one per sentence those commands predict from,
// written after them, each a bug one step from a correct handler. Names and ids are remembered from
// what the proxy sees: the entities a world was made with or given since, the actions it made.
import type { Fault } from '../faults.ts';
import { json, type FaultContext, type FaultRequest } from '../proxy.ts';
import { is, isObject, onResult, resultOf, responses, type Json } from '../hooks.ts';

/** A map kept in the proxy's memory under `name`. */
const memory = <V>(ctx: FaultContext, name: string): Map<string, V> => {
  if (!ctx.state.has(name)) ctx.state.set(name, new Map<string, V>());
  return ctx.state.get(name) as Map<string, V>;
};
/** The entity names of each world, as made and given since (POST /worlds entities, POST personas, add_entity). */
const names = (ctx: FaultContext, worldId: string): Set<string> => {
  const all = memory<Set<string>>(ctx, 'names');
  if (!all.has(worldId)) all.set(worldId, new Set());
  return all.get(worldId)!;
};
const body = (req: FaultRequest) => (isObject(req.body) ? (req.body as Json) : {});
/** The names of the entities created with each world (the first ones), and every name given since. */
const rememberNames: Fault['response'] = (res, req, ctx) => {
  const r = resultOf(res);
  if (!r) return;
  const b = body(req);
  if (is(req, 'createWorld') && typeof r.worldId === 'string') {
    const first = (Array.isArray(b.entities) ? b.entities : []).map((e: Json) => e?.name).filter((n: unknown): n is string => typeof n === 'string');
    memory<string[]>(ctx, 'first').set(r.worldId, first);
    for (const n of first) names(ctx, r.worldId).add(n);
  }
  const id = req.params.id;
  if (!id) return;
  if (is(req, 'addWorldPersona') && typeof b.name === 'string') names(ctx, id).add(b.name);
  if (is(req, 'mutateWorld') && Array.isArray(b.operations)) for (const o of b.operations) if (o?.op === 'add_entity' && typeof o.name === 'string') names(ctx, id).add(o.name);
};
const worldMade = (ctx: FaultContext, id: string) => memory<string[]>(ctx, 'first').has(id);
/** Sends the request on to the path parameter `pid` or `aid` = `to`. */
const retargetLast = (req: FaultRequest, param: 'pid' | 'aid', to: string) => {
  req.path = req.path.replace(/[^/]+$/, encodeURIComponent(to));
  req.params[param] = to;
};

export const FAULTS: Fault[] = [
  {
    id: 'parts-persona-list-only-first', areas: ['model'], expected: ['PART-1'],
    description: 'GET /worlds/{id}/personas lists only the entities the world was created with: a persona added later is missing from the list (GET by name, query and context have it)',
    response: responses(rememberNames, onResult(['listWorldPersonas'], (r, req, ctx) => {
      const first = memory<string[]>(ctx, 'first').get(req.params.id);
      if (!first || !Array.isArray(r.personas)) return;
      r.personas = r.personas.filter((p: Json) => first.includes(p?.name));
    })),
  },
  {
    id: 'parts-persona-config-named-by-key', areas: ['model'], expected: ['PART-1'],
    description: "POST /worlds/{id}/personas stores the config with identity.name overwritten by the persona's key (the entity name), not the name the config gave",
    request: (req) => {
      const b = body(req);
      if (is(req, 'addWorldPersona') && typeof b.name === 'string' && isObject(b.config) && isObject(b.config.identity)) b.config.identity.name = b.name;
    },
  },
  {
    id: 'parts-query-keeps-removed-persona', areas: ['model'], expected: ['PART-1'],
    description: 'POST /worlds/{id}/query still lists a persona removed with DELETE /worlds/{id}/personas/{pid} (a stale entity index); the persona list and GET no longer have it',
    response: responses(
      (res, req, ctx) => {
        if (is(req, 'queryWorld') && Array.isArray(resultOf(res)?.entities)) for (const e of resultOf(res)!.entities) if (typeof e?.name === 'string') memory<Json>(ctx, 'entities').set(`${req.params.id}|${e.name}`, e);
        if (is(req, 'removeWorldPersona') && resultOf(res)) memory<boolean>(ctx, 'removed').set(`${req.params.id}|${req.params.pid}`, true);
      },
      onResult(['queryWorld'], (r, req, ctx) => {
        if (!Array.isArray(r.entities)) return;
        for (const key of memory<boolean>(ctx, 'removed').keys()) {
          const [world, name] = key.split('|');
          const stale = memory<Json>(ctx, 'entities').get(key);
          if (world === req.params.id && stale && !r.entities.some((e: Json) => e?.name === name)) r.entities.push(stale);
        }
      }),
    ),
  },
  {
    id: 'parts-world-persona-prefix', areas: ['model'], expected: ['ERR-4'],
    description: 'GET /worlds/{id}/personas/{pid} takes a pid that begins a known entity name ("car" for "cara") as that persona',
    request: (req, ctx) => {
      const pid = req.params.pid;
      if (!is(req, 'getWorldPersona') || !pid || !req.params.id) return;
      const known = [...names(ctx, req.params.id)];
      const match = known.find((n) => n !== pid && n.startsWith(pid));
      if (match && !known.includes(pid)) retargetLast(req, 'pid', match);
    },
    response: rememberNames,
  },
  {
    id: 'parts-action-delete-unknown-takes-newest', areas: ['model'], expected: ['PART-2'],
    description: 'DELETE /worlds/{id}/actions/{aid} with an aid no action has deletes the newest custom action of the world instead of answering not found',
    request: (req, ctx) => {
      const aid = req.params.aid;
      if (!is(req, 'deleteAction') || !aid) return;
      const made = memory<string[]>(ctx, 'actions').get(req.params.id) ?? [];
      if (made.length && !made.includes(aid)) retargetLast(req, 'aid', made[made.length - 1]);
    },
    response: (res, req, ctx) => {
      const id = resultOf(res)?.action?.id;
      if (!is(req, 'createAction') || typeof id !== 'string') return;
      const all = memory<string[]>(ctx, 'actions');
      all.set(req.params.id, [...(all.get(req.params.id) ?? []), id]);
    },
  },
  {
    id: 'parts-relationship-stored-sorted', areas: ['model'], expected: ['PART-3'],
    description: 'PUT /worlds/{id}/relationships stores each pair with its ends in alphabetical order (ben → ana is kept as ana → ben): the direction is lost',
    request: (req) => {
      const b = body(req);
      if (is(req, 'upsertRelationship') && typeof b.source === 'string' && typeof b.target === 'string' && b.source > b.target) [b.source, b.target] = [b.target, b.source];
    },
  },
  {
    id: 'parts-time-jump-capped', areas: ['model'], expected: ['MODEL-2'],
    description: 'POST /worlds/{id}/time-jump caps a jump at 1000 seconds (a step guard): a jump of 1200 s advances 1000',
    request: (req) => {
      const b = body(req);
      if (is(req, 'timeJump') && typeof b.seconds === 'number' && b.seconds > 1000) b.seconds = 1000;
    },
  },
  {
    id: 'parts-mutate-stops-at-failure', areas: ['model'], expected: ['SIM-6'],
    description: 'POST /worlds/{id}/mutate answers the results up to the failed operation and leaves the operations after it out (neither applied nor reported)',
    request: (req) => {
      const b = body(req);
      if (!is(req, 'mutateWorld') || !Array.isArray(b.operations)) return;
      const i = b.operations.findIndex((o: Json) => typeof o?.op === 'string' && !/^(add_entity|remove_entity|move_entity|add_space|set_environment|add_fact|set_relationship)$/.test(o.op));
      if (i >= 0) b.operations = b.operations.slice(0, i + 1);
    },
  },
  {
    id: 'parts-mutate-failed-ok-null', areas: ['model'], expected: ['SIM-7'],
    description: 'POST /worlds/{id}/mutate reports a failed operation with ok null (not false), its error string kept',
    response: onResult(['mutateWorld'], (r) => {
      for (const e of Array.isArray(r.results) ? r.results : []) if (e?.ok === false) e.ok = null;
    }),
  },
  {
    id: 'parts-mutate-after-failure-unapplied', areas: ['model'], expected: ['SIM-4'],
    description: 'POST /worlds/{id}/mutate reports every operation after a failed one ok, but applies none of them (the batch stops at the failure)',
    request: (req, ctx) => {
      const b = body(req);
      if (!is(req, 'mutateWorld') || !Array.isArray(b.operations)) return;
      const i = b.operations.findIndex((o: Json) => o?.op === 'cf_no_such_operation');
      if (i < 0) return;
      ctx.state.set('dropped', b.operations.slice(i + 1));
      b.operations = b.operations.slice(0, i + 1);
    },
    response: onResult(['mutateWorld'], (r, _req, ctx) => {
      const dropped = ctx.state.get('dropped') as Json[] | undefined;
      ctx.state.delete('dropped');
      if (dropped && Array.isArray(r.results)) for (const o of dropped) r.results.push({ op: o.op, ok: true });
    }),
  },
  {
    id: 'parts-mutate-persona-as-user', areas: ['model'], expected: ['SIM-4'],
    description: 'add_entity of a batch mutation stores every entity with type user: a persona added by the batch is a user in query and context',
    request: (req) => {
      const b = body(req);
      if (is(req, 'mutateWorld') && Array.isArray(b.operations)) for (const o of b.operations) if (o?.op === 'add_entity' && o.type === 'persona') o.type = 'user';
    },
  },
  {
    id: 'parts-context-later-entity-as-persona', areas: ['model'], expected: ['SIM-5'],
    description: 'POST /worlds/{id}/context reports whoAmI.type "persona" for every entity added after the world was created (a user added by a batch included)',
    response: responses(rememberNames, onResult(['worldContext'], (r, req, ctx) => {
      const first = memory<string[]>(ctx, 'first').get(req.params.id);
      if (first && isObject(r.whoAmI) && !first.includes(r.whoAmI.name)) r.whoAmI.type = 'persona';
    })),
  },
  {
    id: 'parts-relationship-unknown-entity-ignored', areas: ['model'], expected: ['ERR-2'],
    description: 'PUT /worlds/{id}/relationships naming an entity the world does not have answers 200 {created: false} and does nothing, instead of 404 ENTITY_NOT_FOUND',
    answer: (req, ctx) => {
      const b = body(req);
      if (!is(req, 'upsertRelationship') || !req.params.id || !worldMade(ctx, req.params.id)) return undefined;
      const known = names(ctx, req.params.id);
      const ends = [b.source, b.target].filter((x): x is string => typeof x === 'string');
      if (!ends.length || ends.every((e) => known.has(e))) return undefined;
      return json(200, { result: { relationship: { id: 'rel-none', source: b.source, target: b.target, relationship: b.relationship ?? {} }, created: false } });
    },
    response: rememberNames,
  },
  {
    id: 'parts-mutate-operations-string-parsed', areas: ['model'], expected: ['ERR-3'],
    description: 'POST /worlds/{id}/mutate takes `operations` given as a JSON string (parses it) instead of refusing it 400 VALIDATION_ERROR',
    request: (req) => {
      const b = body(req);
      if (!is(req, 'mutateWorld') || typeof b.operations !== 'string') return;
      try { b.operations = JSON.parse(b.operations); } catch { /* left as sent */ }
    },
  },
  {
    id: 'parts-lists-unknown-world-empty', areas: ['model'], expected: ['ERR-1'],
    description: "GET /worlds/{id}/personas, /actions and /relationships of a world id the tenant does not have answer an empty list (the list is filtered by world id, never looked up)",
    answer: (req, ctx) => {
      if (!is(req, 'listWorldPersonas', 'listActions', 'listRelationships') || !req.params.id) return undefined;
      const mine = memory<string>(ctx, 'owner').get(req.params.id);
      if (mine !== undefined && mine === req.headers['x-api-key']) return undefined;
      const member = is(req, 'listWorldPersonas') ? 'personas' : is(req, 'listActions') ? 'actions' : 'relationships';
      return json(200, { result: { [member]: [] } });
    },
    response: (res, req, ctx) => {
      const id = resultOf(res)?.worldId;
      if (is(req, 'createWorld') && typeof id === 'string') memory<string>(ctx, 'owner').set(id, req.headers['x-api-key']);
    },
  },
];
