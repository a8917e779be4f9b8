// World records: create, get, list, PATCH, soft-delete and restore, with their error paths.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, sampleWorld, startHarness, type Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => h.close());

const create = async (name = 'Harbor') => (await h.call('createWorld', { body: sampleWorld(name) })).body.result.worldId as string;

describe('POST /worlds', () => {
  it('creates a world with an id and a creation time in milliseconds', async () => {
    const before = Date.now();
    const reply = await h.call('createWorld', { body: sampleWorld() });
    expect(reply.status).toBe(201);
    expect(reply.body.result.worldId).toMatch(/^wld_/);
    expect(reply.body.result.createdAt).toBeGreaterThanOrEqual(before);
    expect(reply.body.result.createdAt).toBeLessThanOrEqual(Date.now());
  });

  it('accepts the smallest body: a definition with a name', async () => {
    expect((await h.call('createWorld', { body: { definition: { identity: { name: 'Tiny' } } } })).status).toBe(201);
  });

  it('refuses two entities with the same name', async () => {
    const body = { definition: { identity: { name: 'Twins' } }, entities: [{ name: 'a', type: 'user' }, { name: 'a', type: 'persona' }] };
    expectError(await h.call('createWorld', { body }), 409, 'ENTITY_EXISTS');
  });
});

describe('GET /worlds/{id}', () => {
  it('returns the world with its definition, engine version and persona configs', async () => {
    const id = await create('Lighthouse');
    const { world, personaConfigs } = (await h.call('getWorld', { params: { id } })).body.result;
    expect(world).toMatchObject({ id, tenantId: 'tenant-a', definition: { identity: { name: 'Lighthouse' } } });
    expect(world.engineVersion).toMatch(/\d/);
    expect(world.definition.rules.physics).toEqual({ gravity: true });
    expect(Object.keys(personaConfigs).sort()).toEqual(['mara', 'olek']);
    expect(personaConfigs.mara.identity.speakingStyle).toBe('terse');
  });

  it('answers 404 WORLD_NOT_FOUND for an unknown id', async () => {
    expectError(await h.call('getWorld', { params: { id: 'wld_missing' } }), 404, 'WORLD_NOT_FOUND');
  });
});

describe('PATCH /worlds/{id}', () => {
  it('merges the definition and keeps what the patch does not name', async () => {
    const id = await create();
    const reply = await h.call('updateWorld', { params: { id }, body: { definition: { identity: { name: 'Renamed' }, culture: { coreValues: ['honor'] } } } });
    expect(reply.body.result.world.definition.identity).toEqual({ name: 'Renamed', description: 'A fishing harbor' });
    const world = (await h.call('getWorld', { params: { id } })).body.result.world;
    expect(world.definition.culture.coreValues).toEqual(['honor']);
    expect(world.definition.rules.physics).toEqual({ gravity: true });
  });

  it('updates environment and interaction settings, visible in the snapshot', async () => {
    const id = await create();
    await h.call('updateWorld', { params: { id }, body: { environment: { weather: 'storm' }, interaction: { emotionalContagion: true } } });
    const snap = (await h.call('getWorldSnapshot', { params: { id } })).body.result;
    expect(snap.environment.weather).toBe('storm');
    expect(snap.interaction.emotionalContagion).toBe(true);
  });

  it('refuses a wrong type and answers 404 for an unknown world', async () => {
    const id = await create();
    expectError(await h.call('updateWorld', { params: { id }, body: { definition: { time: { ratio: 'fast' } } } }), 400, 'VALIDATION_ERROR');
    expectError(await h.call('updateWorld', { params: { id: 'wld_missing' }, body: {} }), 404, 'WORLD_NOT_FOUND');
  });
});

describe('DELETE /worlds/{id} and POST /worlds/{id}/restore', () => {
  it('soft-deletes: no longer readable nor listed; restore brings it back as it was', async () => {
    const id = await create('Doomed');
    const before = (await h.call('getWorldSnapshot', { params: { id } })).body.result;
    expect((await h.call('deleteWorld', { params: { id } })).body.result).toEqual({ ok: true });
    expectError(await h.call('getWorld', { params: { id } }), 404, 'WORLD_NOT_FOUND');
    expectError(await h.call('chat', { params: { id }, body: { from: 'visitor', to: 'mara', message: 'hi' } }), 404, 'WORLD_NOT_FOUND');
    const listed = (await h.call('listWorlds', { query: { limit: '100' } })).body.result.worlds.map((w: { id: string }) => w.id);
    expect(listed).not.toContain(id);
    expectError(await h.call('deleteWorld', { params: { id } }), 404, 'WORLD_NOT_FOUND');

    const restored = await h.call('restoreWorld', { params: { id } });
    expect(restored.body.result.world.id).toBe(id);
    expect((await h.call('getWorldSnapshot', { params: { id } })).body.result).toEqual(before);
  });

  it('refuses to restore a world that is not deleted, or does not exist', async () => {
    const id = await create();
    expectError(await h.call('restoreWorld', { params: { id } }), 409, 'NOT_DELETED');
    expectError(await h.call('restoreWorld', { params: { id: 'wld_missing' } }), 404, 'WORLD_NOT_FOUND');
  });
});
