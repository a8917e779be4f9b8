// State transitions of SPEC.md: soft-delete and restore, for worlds and personas.
import { describe, expect } from 'vitest';
import { check, api, createPersona, createWorld, expectFor, listItems, named, ok } from './support/index.ts';

const client = api();

/** Every id listed, page after page. A list that cannot be found in a result fails the check: never a pass. */
async function listedIds(operationId: 'listWorlds' | 'listPersonas'): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 200; page++) {
    const reply = await client.call(operationId, { query: { limit: '100', ...(cursor ? { cursor } : {}) } });
    const result = ok(reply);
    const items = listItems(operationId, result);
    expectFor(reply, items !== undefined, { title: `${operationId}: no list found in the result`, expected: 'the result, or one array member of it, listing the records', received: reply.text.slice(0, 300) });
    ids.push(...items!.map((x) => (x as { id?: string })?.id ?? (x as { worldId?: string; personaId?: string })?.worldId ?? (x as { personaId?: string })?.personaId ?? ''));
    cursor = typeof result?.nextCursor === 'string' && result.nextCursor ? result.nextCursor : undefined;
    if (!cursor) break;
  }
  return ids;
}

/** SPEC.md: "what a soft-deleted record returns on read is not shown": any answer that is not a read. */
const READ_REFUSED = [404, 410];

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
    expect(READ_REFUSED, `a soft-deleted world was still readable: ${read.status}`).toContain(read.status);
    expect(await listedIds('listWorlds'), 'a soft-deleted world was still listed').not.toContain(id);
    ok(await client.call('restoreWorld', { params: { id } }));
    expect(await listedIds('listWorlds')).toContain(id);
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
    const read = await client.call('getPersona', { params: { id } });
    expect(READ_REFUSED, `a soft-deleted persona was still readable: ${read.status}`).toContain(read.status);
    expect(await listedIds('listPersonas'), 'a soft-deleted persona was still listed').not.toContain(id);
    ok(await client.call('restorePersona', { params: { id } }));
    expect(await listedIds('listPersonas')).toContain(id);
  });
});
