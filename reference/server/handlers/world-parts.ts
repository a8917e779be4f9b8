// The parts of a world with their own endpoints: personas, actions (and interact), relationships.
import * as engine from '../../engine/world/index.ts';
import { fail } from '../../engine/world/fail.ts';
import { psyche } from '../../engine/psyche/index.ts';
import { changeWorld, simulateWorld, readWorld, type Handler } from '../context.ts';
import { getOwn } from '../../engine/keyed.ts';

export const worldPartHandlers: Record<string, Handler> = {
  listWorldPersonas: (ctx, { tenantId, params }) => ({ personas: engine.worldPersonas(readWorld(ctx, tenantId, params.id).body) }),
  addWorldPersona: (ctx, { tenantId, params, body }) => changeWorld(ctx, tenantId, params.id, (w) => {
    engine.addEntity(w, params.id, { name: body.name, type: 'persona', spaceId: body.spaceId, config: body.config ?? {} });
    return { persona: engine.worldPersona(w, body.name) };
  }),
  getWorldPersona(ctx, { tenantId, params }) {
    const world = readWorld(ctx, tenantId, params.id).body;
    const persona = engine.worldPersona(world, params.pid);
    return { persona, state: psyche.view(getOwn(world.personas, persona.name)!.snapshot) };
  },
  removeWorldPersona: (ctx, { tenantId, params }) => changeWorld(ctx, tenantId, params.id, (w) => {
    engine.removeEntity(w, engine.worldPersona(w, params.pid).name);
    return { ok: true };
  }),
  createAction: (ctx, { tenantId, params, body }) => changeWorld(ctx, tenantId, params.id, (w) => ({ action: engine.createAction(w, body) })),
  listActions: (ctx, { tenantId, params }) => ({ actions: engine.allActions(readWorld(ctx, tenantId, params.id).body) }),
  deleteAction: (ctx, { tenantId, params }) => changeWorld(ctx, tenantId, params.id, (w) => {
    engine.deleteAction(w, params.aid);
    return { ok: true };
  }),
  interact: (ctx, { tenantId, params, body }) => simulateWorld(ctx, tenantId, params.id,
    (w) => engine.interact(w, engine.actionOrFail(w, body.actionId), body)),
  upsertRelationship: (ctx, { tenantId, params, body }) => changeWorld(ctx, tenantId, params.id, (w) => {
    const { record, created } = engine.upsertRelationship(w, body.source, body.target, body.relationship);
    return { relationship: record, created };
  }),
  listRelationships: (ctx, { tenantId, params }) => ({ relationships: readWorld(ctx, tenantId, params.id).body.relationships }),
  deleteRelationship: (ctx, { tenantId, params }) => changeWorld(ctx, tenantId, params.id, (w) => {
    const before = w.relationships.length;
    w.relationships = w.relationships.filter((r) => r.id !== params.rid);
    if (w.relationships.length === before) throw fail('RELATIONSHIP_NOT_FOUND', `relationship '${params.rid}' does not exist in this world`);
    return { ok: true };
  }),
};
