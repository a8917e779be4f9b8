// State transitions of SPEC.md: soft-delete and restore, for worlds and personas, each state read
// through every view (GET, list, query, context, snapshot; a persona's state and snapshot).
import { describe, expect, type TestContext } from 'vitest';
import { check, api, createPersona, createWorld, named, notRun, ok, walkList } from './support/index.ts';
import { differences } from './support/diff.ts';

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

/**
 * What a client sees of a record: each view's status and body, and whether the list holds it (when
 * the list can be walked to its end). SPEC.md leaves open what a soft-deleted record returns on read,
 * so a delete is checked by what it changes: some line must differ after it.
 */
async function seen(views: Promise<ReadonlyArray<readonly [string, { status: number; text: string }]>>, list: 'listWorlds' | 'listPersonas', id: string): Promise<string[]> {
  const lines = (await views).map(([what, r]) => `${what} → ${r.status} ${r.text}`);
  const walk = await walkList(client, list);
  if (walk.complete) lines.push(`${list} ${walk.ids.includes(id) ? 'lists it' : 'does not list it'}`);
  return lines;
}
const changes = (before: string[], after: string[]) => after.filter((line) => !before.includes(line)).map((l) => l.slice(0, 160));

/** A restored record is the one deleted: the members SPEC.md gives its GET, read before and after. */
const worldKept = (r: any) => ({ world: { id: r?.world?.id, tenantId: r?.world?.tenantId, definition: r?.world?.definition, engineVersion: r?.world?.engineVersion, createdAt: r?.world?.createdAt }, personaConfigs: r?.personaConfigs });

describe('world: active → soft-deleted → active', () => {
  check('STATE-1', 'deletes an existing world, which changes what its views show, restores it, and the world is readable with its definition kept', async () => {
    const id = await createWorld(client, 'state-world');
    const before = await seen(worldViews(id), 'listWorlds', id);
    ok(await client.call('deleteWorld', { params: { id } }), 'DELETE /worlds/{id}');
    // What a soft-deleted world answers is not shown; that its delete changed nothing a client sees is
    // not a delete (a restore that answers ok on a live world would hide it).
    const deleted = await seen(worldViews(id), 'listWorlds', id);
    expect(changes(before, deleted), `DELETE /worlds/{id} answered ok, but no view of the world changed: ${before.join('; ')}`).not.toEqual([]);
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
  check('STATE-3', 'deletes an existing persona, which changes what its reads show, restores it, and the persona is readable', async () => {
    const id = await createPersona(client, 'state-persona');
    const before = await seen(personaViews(id), 'listPersonas', id);
    ok(await client.call('deletePersona', { params: { id } }), 'DELETE /personas/{id}');
    const deleted = await seen(personaViews(id), 'listPersonas', id);
    expect(changes(before, deleted), `DELETE /personas/{id} answered ok, but no read of the persona changed: ${before.join('; ')}`).not.toEqual([]);
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

describe('a restore brings back the record as it was', () => {
  check('STATE-5', "a restored world answers GET as before its delete: id, tenantId, definition, engineVersion, createdAt, personaConfigs", async () => {
    const id = await createWorld(client, 'state-kept');
    const before = worldKept(ok(await client.call('getWorld', { params: { id } }), 'GET /worlds/{id} before the delete'));
    ok(await client.call('deleteWorld', { params: { id } }), 'DELETE /worlds/{id}');
    ok(await client.call('restoreWorld', { params: { id } }), 'POST /worlds/{id}/restore');
    const after = worldKept(ok(await client.call('getWorld', { params: { id } }), 'GET /worlds/{id} after the restore'));
    expect(differences(before, after), 'members of GET /worlds/{id} that the delete and restore changed').toEqual([]);
  });

  check('STATE-5', 'a restored persona answers as before its delete: its configuration and its snapshot (a selfConcept of its own)', async () => {
    const id = await createPersona(client, 'state-kept-persona');
    // A value no default gives, so that a restore resetting it shows.
    const snap = ok(await client.call('getPersonaSnapshot', { params: { id } }), 'GET /personas/{id}/snapshot');
    const selfConcept = `${named('self')}: keeps the lighthouse`;
    ok(await client.call('putPersonaSnapshot', { params: { id }, body: { snapshot: { ...snap, selfConcept } } }), 'PUT /personas/{id}/snapshot');
    const read = async (when: string) => ({
      persona: JSON.stringify(ok(await client.call('getPersona', { params: { id } }), `GET /personas/{id} ${when}`)).includes(JSON.stringify(named('state-kept-persona'))),
      selfConcept: ok(await client.call('getPersonaSnapshot', { params: { id } }), `GET /personas/{id}/snapshot ${when}`).selfConcept,
    });
    expect(await read('before the delete'), 'the persona as created and imported').toEqual({ persona: true, selfConcept });
    ok(await client.call('deletePersona', { params: { id } }), 'DELETE /personas/{id}');
    ok(await client.call('restorePersona', { params: { id } }), 'POST /personas/{id}/restore');
    expect(await read('after the restore'), 'the restored persona: its configuration names it as created, its snapshot keeps the selfConcept').toEqual({ persona: true, selfConcept });
  });
});
