// World personas, actions (and interact), relationships, and the event log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, sampleWorld, startHarness, type Harness } from './harness.ts';

let h: Harness;
let id: string;
beforeAll(async () => {
  h = await startHarness();
  id = (await h.call('createWorld', { body: sampleWorld() })).body.result.worldId;
});
afterAll(async () => h.close());

describe('/worlds/{id}/personas', () => {
  it('lists, adds, reads and removes the personas of a world', async () => {
    const names = async () => (await h.call('listWorldPersonas', { params: { id } })).body.result.personas.map((p: { name: string }) => p.name);
    expect(await names()).toEqual(['mara', 'olek']);
    const added = await h.call('addWorldPersona', { params: { id }, body: { name: 'pia', spaceId: 'tavern', config: { identity: { role: 'cook' } } } });
    expect(added.status).toBe(201);
    expect(added.body.result.persona).toMatchObject({ name: 'pia', spaceId: 'tavern', config: { identity: { role: 'cook' } } });
    const read = (await h.call('getWorldPersona', { params: { id, pid: 'pia' } })).body.result;
    expect(read.state.emotion.vad).toEqual(expect.objectContaining({ V: expect.any(Number), A: expect.any(Number), D: expect.any(Number) }));
    expect(await names()).toEqual(['mara', 'olek', 'pia']);
    expectError(await h.call('addWorldPersona', { params: { id }, body: { name: 'pia' } }), 409, 'ENTITY_EXISTS');
    expect((await h.call('removeWorldPersona', { params: { id, pid: 'pia' } })).body.result).toEqual({ ok: true });
    expect(await names()).toEqual(['mara', 'olek']);
    expectError(await h.call('getWorldPersona', { params: { id, pid: 'pia' } }), 404, 'PERSONA_NOT_FOUND');
    expectError(await h.call('removeWorldPersona', { params: { id, pid: 'visitor' } }), 404, 'PERSONA_NOT_FOUND');
  });
});

describe('/worlds/{id}/actions and interact', () => {
  it('lists defaults and custom actions; deletes only custom ones', async () => {
    const created = (await h.call('createAction', { params: { id }, body: { name: 'serenade', description: 'Sings a song', appraisal: { goal_congruence: 0.9 } } })).body.result.action;
    expect(created).toMatchObject({ name: 'serenade', custom: true, appraisal: { goal_congruence: 0.9 } });
    const list = (await h.call('listActions', { params: { id } })).body.result.actions;
    expect(list.filter((a: { custom: boolean }) => !a.custom).map((a: { id: string }) => a.id)).toEqual(expect.arrayContaining(['greet', 'insult', 'compliment']));
    expect(list.map((a: { id: string }) => a.id)).toContain(created.id);
    expectError(await h.call('deleteAction', { params: { id, aid: 'greet' } }), 409, 'ACTION_NOT_DELETABLE');
    expect((await h.call('deleteAction', { params: { id, aid: created.id } })).body.result).toEqual({ ok: true });
    expectError(await h.call('deleteAction', { params: { id, aid: created.id } }), 404, 'ACTION_NOT_FOUND');
  });

  it('interact runs an action against a persona and logs it', async () => {
    const reply = await h.call('interact', { params: { id }, body: { actionId: 'compliment', actor: 'visitor', target: 'olek' } });
    expect(reply.body.result).toMatchObject({ actionId: 'compliment', entityName: 'olek' });
    const log = (await h.call('listWorldEvents', { params: { id }, query: { type: 'compliment' } })).body.result.events;
    expect(log).toEqual([expect.objectContaining({ type: 'compliment', sourceEntity: 'visitor', targetEntity: 'olek' })]);
    expectError(await h.call('interact', { params: { id }, body: { actionId: 'nope', actor: 'visitor', target: 'olek' } }), 404, 'ACTION_NOT_FOUND');
    expectError(await h.call('interact', { params: { id }, body: { actionId: 'greet', actor: 'ghost', target: 'olek' } }), 404, 'ENTITY_NOT_FOUND');
  });
});

describe('/worlds/{id}/relationships', () => {
  it('upserts, lists and deletes relationships', async () => {
    const first = (await h.call('upsertRelationship', { params: { id }, body: { source: 'olek', target: 'mara', relationship: { trust: 0.5 } } })).body.result;
    expect(first.created).toBe(true);
    const again = (await h.call('upsertRelationship', { params: { id }, body: { source: 'olek', target: 'mara', relationship: { strength: 0.7 } } })).body.result;
    expect(again).toEqual({ created: false, relationship: { ...first.relationship, relationship: { type: 'stranger', trust: 0.5, strength: 0.7 } } });
    const list = (await h.call('listRelationships', { params: { id } })).body.result.relationships;
    expect(list).toContainEqual(again.relationship);
    expect((await h.call('deleteRelationship', { params: { id, rid: first.relationship.id } })).body.result).toEqual({ ok: true });
    expectError(await h.call('deleteRelationship', { params: { id, rid: first.relationship.id } }), 404, 'RELATIONSHIP_NOT_FOUND');
    expectError(await h.call('upsertRelationship', { params: { id }, body: { source: 'ghost', target: 'mara' } }), 404, 'ENTITY_NOT_FOUND');
  });
});

describe('GET /worlds/{id}/events', () => {
  it('pages through the log oldest first and filters by type', async () => {
    const world = (await h.call('createWorld', { body: sampleWorld() })).body.result.worldId;
    for (let n = 0; n < 25; n++) await h.call('dispatchEvent', { params: { id: world }, body: { type: n % 5 === 0 ? 'bell' : 'wave', payload: { n } } });
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const page = (await h.call('listWorldEvents', { params: { id: world }, query: { limit: '7', ...(cursor ? { cursor } : {}) } })).body.result;
      seen.push(...page.events.map((e: { payload: { n: number } }) => e.payload.n));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...Array(25).keys()]);
    const bells = (await h.call('listWorldEvents', { params: { id: world }, query: { type: 'bell', limit: '5' } })).body.result;
    expect(bells.events.map((e: { payload: { n: number } }) => e.payload.n)).toEqual([0, 5, 10, 15, 20]);
    expect(bells.nextCursor).toBeUndefined();
  });
});
