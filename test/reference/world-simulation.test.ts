// The simulation operations of a world: chat, events, progression, tick, time-jump, query,
// context, mutate, snapshots. Every response is validated against the served document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, sampleWorld, startHarness, type Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => h.close());

const create = async (body: object = sampleWorld()) => (await h.call('createWorld', { body })).body.result.worldId as string;

describe('POST /worlds/{id}/chat', () => {
  it('answers with the recipient response; bystanders appear in groupAwareness', async () => {
    const id = await create();
    const reply = await h.call('chat', { params: { id }, body: { from: 'visitor', to: 'mara', message: 'Good morning, Mara!' } });
    const result = reply.body.result;
    expect(result.entityName).toBe('mara');
    expect(result.response.text.length).toBeGreaterThan(0);
    expect(result.groupAwareness.map((a: { entityName: string }) => a.entityName)).toEqual(['olek']);
    const log = (await h.call('listWorldEvents', { params: { id } })).body.result.events;
    expect(log).toEqual([expect.objectContaining({ type: 'chat', sourceEntity: 'visitor', targetEntity: 'mara' })]);
  });

  it('answers 404 ENTITY_NOT_FOUND for an unknown sender or recipient', async () => {
    const id = await create();
    expectError(await h.call('chat', { params: { id }, body: { from: 'ghost', to: 'mara', message: 'boo' } }), 404, 'ENTITY_NOT_FOUND');
    expectError(await h.call('chat', { params: { id }, body: { from: 'visitor', to: 'ghost', message: 'boo' } }), 404, 'ENTITY_NOT_FOUND');
    expect((await h.call('listWorldEvents', { params: { id } })).body.result.events).toEqual([]);
  });
});

