// The simulation operations of a world, each a read-modify-write through changeWorld.
import type { Event } from '../../../contract/resources.ts';
import * as engine from '../../engine/world/index.ts';
import { changeWorld, simulateWorld, simulateWorldInSlices, readWorld, type Handler, type ServerContext } from '../context.ts';
import { decodeCursor, page, pageLimit } from '../paging.ts';

export const worldSimulationHandlers: Record<string, Handler> = {
  // Sliced: a long advance of a large world must not hold up other tenants (context.ts).
  tickWorld: (ctx, { tenantId, params, body }) =>
    simulateWorldInSlices(ctx, tenantId, params.id, (w) => engine.advancing(w, body.seconds, 'tick')),
  timeJump: (ctx, { tenantId, params, body }) =>
    simulateWorldInSlices(ctx, tenantId, params.id, (w) => engine.advancing(w, body.seconds, 'jump')),
  chat: (ctx, { tenantId, params, body }) =>
    simulateWorld(ctx, tenantId, params.id, (w) => engine.chat(w, body)),
  dispatchEvent: (ctx, { tenantId, params, body }) =>
    simulateWorld(ctx, tenantId, params.id, (w) => engine.dispatchEvent(w, body)),
  queryWorld: (ctx, { tenantId, params, body }) => engine.query(readWorld(ctx, tenantId, params.id).body, body),
  worldContext: (ctx, { tenantId, params, body }) => engine.context(readWorld(ctx, tenantId, params.id).body, body.entityName),
  mutateWorld: (ctx, { tenantId, params, body }) =>
    changeWorld(ctx, tenantId, params.id, (w) => engine.mutate(w, params.id, body.operations)),
  getWorldSnapshot: (ctx, { tenantId, params }) => {
    const doc = readWorld(ctx, tenantId, params.id);
    return engine.exportWorld(doc.body, doc.id);
  },
  putWorldSnapshot: (ctx, { tenantId, params, body }) => {
    changeWorld(ctx, tenantId, params.id, (w) => { Object.assign(w, engine.importWorld(w, params.id, body.snapshot)); });
    return { ok: true };
  },
  listWorldEvents(ctx, { tenantId, params, query }) {
    readWorld(ctx, tenantId, params.id);
    const match = (e: Event) => query.type === undefined || e.type === query.type;
    const { items, more } = scanLog(ctx, tenantId, params.id, decodeCursor(query.cursor), pageLimit(query.limit), match);
    const { items: events, nextCursor } = page(items, more, (e) => e.body);
    return { events, ...(nextCursor ? { nextCursor } : {}) };
  },
};

/** A page of the log filtered by `match`; `more` is true only when a matching entry lies beyond it. */
function scanLog(ctx: ServerContext, tenantId: string, worldId: string, after: number | undefined, limit: number, match: (e: Event) => boolean) {
  const items: Array<{ seq: number; body: Event }> = [];
  let cursor = after;
  for (;;) {
    const chunk = ctx.store.listLog<Event>('world', tenantId, worldId, { afterSeq: cursor, limit: 200 });
    for (const entry of chunk.items) {
      cursor = entry.seq;
      if (!match(entry.body)) continue;
      if (items.length === limit) return { items, more: true };
      items.push(entry);
    }
    if (!chunk.more) return { items, more: false };
  }
}
