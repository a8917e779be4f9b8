// World records: create, list, get, update, soft-delete, restore.
import type { StoredDoc } from '../../store/index.ts';
import type { World } from '../../../contract/resources.ts';
import { fail } from '../../engine/world/fail.ts';
import { mergeDefinition, newWorld, syncProgression, type WorldDoc } from '../../engine/world/index.ts';
import { mergePatch } from '../../engine/world/defaults.ts';
import { changeWorld, entitiesWithinOrFail, insertWithinQuota, loadWorld, newId, readWorld, roomForOrFail, type Handler } from '../context.ts';
import { decodeCursor, page, pageLimit } from '../paging.ts';

export function worldView(doc: StoredDoc<Readonly<WorldDoc>>): World {
  return { id: doc.id, tenantId: doc.tenantId, definition: doc.body.definition, engineVersion: doc.body.engineVersion, createdAt: doc.createdAt };
}

export const worldHandlers: Record<string, Handler> = {
  createWorld(ctx, { tenantId, body }) {
    const id = newId('wld');
    const now = ctx.now();
    roomForOrFail(ctx, tenantId, 'world');
    entitiesWithinOrFail(ctx, body.entities?.length ?? 0);
    // Built entirely before the insert: a request that fails validation stores nothing.
    const world = newWorld(body, id, now);
    const doc = insertWithinQuota(ctx, tenantId, 'world', id, now, world);
    return { worldId: doc.id, createdAt: doc.createdAt };
  },
  listWorlds(ctx, { tenantId, query }) {
    const { items, more } = ctx.store.list<WorldDoc>('world', tenantId, { afterSeq: decodeCursor(query.cursor), limit: pageLimit(query.limit) });
    const { items: worlds, nextCursor } = page(items, more, worldView);
    return { worlds, ...(nextCursor ? { nextCursor } : {}) };
  },
  getWorld(ctx, { tenantId, params }) {
    const doc = readWorld(ctx, tenantId, params.id);
    return { world: worldView(doc), personaConfigs: doc.body.personaConfigs };
  },
  updateWorld(ctx, { tenantId, params, body }) {
    changeWorld(ctx, tenantId, params.id, (world) => {
      if (body.definition) {
        world.definition = mergeDefinition(world.definition, body.definition);
        syncProgression(world);
      }
      if (body.environment) world.environment = mergePatch(world.environment, body.environment) as WorldDoc['environment'];
      if (body.interaction) world.interaction = { ...world.interaction, ...body.interaction };
    });
    return { world: worldView(loadWorld(ctx, tenantId, params.id)) };
  },
  deleteWorld(ctx, { tenantId, params }) {
    if (!ctx.store.softDelete('world', tenantId, params.id, ctx.now())) throw fail('WORLD_NOT_FOUND', `world '${params.id}' does not exist`);
    return { ok: true };
  },
  restoreWorld(ctx, { tenantId, params }) {
    const doc = ctx.store.get<WorldDoc>('world', tenantId, params.id, { includeDeleted: true });
    if (!doc) throw fail('WORLD_NOT_FOUND', `world '${params.id}' does not exist`);
    if (doc.deletedAt === null) throw fail('NOT_DELETED', `world '${params.id}' is not deleted`);
    roomForOrFail(ctx, tenantId, 'world');
    ctx.store.restore('world', tenantId, params.id, ctx.now());
    return { world: worldView(loadWorld(ctx, tenantId, params.id)) };
  },
};
