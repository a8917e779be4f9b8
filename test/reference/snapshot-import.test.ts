// Snapshot imports are checked against the full schemas of what they replace: a member broken in an
// exported snapshot is refused (400) and changes nothing, so no accepted import can make a later
// operation fail; and after an import that is accepted, every operation still answers 2xx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, sampleWorld, startHarness, type Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => h.close());

type Snap = Record<string, any>;
const clone = <T>(x: T): T => structuredClone(x);

async function freshWorld() {
  const id = (await h.call('createWorld', { body: sampleWorld() })).body.result.worldId as string;
  const params = { id };
  await h.call('chat', { params, body: { from: 'visitor', to: 'mara', message: 'The storm is coming, I hope the boats are safe.' } });
  await h.call('dispatchEvent', { params, body: { type: 'thunder', timestamp: Date.now() + 3_600_000 } });
  const action = (await h.call('createAction', { params, body: { name: 'wave', description: 'a friendly wave' } })).body.result.action.id as string;
  return { params, action, snap: (await h.call('getWorldSnapshot', { params })).body.result as Snap };
}

/** Every operation that reads what an import replaces; each must answer 2xx. */
async function worldStillWorks(params: { id: string }, action: string) {
  const calls: Array<[string, Record<string, unknown>]> = [
    ['chat', { body: { from: 'visitor', to: 'mara', message: 'Hello again' } }],
    ['dispatchEvent', { body: { type: 'thunder' } }],
    ['dispatchEvent', { body: { type: 'bell', sourceEntity: 'visitor', targetEntity: 'olek' } }],
    ['worldContext', { body: { entityName: 'mara' } }],
    ['worldContext', { body: { entityName: 'visitor' } }],
    ['queryWorld', { body: {} }],
    ['listActions', {}],
    ['interact', { body: { actionId: action, actor: 'visitor', target: 'mara' } }],
    ['tickWorld', { body: { seconds: 7200 } }],
    ['timeJump', { body: { seconds: 7200 } }],
    ['listWorldPersonas', {}],
    ['getWorldPersona', { params: { ...params, pid: 'mara' } }],
    ['listRelationships', {}],
    ['getWorld', {}],
    ['getWorldSnapshot', {}],
  ];
  for (const [operationId, o] of calls) {
    const reply = await h.call(operationId, { params, ...o });
    expect(reply.status, `${operationId}: ${reply.text.slice(0, 300)}`).toBeLessThan(300);
  }
}

const mara = (s: Snap) => s.entities.find((e: Snap) => e.name === 'mara').personaSnapshot;

describe('PUT /worlds/{id}/snapshot refuses a broken member and changes nothing', () => {
  const breakages: Array<[string, (s: Snap) => void]> = [
    ['customActions: 0', (s) => { s.customActions = 0; }],
    ['a custom action without appraisal', (s) => { delete s.customActions[0].appraisal; }],
    ['pendingEvents: "x"', (s) => { s.pendingEvents = 'x'; }],
    ['a pending event without type', (s) => { delete s.pendingEvents[0].type; }],
    ['a trigger without condition', (s) => { delete s.progression.triggers[0].condition; }],
    ['knowledge.facts: [{}]', (s) => { s.knowledge.facts = [{}]; }],
    ['a goal without content', (s) => { mara(s).goals = [{ id: 'g1', priority: 1, mutable: true, status: 'active' }]; }],
    ['a null memory episode', (s) => { mara(s).psyche.episodes = [null]; }],
    ['a memory episode without appraisal', (s) => { const e = mara(s).psyche.episodes[0]; delete e.appraisal; }],
    ['a memory episode without emotionSnapshot', (s) => { const e = mara(s).psyche.episodes[0]; delete e.emotionSnapshot; }],
    ['a persona config that is a number', (s) => { s.personaConfigs.mara = 3; }],
    ['an emotion out of its bounds', (s) => { mara(s).state.emotion.V = 1e308; }],
    ['a huge body budget', (s) => { mara(s).state.body_budget = 1e300; }],
    ['a recent event that is a string', (s) => { s.recentEvents = ['x']; }],
    ['a counter that is not a whole number', (s) => { s.counter = 0.5; }],
  ];
  for (const [label, breakIt] of breakages) {
    it(`refuses ${label}`, async () => {
      const { params, action, snap } = await freshWorld();
      const broken = clone(snap);
      breakIt(broken);
      expectError(await h.call('putWorldSnapshot', { params, body: { snapshot: broken } }), 400, 'VALIDATION_ERROR');
      expect((await h.call('getWorldSnapshot', { params })).body.result).toEqual(snap);
      await worldStillWorks(params, action);
    });
  }

  it('accepts a definition trigger without condition (the definition is filled with defaults, as at creation)', async () => {
    const { params, action, snap } = await freshWorld();
    const partial = clone(snap);
    delete partial.definition.progression.triggers[0].condition;
    expect((await h.call('putWorldSnapshot', { params, body: { snapshot: partial } })).status).toBe(200);
    const after = (await h.call('getWorldSnapshot', { params })).body.result;
    expect(after.definition.progression.triggers[0].condition).toEqual({ type: 'event_count', eventType: '', threshold: 1 });
    await worldStillWorks(params, action);
  });

  it('accepts the snapshot it exported, and the world still works', async () => {
    const { params, action, snap } = await freshWorld();
    expect((await h.call('putWorldSnapshot', { params, body: { snapshot: snap } })).status).toBe(200);
    await worldStillWorks(params, action);
  });

  it('accepts a minimal snapshot (defaults fill the rest), and the world still works', async () => {
    const { params, snap } = await freshWorld();
    const minimal = {
      id: snap.id, createdAt: snap.createdAt, environment: {}, spaces: [{ id: 'dock', name: 'Dock' }],
      entities: snap.entities.map((e: Snap) => ({ id: e.id, type: e.type, name: e.name, spaceId: 'dock', relationships: [] })),
    };
    expect((await h.call('putWorldSnapshot', { params, body: { snapshot: minimal } })).status).toBe(200);
    const action = (await h.call('createAction', { params, body: { name: 'nod' } })).body.result.action.id;
    await worldStillWorks(params, action);
  });
});

