// Legal variants of worlds and creations: creations answered 200, definitions returned as given (no defaults).
import type { Variant } from '../variants.ts';
import { type FaultContext, type FaultHooks, type Json, applied, is, isObject, memory, onDocument, onResult, operationsIn, responses, resultOf } from './helpers.ts';

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
    id: 'definition-as-given', areas: ['worlds', 'states', 'simulation', 'model'], allowedWarnings: [],
    description: 'GET /worlds/{id} (and lists, PATCH and restore results, snapshots) return the definition as given: no defaults filled in',
    gap: 'Resources: WorldDefinition lists its members; which are always returned is not shown ("Which body fields are required or optional … not shown").',
    ...asGivenHooks(),
  },
];
