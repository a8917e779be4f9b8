// Tenant isolation (needs --second-key): another tenant's world or persona is answered as missing on
// every operation that names one, is never listed, and is left unchanged.
import { describe, expect } from 'vitest';
import { setup, check, api, config, createPersona, createWorld, minimalBody, ok, operationsOf, requires } from './support/index.ts';

const client = api();
let worldId = '';
let personaId = '';
setup(async () => {
  if (!config().secondKey) return;
  worldId = await createWorld(client, 'isolation');
  personaId = await createPersona(client, 'isolation');
});

const extra = (path: string) => Object.fromEntries((path.match(/\{(pid|aid|rid)\}/g) ?? []).map((p) => [p.slice(1, -1), 'ana']));
const body = (operationId: string) => minimalBody(operationId);

describe('another tenant', () => {
  check('ISO-1', "gets WORLD_NOT_FOUND on every operation on a world it does not own, which stays unchanged", async (ctx) => {
    requires(ctx, 'secondKey');
    const before = ok(await client.call('getWorldSnapshot', { params: { id: worldId } }));
    const wrong: string[] = [];
    for (const op of operationsOf((o) => o.path.startsWith('/worlds/{id}'))) {
      const reply = await client.call(op.operationId, { key: config().secondKey, params: { id: worldId, ...extra(op.path) }, body: body(op.operationId) });
      if (reply.status !== 404 || reply.body?.error?.code !== 'WORLD_NOT_FOUND') wrong.push(`${op.method} ${op.path} → ${reply.status} ${reply.body?.error?.code ?? ''}`);
    }
    expect(wrong, 'operations that did not answer 404 WORLD_NOT_FOUND to another tenant').toEqual([]);
    const after = ok(await client.call('getWorldSnapshot', { params: { id: worldId } }));
    expect(after, "the owner's world changed after another tenant's requests").toEqual(before);
  });

  check('ISO-2', "never sees another tenant's worlds in GET /worlds", async (ctx) => {
    requires(ctx, 'secondKey');
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 200; page++) {
      const result = ok(await client.call('listWorlds', { key: config().secondKey, query: { limit: '100', ...(cursor ? { cursor } : {}) } }));
      seen.push(...result.worlds.map((w: { id: string }) => w.id));
      cursor = result.nextCursor || undefined;
      if (!cursor) break;
    }
    expect(seen).not.toContain(worldId);
  });

  check('ISO-3', "gets PERSONA_NOT_FOUND on every operation on a persona it does not own, and never lists it", async (ctx) => {
    requires(ctx, 'secondKey');
    const wrong: string[] = [];
    for (const op of operationsOf((o) => o.path.startsWith('/personas/{id}'))) {
      const reply = await client.call(op.operationId, { key: config().secondKey, params: { id: personaId }, body: body(op.operationId) });
      if (reply.status !== 404 || reply.body?.error?.code !== 'PERSONA_NOT_FOUND') wrong.push(`${op.method} ${op.path} → ${reply.status} ${reply.body?.error?.code ?? ''}`);
    }
    expect(wrong, 'operations that did not answer PERSONA_NOT_FOUND to another tenant').toEqual([]);
    const listed = ok(await client.call('listPersonas', { key: config().secondKey })).personas ?? [];
    expect(listed.map((p: { id: string }) => p.id)).not.toContain(personaId);
    ok(await client.call('getPersona', { params: { id: personaId } }), "the owner's persona after another tenant's requests");
  });
});
