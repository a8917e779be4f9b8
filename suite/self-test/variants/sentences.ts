// Legal variants for the sentences of SPEC.md that issue 46 gave checks of their own: a restore of a
// live record, and a phase change reported by the next tick rather than by the event that fired it.
import { applied, codeOf, errorAnswer, is, is2xx, isObject, onDocument, onResult, operationIn, responses, resultOf, type Json } from '../hooks.ts';
import { json, type FaultContext, type FaultHooks, type FaultRequest } from '../proxy.ts';
import type { Variant } from '../variants.ts';

/** Another request to the deployment, with the key of the one being handled. */
const alsoAsk = (ctx: FaultContext, req: FaultRequest, method: string, path: string) =>
  ctx.forward({ ...req, method, path, query: new URLSearchParams(), body: undefined, rawBody: '', params: {}, operationId: undefined, headers: { ...req.headers, 'content-type': '' } });

/**
 * POST /worlds/{id}/restore and /personas/{id}/restore of a record that is not deleted answer as a
 * restore does (the record), instead of the reference's 409 NOT_DELETED: restore is idempotent.
 * Shared with the fault that pairs it with a delete doing nothing (faults/states.ts).
 */
export function idempotentRestore(): FaultHooks {
  return {
    async answer(req, ctx) {
      if (!is(req, 'restoreWorld', 'restorePersona')) return undefined;
      const res = await ctx.forward(req);
      if (res.status !== 409 || codeOf(res) !== 'NOT_DELETED') return res;
      const world = is(req, 'restoreWorld');
      const read = resultOf(await alsoAsk(ctx, req, 'GET', world ? `/worlds/${encodeURIComponent(req.params.id)}` : `/personas/${encodeURIComponent(req.params.id)}`));
      if (!read) return res;
      applied(ctx);
      return json(200, { result: world ? { world: read.world } : { persona: read.persona } });
    },
  };
}

/**
 * A trigger that fires when an event is dispatched is reported by the next tick's result (its
 * phaseChanged), not by the event's own result.
 */
function phaseChangedAtNextTick(): FaultHooks {
  const pending = (ctx: FaultContext) => {
    if (!ctx.state.has('pending-phase')) ctx.state.set('pending-phase', new Map<string, string>());
    return ctx.state.get('pending-phase') as Map<string, string>;
  };
  return {
    response(res, req, ctx) {
      const r = is2xx(res) ? resultOf(res) : undefined;
      const id = req.params.id;
      if (!r || !id) return;
      if (is(req, 'dispatchEvent', 'chat') && typeof r.phaseChanged === 'string') { pending(ctx).set(id, r.phaseChanged); delete r.phaseChanged; applied(ctx); }
      if (is(req, 'tickWorld') && pending(ctx).has(id)) { if (typeof r.phaseChanged !== 'string') (r as Json).phaseChanged = pending(ctx).get(id); pending(ctx).delete(id); }
    },
  };
}

/** The JSON request schema of an operation in a document, to change in place. */
const requestSchemaIn = (doc: Json, operationId: string): Json | undefined => operationIn(doc, operationId)?.requestBody?.content?.['application/json'];

/** The longest persona tick this variant takes, in seconds. */
const TICK_CAP_S = 3_600;

export const VARIANTS: Variant[] = [
  {
    id: 'restore-live-idempotent', areas: ['states'], allowedWarnings: [],
    description: 'a restore of a world or persona that is not deleted answers the record (2xx), instead of 409 NOT_DELETED',
    gap: 'States and transitions: restore moves "world soft-deleted" to active; what a restore of an active record answers is not shown.',
    quietWhy: 'no check restores a record that is not deleted (what that answers is not shown); the variant stands beside fault world-delete-noop-restore-idempotent, which the delete check must catch without relying on a refused restore',
    ...idempotentRestore(),
  },
  {
    id: 'persona-tick-capped', areas: ['personas'], allowedWarnings: [],
    description: `POST /personas/{id}/tick refuses seconds above ${TICK_CAP_S} with 400 VALIDATION_ERROR (its document says maximum ${TICK_CAP_S})`,
    gap: 'Limits: "Request size limits, range of `seconds` … not shown."',
    quietWhy: 'no check of the personas area sends a persona tick longer than an hour unless a mood shows no change in ten ticks of a minute',
    answer: (req, ctx) => {
      if (!is(req, 'tickPersona') || !(typeof (req.body as Json | undefined)?.seconds === 'number' && (req.body as Json).seconds > TICK_CAP_S)) return undefined;
      applied(ctx);
      return errorAnswer(400, 'VALIDATION_ERROR', `seconds: at most ${TICK_CAP_S}`);
    },
    response: responses(onDocument((doc) => {
      const schema = operationIn(doc, 'tickPersona')?.requestBody?.content?.['application/json']?.schema;
      if (schema?.properties?.seconds) schema.properties.seconds.maximum = TICK_CAP_S;
    })),
  },
  {
    id: 'persona-patch-is-the-config', areas: ['personas'], allowedWarnings: [],
    description: 'PATCH /personas/{id} takes the configuration itself as its body (a merge patch of it: {identity: {…}}), not {config: …}',
    gap: 'Endpoints: PATCH /personas/{id} "body: object (empty object is a valid sample)"; its members are not shown.',
    request: (req, ctx) => {
      if (!is(req, 'updatePersona') || !isObject(req.body)) return;
      req.body = { config: req.body };
      applied(ctx);
    },
    response: onDocument((doc) => {
      const content = requestSchemaIn(doc, 'updatePersona');
      if (content?.schema?.properties?.config) { content.schema = content.schema.properties.config; content.example = content.example?.config ?? {}; }
    }),
  },
  {
    id: 'persona-list-without-config', areas: ['personas'], allowedWarnings: [],
    description: 'GET /personas lists each persona as {id, tenantId, engineVersion, createdAt}: its configuration only through GET /personas/{id}',
    gap: 'Endpoints: GET /personas "list of personas"; what a listed persona holds is not shown.',
    response: responses(
      onResult(['listPersonas'], (r, _req, ctx) => {
        for (const p of Array.isArray(r.personas) ? r.personas : []) if (isObject(p) && 'config' in p) { delete p.config; applied(ctx); }
      }),
      onDocument((doc) => {
        const list = operationIn(doc, 'listPersonas')?.responses?.['200']?.content?.['application/json']?.schema?.properties?.result?.properties?.personas;
        const persona = doc.components?.schemas?.Persona;
        if (!isObject(list) || !isObject(persona)) return;
        const listed = structuredClone(persona);
        delete listed.properties?.config;
        if (Array.isArray(listed.required)) listed.required = listed.required.filter((m: string) => m !== 'config');
        list.items = listed;
      }),
    ),
  },
  {
    id: 'phase-changed-at-next-tick', areas: ['progression'], allowedWarnings: [],
    description: 'a trigger fired by a dispatched event is reported in phaseChanged of the next tick result, not of the event result',
    gap: 'States and transitions: "the tick result reports `phaseChanged`"; whether a trigger fires at the event or at the tick is not shown.',
    ...phaseChangedAtNextTick(),
  },
];

