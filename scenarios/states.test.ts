// State transitions of SPEC.md: soft-delete and restore, for worlds and personas, each state read
// through every view (GET, list, query, context, snapshot; a persona's state and snapshot).
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

/** Every view SPEC.md gives of a world: GET, query, context (of its persona ana), snapshot. */
const worldViews = (id: string) => Promise.all([
  client.call('getWorld', { params: { id } }).then((r) => ['GET /worlds/{id}', r] as const),
  client.call('queryWorld', { params: { id }, body: {} }).then((r) => ['POST /worlds/{id}/query', r] as const),
  client.call('worldContext', { params: { id }, body: { entityName: 'ana' } }).then((r) => ['POST /worlds/{id}/context', r] as const),
  client.call('getWorldSnapshot', { params: { id } }).then((r) => ['GET /worlds/{id}/snapshot', r] as const),
]);
/** Every read of a standalone persona: GET, state, snapshot. */
const personaViews = (id: string) => Promise.all([
  client.call('getPersona', { params: { id } }).then((r) => ['GET /personas/{id}', r] as const),
  client.call('getPersonaState', { params: { id } }).then((r) => ['GET /personas/{id}/state', r] as const),
  client.call('getPersonaSnapshot', { params: { id } }).then((r) => ['GET /personas/{id}/snapshot', r] as const),
]);
const served = (views: ReadonlyArray<readonly [string, { status: number }]>) => views.filter(([, r]) => !READ_REFUSED.includes(r.status)).map(([what, r]) => `${what} → ${r.status}`);
const notServed = (views: ReadonlyArray<readonly [string, { status: number }]>) => views.filter(([, r]) => r.status < 200 || r.status >= 300).map(([what, r]) => `${what} → ${r.status}`);

describe('world: active → soft-deleted → active', () => {
  check('STATE-1', 'deletes an existing world, restores it, and the world is readable with its definition kept', async () => {
    const id = await createWorld(client, 'state-world');
    ok(await client.call('deleteWorld', { params: { id } }), 'DELETE /worlds/{id}');
    ok(await client.call('restoreWorld', { params: { id } }), 'POST /worlds/{id}/restore');
    const { world } = ok(await client.call('getWorld', { params: { id } }), 'GET after restore');
    expect(world.definition.identity.name).toBe(named('state-world'));
    // Active again: every view of the world answers, not GET alone.
    expect(notServed(await worldViews(id)), 'views of the restored world that did not answer a 2xx').toEqual([]);
  });

  check('STATE-2', 'a soft-deleted world is neither readable nor listed until restored', async (ctx) => {
    const id = await createWorld(client, 'state-hidden');
    ok(await client.call('deleteWorld', { params: { id } }));
    expect(served(await worldViews(id)), `views that still served the soft-deleted world (expected ${READ_REFUSED.join(' or ')})`).toEqual([]);
    expect(await listedIds(ctx, 'listWorlds'), 'a soft-deleted world was still listed').not.toContain(id);
    ok(await client.call('restoreWorld', { params: { id } }));
    expect(await listedIds(ctx, 'listWorlds')).toContain(id);
    expect(notServed(await worldViews(id)), 'views of the restored world that did not answer a 2xx').toEqual([]);
  });
});

describe('persona: active → soft-deleted → active', () => {
  check('STATE-3', 'deletes an existing persona, restores it, and the persona is readable', async () => {
    const id = await createPersona(client, 'state-persona');
    ok(await client.call('deletePersona', { params: { id } }), 'DELETE /personas/{id}');
    ok(await client.call('restorePersona', { params: { id } }), 'POST /personas/{id}/restore');
    ok(await client.call('getPersona', { params: { id } }), 'GET after restore');
    expect(notServed(await personaViews(id)), 'reads of the restored persona that did not answer a 2xx').toEqual([]);
  });

  check('STATE-4', 'a soft-deleted persona is neither readable nor listed until restored', async (ctx) => {
    const id = await createPersona(client, 'state-persona-hidden');
    ok(await client.call('deletePersona', { params: { id } }));
    expect(served(await personaViews(id)), `reads that still served the soft-deleted persona (expected ${READ_REFUSED.join(' or ')})`).toEqual([]);
    expect(await listedIds(ctx, 'listPersonas'), 'a soft-deleted persona was still listed').not.toContain(id);
    ok(await client.call('restorePersona', { params: { id } }));
    expect(await listedIds(ctx, 'listPersonas')).toContain(id);
    expect(notServed(await personaViews(id)), 'reads of the restored persona that did not answer a 2xx').toEqual([]);
  });
});