describe('POST /worlds/{id}/events and progression', () => {
  it('fires an event_count trigger exactly at its threshold, once', async () => {
    const id = await create();
    const send = () => h.call('dispatchEvent', { params: { id }, body: { type: 'thunder', spaceId: 'dock' } });
    const first = await send();
    expect(first.body.result.affected.map((a: { entityName: string }) => a.entityName).sort()).toEqual(['mara', 'olek']);
    expect(first.body.result.phaseChanged).toBeUndefined();
    expect((await send()).body.result.phaseChanged).toBeUndefined();
    expect((await send()).body.result.phaseChanged).toBe('storm');
    const p = (await h.call('queryWorld', { params: { id }, body: {} })).body.result.progression;
    expect(p.currentPhase).toBe('storm');
    expect(p.eventCounts.thunder).toBe(3);
    expect(p.firedTriggerIds).toEqual(['t-storm']);
    expect(p.phaseHistory).toEqual([
      expect.objectContaining({ phase: 'calm', exitedAt: expect.any(Number) }),
      expect.objectContaining({ phase: 'storm', triggerId: 't-storm' }),
    ]);
    // Leave the phase, then reach the threshold again: a oneShot trigger must not fire a second time.
    const sun = await h.call('dispatchEvent', { params: { id }, body: { type: 'sun' } });
    expect(sun.body.result.phaseChanged).toBe('calm');
    for (let n = 0; n < 4; n++) expect((await send()).body.result.phaseChanged).toBeUndefined();
    const after = (await h.call('queryWorld', { params: { id }, body: {} })).body.result.progression;
    expect(after.currentPhase).toBe('calm');
    expect(after.phaseHistory.map((e: { phase: string }) => e.phase)).toEqual(['calm', 'storm', 'calm']);
  });

  it('re-arms a trigger that is not oneShot at every multiple of its threshold', async () => {
    const id = await create();
    const tide = (n: number) => h.call('dispatchEvent', { params: { id }, body: { type: n % 2 ? 'low' : 'high' } });
    const phases: Array<string | undefined> = [];
    for (let n = 0; n < 8; n++) phases.push((await tide(n)).body.result.phaseChanged);
    // high at n=0,2,4,6 (counts 1..4, threshold 2 → fires at 2 and 4); low at n=1,3,5,7 (threshold 2 → 2 and 4).
    expect(phases).toEqual([undefined, undefined, 'flood', 'calm', undefined, undefined, 'flood', 'calm']);
  });

  it('shows the phase norm override in the culture of the context', async () => {
    const id = await create();
    for (let n = 0; n < 3; n++) await h.call('dispatchEvent', { params: { id }, body: { type: 'thunder' } });
    const ctx = (await h.call('worldContext', { params: { id }, body: { entityName: 'mara' } })).body.result;
    expect(ctx.currentPhase).toBe('storm');
    expect(ctx.worldCulture.normMap.caution).toBe(0.9);
  });

  it('delivers an event stamped in the future when a tick reaches it', async () => {
    const id = await create();
    const createdAt = (await h.call('getWorld', { params: { id } })).body.result.world.createdAt;
    const scheduled = await h.call('dispatchEvent', { params: { id }, body: { type: 'bell', targetEntity: 'mara', timestamp: createdAt + 30_000 } });
    expect(scheduled.body.result.affected).toEqual([]);
    expect((await h.call('tickWorld', { params: { id }, body: { seconds: 10 } })).body.result.events).toEqual([]);
    const tick = await h.call('tickWorld', { params: { id }, body: { seconds: 30 } });
    expect(tick.body.result.events.map((e: { type: string }) => e.type)).toEqual(['bell']);
    expect(tick.body.result.affected.map((a: { entityName: string }) => a.entityName)).toEqual(['mara']);
    expect(tick.body.result.elapsedTime).toBe(40);
  });

  it('answers ENTITY_NOT_FOUND for an unknown target and VALIDATION_ERROR for an unknown space', async () => {
    const id = await create();
    expectError(await h.call('dispatchEvent', { params: { id }, body: { type: 'x', targetEntity: 'ghost' } }), 404, 'ENTITY_NOT_FOUND');
    expectError(await h.call('dispatchEvent', { params: { id }, body: { type: 'x', spaceId: 'moon' } }), 400, 'VALIDATION_ERROR');
    expect((await h.call('queryWorld', { params: { id }, body: {} })).body.result.progression.eventCounts).toEqual({});
  });
});

