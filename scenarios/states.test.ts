// State transitions of SPEC.md: soft-delete and restore, for worlds and personas.
import { describe, expect, type TestContext } from 'vitest';
import { check, api, createPersona, createWorld, named, notRun, ok, walkList } from './support/index.ts';

const client = api();

/**
 * Every id listed, page after page (as the list pages: support/index.ts walkList). A list the suite
 * cannot follow to its end (its document names no cursor parameter) makes the check "not run".
 */
async function listedIds(ctx: TestContext, operationId: 'listWorlds' | 'listPersonas'): Promise<string[]> {
  const walk = await walkList(client, operationId);
  if (walk.unfollowable) notRun(ctx, walk.unfollowable);
  expect(walk.complete, `${operationId}: the walk of its pages did not reach the end (${walk.pages} pages)`).toBe(true);
  return walk.ids;
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

  check('STATE-2', 'a soft-deleted world is neither readable nor listed until restored', async (ctx) => {
    const id = await createWorld(client, 'state-hidden');
    ok(await client.call('deleteWorld', { params: { id } }));
    const read = await client.call('getWorld', { params: { id } });
    expect(READ_REFUSED, `a soft-deleted world was still readable: ${read.status}`).toContain(read.status);
    expect(await listedIds(ctx, 'listWorlds'), 'a soft-deleted world was still listed').not.toContain(id);
    ok(await client.call('restoreWorld', { params: { id } }));
    expect(await listedIds(ctx, 'listWorlds')).toContain(id);
  });
});

describe('persona: active → soft-deleted → active', () => {
  check('STATE-3', 'deletes an existing persona, restores it, and the persona is readable', async () => {
    const id = await createPersona(client, 'state-persona');
    ok(await client.call('deletePersona', { params: { id } }), 'DELETE /personas/{id}');
    ok(await client.call('restorePersona', { params: { id } }), 'POST /personas/{id}/restore');
    ok(await client.call('getPersona', { params: { id } }), 'GET after restore');
  });

  check('STATE-4', 'a soft-deleted persona is neither readable nor listed until restored', async (ctx) => {
    const id = await createPersona(client, 'state-persona-hidden');
    ok(await client.call('deletePersona', { params: { id } }));
    const read = await client.call('getPersona', { params: { id } });
    expect(READ_REFUSED, `a soft-deleted persona was still readable: ${read.status}`).toContain(read.status);
    expect(await listedIds(ctx, 'listPersonas'), 'a soft-deleted persona was still listed').not.toContain(id);
    ok(await client.call('restorePersona', { params: { id } }));
    expect(await listedIds(ctx, 'listPersonas')).toContain(id);
  });
});
