// Standalone personas: records (create, list, get, update, soft-delete, restore) and runtime.
import type { StoredDoc } from '../../store/index.ts';
import * as engine from '../../engine/world/index.ts';
import { fail } from '../../engine/world/fail.ts';
import { psyche } from '../../engine/psyche/index.ts';
import { changePersona, insertWithinQuota, loadPersona, newId, readPersona, roomForOrFail, type Handler } from '../context.ts';
import { decodeCursor, page, pageLimit } from '../paging.ts';

export function personaView(doc: StoredDoc<Readonly<engine.PersonaDoc>>) {
  return { id: doc.id, tenantId: doc.tenantId, config: doc.body.config, engineVersion: doc.body.engineVersion, createdAt: doc.createdAt };
}

export const personaHandlers: Record<string, Handler> = {
  createPersona(ctx, { tenantId, body }) {
    const id = newId('per');
    const now = ctx.now();
    roomForOrFail(ctx, tenantId, 'persona');
    const doc = insertWithinQuota(ctx, tenantId, 'persona', id, now, engine.newPersona(body.config, id, now));
    return { personaId: doc.id, createdAt: doc.createdAt };
  },
  listPersonas(ctx, { tenantId, query }) {
    const { items, more } = ctx.store.list<engine.PersonaDoc>('persona', tenantId, { afterSeq: decodeCursor(query.cursor), limit: pageLimit(query.limit) });
    const { items: personas, nextCursor } = page(items, more, personaView);
    return { personas, ...(nextCursor ? { nextCursor } : {}) };
  },
  getPersona: (ctx, { tenantId, params }) => ({ persona: personaView(readPersona(ctx, tenantId, params.id)) }),
  updatePersona: (ctx, { tenantId, params, body }) => changePersona(ctx, tenantId, params.id, (p) => {
    engine.updatePersonaConfig(p, body.config);
    return { ok: true };
  }),
  deletePersona(ctx, { tenantId, params }) {
    if (!ctx.store.softDelete('persona', tenantId, params.id, ctx.now())) throw fail('PERSONA_NOT_FOUND', `persona '${params.id}' does not exist`);
    return { ok: true };
  },
  restorePersona(ctx, { tenantId, params }) {
    const doc = ctx.store.get('persona', tenantId, params.id, { includeDeleted: true });
    if (!doc) throw fail('PERSONA_NOT_FOUND', `persona '${params.id}' does not exist`);
    if (doc.deletedAt === null) throw fail('NOT_DELETED', `persona '${params.id}' is not deleted`);
    roomForOrFail(ctx, tenantId, 'persona');
    ctx.store.restore('persona', tenantId, params.id, ctx.now());
    return { persona: personaView(loadPersona(ctx, tenantId, params.id)) };
  },
  perceive: (ctx, { tenantId, params, body }) => changePersona(ctx, tenantId, params.id, (p) => engine.perceive(p, body)),
  tickPersona: (ctx, { tenantId, params, body }) => changePersona(ctx, tenantId, params.id, (p) => engine.tickPersona(p, body.seconds)),
  overrideEmotion: (ctx, { tenantId, params, body }) => changePersona(ctx, tenantId, params.id, (p) => {
    engine.overrideEmotion(p, body.vad);
    return { ok: true };
  }),
  annotate: (ctx, { tenantId, params, body }) => changePersona(ctx, tenantId, params.id, (p) => {
    engine.annotate(p, body.text);
    return { ok: true };
  }),
  forceNextResponse: (ctx, { tenantId, params, body }) => changePersona(ctx, tenantId, params.id, (p) => {
    engine.forceNextResponse(p, body.text);
    return { ok: true };
  }),
  getPersonaState: (ctx, { tenantId, params }) => psyche.view(readPersona(ctx, tenantId, params.id).body.runtime.snapshot),
  promptContext: (ctx, { tenantId, params }) => ({ prompt: engine.promptContext(readPersona(ctx, tenantId, params.id).body) }),
  getPersonaSnapshot: (ctx, { tenantId, params }) => engine.exportPersona(readPersona(ctx, tenantId, params.id).body),
  putPersonaSnapshot: (ctx, { tenantId, params, body }) => changePersona(ctx, tenantId, params.id, (p) => {
    engine.importPersona(p, params.id, body.snapshot);
    return { ok: true };
  }),
};