describe('vectors of an event stimulus (issue 32, cause 7)', () => {
  // An answered Event carries the stimulus as sent; SPEC's VAD is V, A and D, so a partial vector
  // would break the served document in the answer, the snapshot's recentEvents and whatHappened.
  const partials = [{ vadOverride: { V: 0.5 } }, { vadDelta: { A: 0.2, D: 0 } }, { needsDelta: { autonomy: 0.5 } }];

  it('refuses a partial vadOverride, vadDelta or needsDelta with 400 VALIDATION_ERROR, in events, perceive and actions; nothing is logged', async () => {
    const id = await create();
    const persona = (await h.call('createPersona', { body: { config: {} } })).body.result.personaId as string;
    for (const stimulus of partials) {
      expectError(await h.call('dispatchEvent', { params: { id }, body: { type: 'x', targetEntity: 'mara', stimulus } }), 400, 'VALIDATION_ERROR');
      expectError(await h.call('perceive', { params: { id: persona }, body: { type: 'x', stimulus } }), 400, 'VALIDATION_ERROR');
      expectError(await h.call('createAction', { params: { id }, body: { name: 'nudge', stimulus } }), 400, 'VALIDATION_ERROR');
    }
    expect((await h.call('listWorldEvents', { params: { id } })).body.result.events).toEqual([]);
  });

  it('takes complete vectors and answers them in events, recentEvents and whatHappened (each answer checked against the served document)', async () => {
    const id = await create();
    const stimulus = { vadOverride: { V: 0.5, A: 0, D: 0 }, vadDelta: { V: 0, A: 0.1, D: 0 }, needsDelta: { autonomy: 0.1, competence: 0, relatedness: 0 } };
    const sent = await h.call('dispatchEvent', { params: { id }, body: { type: 'x', targetEntity: 'mara', stimulus } });
    expect(sent.body.result.events).toEqual([expect.objectContaining({ stimulus })]);
    expect((await h.call('getWorldSnapshot', { params: { id } })).body.result.recentEvents).toEqual([expect.objectContaining({ stimulus })]);
    const ctx = (await h.call('worldContext', { params: { id }, body: { entityName: 'mara' } })).body.result;
    expect(ctx.whatHappened).toEqual([expect.objectContaining({ stimulus })]);
  });

  it('keeps a partial appraisal as sent, in events, recentEvents and whatHappened (each answer checked against the served document)', async () => {
    const id = await create();
    const appraisal = { goal_relevance: 0.9, expectedness: 0.1 };
    const sent = await h.call('dispatchEvent', { params: { id }, body: { type: 'x', targetEntity: 'mara', appraisal } });
    expect(sent.body.result.events).toEqual([expect.objectContaining({ appraisal })]);
    expect((await h.call('getWorldSnapshot', { params: { id } })).body.result.recentEvents).toEqual([expect.objectContaining({ appraisal })]);
    const ctx = (await h.call('worldContext', { params: { id }, body: { entityName: 'mara' } })).body.result;
    expect(ctx.whatHappened).toEqual([expect.objectContaining({ appraisal })]);
  });

  it('refuses a snapshot import whose recent event has a partial vadOverride; the world is unchanged', async () => {
    const id = await create();
    await h.call('dispatchEvent', { params: { id }, body: { type: 'x', targetEntity: 'mara', stimulus: { vadOverride: { V: 0.5, A: 0, D: 0 } } } });
    const snapshot = (await h.call('getWorldSnapshot', { params: { id } })).body.result;
    const broken = structuredClone(snapshot);
    broken.recentEvents[0].stimulus.vadOverride = { V: 0.1 };
    expectError(await h.call('putWorldSnapshot', { params: { id }, body: { snapshot: broken } }), 400, 'VALIDATION_ERROR');
    expect((await h.call('getWorldSnapshot', { params: { id } })).body.result.recentEvents).toEqual(snapshot.recentEvents);
  });
});

describe('POST /worlds/{id}/tick and /time-jump', () => {
  it('advance simulated time by seconds × time.ratio', async () => {
    const id = await create({ ...sampleWorld(), definition: { ...sampleWorld().definition, time: { type: 'realtime', ratio: 2 } } });
    expect((await h.call('tickWorld', { params: { id }, body: { seconds: 5 } })).body.result.elapsedTime).toBe(10);
    expect((await h.call('timeJump', { params: { id }, body: { seconds: 100 } })).body.result.elapsedTime).toBe(210);
  });
});

describe('POST /worlds/{id}/query and /context', () => {
  it('query lists entities, spaces from the topology, knowledge and relationships', async () => {
    const id = await create();
    await h.call('upsertRelationship', { params: { id }, body: { source: 'visitor', target: 'mara', relationship: { trust: 0.4 } } });
    const r = (await h.call('queryWorld', { params: { id }, body: {} })).body.result;
    expect(r.entities.map((e: { name: string }) => e.name)).toEqual(['mara', 'olek', 'visitor']);
    expect(r.spaces.map((s: { id: string }) => s.id)).toEqual(['dock', 'tavern']);
    expect(r.relationships.visitor.mara).toEqual({ type: 'stranger', strength: 0, trust: 0.4 });
    expect((await h.call('queryWorld', { params: { id }, body: { entityType: 'user' } })).body.result.entities).toHaveLength(1);
  });

  it('context says who and where the entity is, and what it knows', async () => {
    const id = await create();
    const mara = (await h.call('worldContext', { params: { id }, body: { entityName: 'mara' } })).body.result;
    expect(mara.whoAmI.name).toBe('mara');
    expect(mara.whereAmI.id).toBe('dock');
    expect(mara.whoIsHere.map((e: { name: string }) => e.name)).toEqual(['olek', 'visitor']);
    expect(mara.adjacentSpaces).toEqual(['tavern']);
    expect(mara.knownFacts.map((f: { id: string }) => f.id)).toEqual(['f1', 'f2']);
    expect(mara.personaState.emotion.vad).toEqual(expect.objectContaining({ V: expect.any(Number) }));
    const olek = (await h.call('worldContext', { params: { id }, body: { entityName: 'olek' } })).body.result;
    expect(olek.knownFacts.map((f: { id: string }) => f.id)).toEqual(['f1']);
    const visitor = (await h.call('worldContext', { params: { id }, body: { entityName: 'visitor' } })).body.result;
    expect(visitor.personaState).toBeUndefined();
    expectError(await h.call('worldContext', { params: { id }, body: { entityName: 'ghost' } }), 404, 'ENTITY_NOT_FOUND');
  });
});

