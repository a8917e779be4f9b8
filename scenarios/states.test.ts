// State transitions of SPEC.md: soft-delete and restore, for worlds and personas.
import { describe, expect } from 'vitest';
import { check, api, createPersona, createWorld, named, ok } from './support/index.ts';

const client = api();

async function listedIds(operationId: 'listWorlds' | 'listPersonas', member: 'worlds' | 'personas'): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 200; page++) {
    const result = ok(await client.call(operationId, { query: { limit: '100', ...(cursor ? { cursor } : {}) } }));
    ids.push(...(result[member] ?? []).map((x: { id: string }) => x.id));
    cursor = result.nextCursor || undefined;
    if (!cursor) break;
  }
  return ids;
}

describe('world: active → soft-deleted → active', () => {
  check('STATE-1', 'deletes an existing world, restores it, and the world is readable with its definition kept', async () => {
    const id = await createWorld(client, 'state-world');
    ok(await client.call('deleteWorld', { params: { id } }), 'DELETE /worlds/{id}');
    ok(await client.call('restoreWorld', { params: { id } }), 'POST /worlds/{id}/restore');
    const { world } = ok(await client.call('getWorld', { params: { id } }), 'GET after restore');
    expect(world.definition.identity.name).toBe(named('state-world'));
  });

  check('STATE-2', 'a soft-deleted world is neither readable nor listed until restored', async () => {
    const id = await createWorld(client, 'state-hidden');
    ok(await client.call('deleteWorld', { params: { id } }));
    const read = await client.call('getWorld', { params: { id } });
    expect(read.status, 'a soft-deleted world was still readable').toBe(404);
    expect(await listedIds('listWorlds', 'worlds'), 'a soft-deleted world was still listed').not.toContain(id);
    ok(await client.call('restoreWorld', { params: { id } }));
    expect(await listedIds('listWorlds', 'worlds')).toContain(id);
  });
});

describe('persona: active → soft-deleted → active', () => {
  check('STATE-3', 'deletes an existing persona, restores it, and the persona is readable', async () => {
    const id = await createPersona(client, 'state-persona');
    ok(await client.call('deletePersona', { params: { id } }), 'DELETE /personas/{id}');
    ok(await client.call('restorePersona', { params: { id } }), 'POST /personas/{id}/restore');
    ok(await client.call('getPersona', { params: { id } }), 'GET after restore');
  });

  check('STATE-4', 'a soft-deleted persona is neither readable nor listed until restored', async () => {
    const id = await createPersona(client, 'state-persona-hidden');
    ok(await client.call('deletePersona', { params: { id } }));
    expect((await client.call('getPersona', { params: { id } })).status, 'a soft-deleted persona was still readable').toBe(404);
    expect(await listedIds('listPersonas', 'personas'), 'a soft-deleted persona was still listed').not.toContain(id);
    ok(await client.call('restorePersona', { params: { id } }));
    expect(await listedIds('listPersonas', 'personas')).toContain(id);
  });
});