describe('PUT /personas/{id}/snapshot refuses a broken member and changes nothing', () => {
  async function freshPersona() {
    const id = (await h.call('createPersona', { body: { config: { identity: { name: 'Solo' }, goals: [{ id: 'g1', content: 'find the map', priority: 1 }] } } })).body.result.personaId as string;
    const params = { id };
    await h.call('perceive', { params, body: { type: 'greeting', sourceEntity: 'ana', payload: { message: 'Did you find the map?' } } });
    return { params, snap: (await h.call('getPersonaSnapshot', { params })).body.result as Snap };
  }
  async function personaStillWorks(params: { id: string }) {
    for (const [operationId, body] of [
      ['perceive', { type: 'greeting', sourceEntity: 'ana', payload: { message: 'the map' } }], ['tickPersona', { seconds: 3600 }],
      ['promptContext', {}], ['overrideEmotion', { vad: { V: 0.2 } }],
    ] as const) {
      const reply = await h.call(operationId, { params, body });
      expect(reply.status, `${operationId}: ${reply.text.slice(0, 300)}`).toBeLessThan(300);
    }
    for (const operationId of ['getPersonaState', 'getPersonaSnapshot', 'getPersona']) {
      expect((await h.call(operationId, { params })).status).toBe(200);
    }
  }
  const breakages: Array<[string, (s: Snap) => void]> = [
    ['a goal without content', (s) => { s.goals = [{ id: 'g1', priority: 1, mutable: true, status: 'active' }]; }],
    ['a null memory episode', (s) => { s.psyche.episodes = [null]; }],
    ['a memory episode without appraisal', (s) => { delete s.psyche.episodes[0].appraisal; }],
    ['relationships that are a string', (s) => { s.relationships = 'x'; }],
    ['a mood out of its bounds', (s) => { s.mood = { V: 5, A: 0, D: 0 }; }],
    ['a huge self-esteem', (s) => { s.selfEsteem.global = 1e308; }],
  ];
  for (const [label, breakIt] of breakages) {
    it(`refuses ${label}`, async () => {
      const { params, snap } = await freshPersona();
      const broken = clone(snap);
      breakIt(broken);
      expectError(await h.call('putPersonaSnapshot', { params, body: { snapshot: broken } }), 400, 'VALIDATION_ERROR');
      expect((await h.call('getPersonaSnapshot', { params })).body.result).toEqual(snap);
      await personaStillWorks(params);
    });
  }

  it('accepts the snapshot it exported, and a partial one, and the persona still works', async () => {
    const { params, snap } = await freshPersona();
    expect((await h.call('putPersonaSnapshot', { params, body: { snapshot: snap } })).status).toBe(200);
    await personaStillWorks(params);
    expect((await h.call('putPersonaSnapshot', { params, body: { snapshot: { mood: { V: 0.5, A: 0, D: 0 } } } })).status).toBe(200);
    await personaStillWorks(params);
  });
});
