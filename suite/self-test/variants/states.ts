// Legal variants of soft-delete and restore: a soft-deleted record answered 410, restore answering {ok: true}.
import type { Variant } from '../variants.ts';
import { type FaultContext, type FaultHooks, type FaultRequest, applied, codeOf, errorAnswer, errorResponse, is, is2xx, keyOf, memory, onDocument, onResult, operationsIn, responses, successSchemas } from './helpers.ts';

const tenantOf = (req: FaultRequest, ctx: FaultContext) => (keyOf(req) === ctx.keys.secondKey ? 'second' : 'main');
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

export const VARIANTS: Variant[] = [
  {
    id: 'soft-deleted-410', areas: ['states', 'model'], allowedWarnings: [],
    description: "a soft-deleted world or persona is answered 410 GONE (to its tenant) until restored, instead of 404",
    gap: 'States, notes: "what a soft-deleted record returns on read is not shown."',
    ...goneHooks(),
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
];