describe('POST /worlds/{id}/mutate', () => {
  it('applies each operation on its own and reports one result per operation', async () => {
    const id = await create();
    const operations = [
      { op: 'add_space', id: 'attic', name: 'Attic' },
      { op: 'add_entity', name: 'nell', type: 'persona', spaceId: 'attic' },
      { op: 'add_entity', name: 'mara', type: 'persona' },
      { op: 'teleport', name: 'nell' },
      { op: 'move_entity', name: 'visitor', spaceId: 'attic' },
      { op: 'add_fact', fact: { content: 'The attic is haunted' } },
      { op: 'set_environment', environment: { weather: 'fog' } },
      { op: 'move_entity', name: 'olek' },
    ];
    const { results } = (await h.call('mutateWorld', { params: { id }, body: { operations } })).body.result;
    expect(results.map((r: { op: string; ok: boolean }) => [r.op, r.ok])).toEqual([
      ['add_space', true], ['add_entity', true], ['add_entity', false], ['teleport', false],
      ['move_entity', true], ['add_fact', true], ['set_environment', true], ['move_entity', false],
    ]);
    for (const r of results.filter((x: { ok: boolean }) => !x.ok)) expect(r.error.length).toBeGreaterThan(0);
    const ctx = (await h.call('worldContext', { params: { id }, body: { entityName: 'nell' } })).body.result;
    expect(ctx.whereAmI.id).toBe('attic');
    expect(ctx.whoIsHere.map((e: { name: string }) => e.name)).toEqual(['visitor']);
    expect(ctx.knownFacts.map((f: { content: string }) => f.content)).toContain('The attic is haunted');
    expect((await h.call('getWorldSnapshot', { params: { id } })).body.result.environment.weather).toBe('fog');
  });
});

describe('GET and PUT /worlds/{id}/snapshot', () => {
  it('export → import → export gives the same document, also into another world', async () => {
    const id = await create();
    await h.call('chat', { params: { id }, body: { from: 'visitor', to: 'mara', message: 'You are wonderful' } });
    await h.call('dispatchEvent', { params: { id }, body: { type: 'thunder' } });
    await h.call('upsertRelationship', { params: { id }, body: { source: 'visitor', target: 'mara', relationship: { trust: 0.3 } } });
    const first = (await h.call('getWorldSnapshot', { params: { id } })).body.result;
    expect((await h.call('putWorldSnapshot', { params: { id }, body: { snapshot: first } })).body.result).toEqual({ ok: true });
    expect((await h.call('getWorldSnapshot', { params: { id } })).body.result).toEqual(first);

    const other = await create({ definition: { identity: { name: 'Empty' } } });
    await h.call('putWorldSnapshot', { params: { id: other }, body: { snapshot: first } });
    const copy = (await h.call('getWorldSnapshot', { params: { id: other } })).body.result;
    expect({ ...copy, id: first.id }).toEqual(first);
  });
});
