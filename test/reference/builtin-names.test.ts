// A client's name is a key like any other, including the names of JavaScript's built-in members
// (`__proto__`, `constructor`, `toString`, …): used as entity, persona, source, space, phase,
// trigger, event type and relationship names, every operation still answers 2xx, nothing leaks to
// another tenant, and the process is not polluted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, startHarness, type Harness } from './harness.ts';

const NAMES = [
  '__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf',
  '__defineGetter__', '__lookupGetter__', 'toLocaleString',
];

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => h.close());

const ok = (reply: { status: number; text: string }, label: string) =>
  expect(reply.status, `${label}: ${reply.text.slice(0, 300)}`).toBeLessThan(300);

/** Another tenant's ordinary work, and no member leaked onto every object of the process. */
async function othersUnaffected() {
  expect(({} as Record<string, unknown>).entityId).toBeUndefined();
  expect(({} as Record<string, unknown>).trust).toBeUndefined();
  ok(await h.call('listWorlds', { key: KEYS.b }), 'tenant B lists');
  const created = await h.call('createWorld', { key: KEYS.b, body: { definition: { identity: { name: 'B' } }, entities: [{ name: 'p', type: 'persona' }, { name: 'u', type: 'user' }] } });
  ok(created, 'tenant B creates');
  ok(await h.call('chat', { key: KEYS.b, params: { id: created.body.result.worldId }, body: { from: 'u', to: 'p', message: 'hello' } }), 'tenant B chats');
}

describe.each(NAMES)('the name %s', (name) => {
  it('works as a user entity, a source, a space, an event type and a relationship end in a world', async () => {
    const world = await h.call('createWorld', { body: {
      definition: {
        identity: { name: 'W' },
        progression: { initialPhase: 'calm', phases: { calm: { description: '' } }, triggers: [{ id: name, condition: { type: 'event_count', eventType: name, threshold: 2 }, targetPhase: 'calm', oneShot: false }] },
      },
      entities: [{ name: 'mara', type: 'persona' }, { name: 'olek', type: 'persona' }],
    } });
    ok(world, 'create');
    const id = world.body.result.worldId;
    const params = { id };
    const mutated = await h.call('mutateWorld', { params, body: { operations: [
      { op: 'add_space', id: name }, { op: 'add_entity', name, type: 'user' },
      { op: 'set_relationship', source: name, target: 'mara', relationship: { trust: 0.5 } },
    ] } });
    ok(mutated, 'mutate');
    expect(mutated.body.result.results.map((r: { ok: boolean }) => r.ok)).toEqual([true, true, true]);
    ok(await h.call('chat', { params, body: { from: name, to: 'mara', message: 'hello there' } }), 'chat');
    ok(await h.call('chat', { params, body: { from: name, to: 'mara', message: 'again' } }), 'chat twice');
    ok(await h.call('dispatchEvent', { params, body: { type: name, sourceEntity: name, targetEntity: 'mara' } }), 'event');
    ok(await h.call('dispatchEvent', { params, body: { type: name, sourceEntity: name } }), 'event to all');
    ok(await h.call('dispatchEvent', { params, body: { type: 'x', spaceId: name } }), 'event to a space');
    const action = await h.call('createAction', { params, body: { name, description: 'a wave' } });
    ok(action, 'create action');
    ok(await h.call('interact', { params, body: { actionId: action.body.result.action.id, actor: name, target: 'mara' } }), 'interact');
    ok(await h.call('worldContext', { params, body: { entityName: name } }), 'context of the user');
    ok(await h.call('worldContext', { params, body: { entityName: 'mara' } }), 'context of mara');
    ok(await h.call('queryWorld', { params, body: { spaceId: name } }), 'query');
    ok(await h.call('tickWorld', { params, body: { seconds: 60 } }), 'tick');
    const snap = await h.call('getWorldSnapshot', { params });
    ok(snap, 'snapshot');
    ok(await h.call('putWorldSnapshot', { params, body: { snapshot: snap.body.result } }), 'import');
    expect((await h.call('getWorldSnapshot', { params })).body.result).toEqual(snap.body.result);
    ok(await h.call('listWorldEvents', { params }), 'events');
    await othersUnaffected();
  });

  it('works as a persona of a world and as a phase', async () => {
    const world = await h.call('createWorld', { body: {
      definition: {
        identity: { name: 'P' },
        progression: { initialPhase: name, phases: { other: { description: 'x' } }, triggers: [{ condition: { type: 'event_count', eventType: 'bell', threshold: 1 }, targetPhase: 'other' }] },
      },
      entities: [{ name, type: 'persona' }, { name: 'me', type: 'user' }, { name: 'olek', type: 'persona' }],
    } });
    ok(world, 'create');
    const params = { id: world.body.result.worldId };
    ok(await h.call('chat', { params, body: { from: 'me', to: name, message: 'hi' } }), 'chat');
    ok(await h.call('chat', { params, body: { from: name, to: 'olek', message: 'hi' } }), 'chat from');
    ok(await h.call('dispatchEvent', { params, body: { type: 'bell' } }), 'event');
    ok(await h.call('tickWorld', { params, body: { seconds: 3600 } }), 'tick');
    ok(await h.call('timeJump', { params, body: { seconds: 3600 } }), 'time-jump');
    const got = await h.call('getWorldPersona', { params: { ...params, pid: name } });
    ok(got, 'get persona');
    ok(await h.call('getWorld', { params }), 'get world');
    const snap = await h.call('getWorldSnapshot', { params });
    ok(await h.call('putWorldSnapshot', { params, body: { snapshot: snap.body.result } }), 'import');
    expect((await h.call('getWorldSnapshot', { params })).body.result).toEqual(snap.body.result);
    ok(await h.call('removeWorldPersona', { params: { ...params, pid: name } }), 'remove persona');
    ok(await h.call('chat', { params, body: { from: 'me', to: 'olek', message: 'still here' } }), 'chat after');
    await othersUnaffected();
  });

  it('works as the source of a standalone persona\'s percepts', async () => {
    const persona = await h.call('createPersona', { body: { config: { identity: { name: 'Solo' } } } });
    ok(persona, 'create');
    const params = { id: persona.body.result.personaId };
    for (let i = 0; i < 2; i++) {
      ok(await h.call('perceive', { params, body: { type: 'greeting', sourceEntity: name } }), 'perceive');
      ok(await h.call('perceive', { params, body: { type: name } }), 'perceive a type');
    }
    ok(await h.call('getPersonaState', { params }), 'state');
    ok(await h.call('promptContext', { params, body: {} }), 'prompt context');
    const snap = await h.call('getPersonaSnapshot', { params });
    ok(await h.call('putPersonaSnapshot', { params, body: { snapshot: snap.body.result } }), 'import');
    expect((await h.call('getPersonaSnapshot', { params })).body.result).toEqual(snap.body.result);
    await othersUnaffected();
  });
});
