// The parts of a world that SPEC.md knows only by method, path and purpose: its personas, actions,
// relationships, event log, interact and time-jump. Their shapes are not shown, so every check here
// is SHOULD-level and reads results defensively: a list may be the result itself or its one array
// member, an id may sit on the record or inside it. Each assertion says what it expected.
import { describe, expect } from 'vitest';
import { setup, check, api, bodyFor, createWorld, ok, role, excerpt, type Client } from './support/index.ts';
import { ACTOR_NAMES, PERSONA_NAMES, directed, mentions } from './support/models.ts';
import { notKept } from './support/diff.ts';

const client = api();
/** Entities ana and ben (personas) and user (a user), see worldBody(). */
let worldId: string;
setup(async () => { worldId = await createWorld(client, 'world-parts'); });

/** The list in a result: the result itself, result[key], or its only array member. */
function listIn(result: unknown, key: string): any[] {
  if (Array.isArray(result)) return result;
  const r = (result ?? {}) as Record<string, unknown>;
  if (Array.isArray(r[key])) return r[key] as any[];
  const arrays = Object.values(r).filter(Array.isArray);
  expect(arrays.length, `expected the result to be a list of ${key} or to hold one (e.g. result.${key}); got ${excerpt(JSON.stringify(result) ?? '', 200)}`).toBe(1);
  return arrays[0] as any[];
}

/** The record in a result: result[key] when it is an object, else the result itself. */
const recordIn = (result: any, key: string): Record<string, any> =>
  (result && typeof result[key] === 'object' && !Array.isArray(result[key]) ? result[key] : result) ?? {};

/** Whether an object with numeric V, A, D (an emotion) appears anywhere in a JSON value. */
function hasVad(value: unknown): boolean {
  if (!value || typeof value !== 'object') return false;
  const o = value as Record<string, unknown>;
  if (['V', 'A', 'D'].every((k) => typeof o[k] === 'number')) return true;
  return Object.values(o).some(hasVad);
}

const is2xx = (status: number) => status >= 200 && status < 300;

/** An entity by its name, or by its id where the member names an id. */
const entityRef = (name: string, ids: Map<string, string>) => (member: string) => (/id$/i.test(member) ? ids.get(name) ?? name : name);

async function entities(c: Client, id: string): Promise<any[]> {
  const q = ok(await c.call('queryWorld', { params: { id }, body: {} }), 'query');
  return Array.isArray(q.entities) ? q.entities : [];
}

async function elapsed(c: Client, id: string): Promise<number> {
  const q = ok(await c.call('queryWorld', { params: { id }, body: {} }), 'query');
  expect(q.progression?.elapsedTime, 'query: progression.elapsedTime must be a number').toBeTypeOf('number');
  return q.progression.elapsedTime;
}

const listPersonas = async (id: string) =>
  listIn(ok(await client.call('listWorldPersonas', { params: { id } }), 'GET /worlds/{id}/personas'), 'personas');

/** Reads a world persona by the first key the deployment accepts: its name, then the ids it reported. */
async function readWorldPersona(id: string, name: string, ...records: unknown[]) {
  const found = records.flatMap((record) => {
    const r = (record ?? {}) as Record<string, unknown>;
    return [r.entityId, r.id, r.personaId];
  });
  const keys = [...new Set([name, ...found].filter((k): k is string => typeof k === 'string'))];
  let last;
  for (const pid of keys) {
    last = await client.call('getWorldPersona', { params: { id, pid } });
    if (is2xx(last.status)) return { pid, reply: last };
  }
  return { pid: undefined, reply: last! };
}

describe('world personas: GET/POST /worlds/{id}/personas, GET/DELETE /worlds/{id}/personas/{pid}', () => {
  check('PART-1', 'lists the personas of the world', async () => {
    const list = await listPersonas(worldId);
    expect(list.some((p) => mentions(p, 'ana')), 'the list should contain the persona ana created with the world').toBe(true);
  });

  check('PART-1', 'adds a persona that is then listed, readable with its emotional state, and an entity of the world', async (ctx) => {
    const { body, shown } = bodyFor(ctx, 'addWorldPersona', [role('the persona name', ['name', 'entityName', 'personaName', 'key'], () => 'cara')], {
      optional: [role('a persona config', ['config', 'personaConfig'], () => ({ identity: { name: 'Cara', role: 'neighbour' } }))],
    });
    const added = ok(await client.call('addWorldPersona', { params: { id: worldId }, body }), `POST /worlds/{id}/personas with ${shown}`);
    const list = await listPersonas(worldId);
    const entry = list.find((p) => mentions(p, 'cara'));
    expect(entry, 'the added persona cara should be listed').toBeDefined();
    const { pid, reply } = await readWorldPersona(worldId, 'cara', recordIn(added, 'persona'), entry);
    expect(pid, `GET /worlds/{id}/personas/{pid} should read cara by name or by the id it was given; last answer ${reply?.status} ${reply ? excerpt(reply.text, 200) : ''}`).toBeDefined();
    const details = ok(reply, 'GET /worlds/{id}/personas/{pid}');
    expect(hasVad(details), 'persona details should carry its current emotional state (an object with V, A, D)').toBe(true);
    const cara = (await entities(client, worldId)).find((e) => e.name === 'cara');
    expect(cara?.type, 'the added persona should be an entity of type persona in query').toBe('persona');
  });

  check('PART-1', "an added persona's configuration is held under personaConfigs of the world, additional members included", async (ctx) => {
    // Resources: a persona of a world has "its configuration … held under personaConfigs of the world, keyed by a name"; PersonaConfig is open.
    const config = { identity: { name: 'Elif', role: 'ferrywoman' }, cfTrait: 'patient' };
    const { body, shown } = bodyFor(ctx, 'addWorldPersona', [
      role('the persona name', ['name', 'entityName', 'personaName', 'key'], () => 'elif'),
      role('a persona config', ['config', 'personaConfig'], () => config),
    ]);
    ok(await client.call('addWorldPersona', { params: { id: worldId }, body }), `POST /worlds/{id}/personas with ${shown}`);
    const { personaConfigs } = ok(await client.call('getWorld', { params: { id: worldId } }), 'GET /worlds/{id}');
    expect(notKept(config, personaConfigs?.elif, '$.personaConfigs.elif'), `GET /worlds/{id}: personaConfigs.elif after POST /worlds/{id}/personas with ${shown}`).toEqual([]);
  });

  check('PART-1', 'removes a persona: it is no longer listed, readable, nor an entity of the world', async (ctx) => {
    const { body, shown } = bodyFor(ctx, 'addWorldPersona', [role('the persona name', ['name', 'entityName', 'personaName', 'key'], () => 'dora')]);
    const added = ok(await client.call('addWorldPersona', { params: { id: worldId }, body }), `POST /worlds/{id}/personas with ${shown}`);
    const { pid } = await readWorldPersona(worldId, 'dora', recordIn(added, 'persona'));
    expect(pid, 'the added persona dora should be readable').toBeDefined();
    ok(await client.call('removeWorldPersona', { params: { id: worldId, pid: pid! } }), 'DELETE /worlds/{id}/personas/{pid}');
    expect((await listPersonas(worldId)).some((p) => mentions(p, 'dora')), 'a removed persona is no longer listed').toBe(false);
    const read = await client.call('getWorldPersona', { params: { id: worldId, pid: pid! } });
    expect(read.status, 'reading a removed persona should answer a 4xx').toBeGreaterThanOrEqual(400);
    expect(read.status, 'reading a removed persona should answer a 4xx').toBeLessThan(500);
    expect((await entities(client, worldId)).map((e) => e.name), 'a removed persona is no longer an entity').not.toContain('dora');
  });
});

describe('actions: GET/POST /worlds/{id}/actions, DELETE /worlds/{id}/actions/{aid}', () => {
  const listActions = async (id: string) =>
    listIn(ok(await client.call('listActions', { params: { id } }), 'GET /worlds/{id}/actions'), 'actions');

  check('PART-2', 'lists default actions in a new world', async () => {
    const id = await createWorld(client, 'actions-defaults');
    expect((await listActions(id)).length, 'a new world should list its default actions').toBeGreaterThan(0);
  });

  check('PART-2', 'creates a custom action, lists it beside the defaults, and deletes it', async (ctx) => {
    const id = await createWorld(client, 'actions-custom');
    const defaults = await listActions(id);
    const name = 'cf-wave';
    const { body, shown } = bodyFor(ctx, 'createAction', [role('the action name', ['name', 'actionName', 'title', 'label', 'key', 'id'], () => name)], {
      optional: [role('a description', ['description', 'summary'], () => 'Waves from across the street.')],
    });
    const created = ok(await client.call('createAction', { params: { id }, body }), `POST /worlds/{id}/actions with ${shown}`);
    const record = recordIn(created, 'action');
    const aid = [record.id, record.actionId, created?.id, created?.actionId].find((x) => typeof x === 'string');
    expect(aid, `the created action should have an id (result.action.id or result.id); got ${excerpt(JSON.stringify(created) ?? '', 200)}`).toBeTypeOf('string');
    const withCustom = await listActions(id);
    expect(withCustom.some((a) => mentions(a, aid) || mentions(a, name)), 'the custom action should be listed').toBe(true);
    expect(withCustom.length, 'the defaults stay listed beside the custom action').toBe(defaults.length + 1);
    ok(await client.call('deleteAction', { params: { id, aid: aid as string } }), 'DELETE /worlds/{id}/actions/{aid}');
    const after = await listActions(id);
    expect(after.some((a) => mentions(a, aid)), 'a deleted custom action is no longer listed').toBe(false);
    expect(after.length, 'the defaults are still listed after the custom action is deleted').toBe(defaults.length);
  });
});

describe('relationships: PUT/GET /worlds/{id}/relationships, DELETE /worlds/{id}/relationships/{rid}', () => {
  check('PART-3', 'upserts a relationship (one record, updated), lists it, shows it in query, and deletes it', async (ctx) => {
    const id = await createWorld(client, 'relationships');
    const ids = new Map((await entities(client, id)).map((e) => [e.name, e.id]));
    const bodyWith = (trust: number) => bodyFor(ctx, 'upsertRelationship', [
      role('the actor', ACTOR_NAMES, entityRef('user', ids)), role('the persona', PERSONA_NAMES, entityRef('ana', ids)), role('the trust', ['trust'], () => trust),
    ]);
    // Relationships are directed (source, then target): a deployment may also record ana → user.
    const toward = (r: any) => directed(r, ['user', ids.get('user')], ['ana', ids.get('ana')]);
    const trustOf = (r: any) => r?.relationship?.trust ?? r?.trust;
    const list = async () => listIn(ok(await client.call('listRelationships', { params: { id } }), 'GET /worlds/{id}/relationships'), 'relationships');
    const upsert = async (trust: number) => {
      const { body, shown } = bodyWith(trust);
      return ok(await client.call('upsertRelationship', { params: { id }, body }), `PUT /worlds/{id}/relationships with ${shown}`);
    };

    const first = await upsert(0.3);
    expect((await list()).filter(toward).map(trustOf), 'one relationship user → ana with trust 0.3').toEqual([0.3]);
    await upsert(0.7);
    const records = (await list()).filter(toward);
    expect(records.map(trustOf), 'an upsert of the same pair updates the one record (trust 0.7), no second one').toEqual([0.7]);

    const q = ok(await client.call('queryWorld', { params: { id }, body: {} }), 'query');
    const bySource = q.relationships?.user ?? q.relationships?.[ids.get('user')];
    const rel = bySource?.ana ?? bySource?.[ids.get('ana')];
    expect(rel?.trust, 'query relationships[user][ana].trust (by name or entity id) should be the upserted trust').toBe(0.7);

    const rid = [recordIn(first, 'relationship').id, first?.id, records[0]?.id].find((x) => typeof x === 'string');
    expect(rid, 'the relationship should have an id (in the upsert result or the list)').toBeTypeOf('string');
    ok(await client.call('deleteRelationship', { params: { id, rid: rid as string } }), 'DELETE /worlds/{id}/relationships/{rid}');
    expect((await list()).filter(toward), 'a deleted relationship is no longer listed').toEqual([]);
  });
});

describe('GET /worlds/{id}/events', () => {
  check('PART-4', 'lists the events dispatched to the world', async () => {
    const id = await createWorld(client, 'event-log');
    for (const type of ['cf-log-knock', 'cf-log-whistle']) {
      ok(await client.call('dispatchEvent', { params: { id }, body: { type, targetEntity: 'ana' } }), `dispatching ${type}`);
    }
    const events = listIn(ok(await client.call('listWorldEvents', { params: { id } }), 'GET /worlds/{id}/events'), 'events');
    const types = events.map((e) => e?.type);
    expect(types, 'the event log should list both dispatched events').toEqual(expect.arrayContaining(['cf-log-knock', 'cf-log-whistle']));
  });
});

describe('POST /worlds/{id}/interact', () => {
  check('PART-5', 'executes an action against a persona and answers its response', { needs: ['allowBillable'] }, async (ctx) => {
    const id = await createWorld(client, 'interact');
    const actions = listIn(ok(await client.call('listActions', { params: { id } }), 'GET /worlds/{id}/actions'), 'actions');
    const actionId = actions.map((a) => a?.id ?? a?.actionId).find((x) => typeof x === 'string');
    expect(actionId, 'a listed action should have an id to interact with').toBeTypeOf('string');
    const ids = new Map((await entities(client, id)).map((e) => [e.name, e.id]));
    const actionName = actions.find((a) => (a?.id ?? a?.actionId) === actionId)?.name;
    const { body, shown } = bodyFor(ctx, 'interact', [
      role('the action', ['actionId', 'action', 'actionName', 'aid', 'name', 'type'], (member) => (/name/i.test(member) && typeof actionName === 'string' ? actionName : actionId)),
      role('the actor', ACTOR_NAMES, entityRef('user', ids)), role('the persona', PERSONA_NAMES, entityRef('ana', ids)),
    ]);
    const result = ok(await client.call('interact', { params: { id }, body }), `POST /worlds/{id}/interact with ${shown}`);
    expect(hasVad(result), 'the result should carry the persona\'s response (an emotion with V, A, D)').toBe(true);
  });
});

describe('POST /worlds/{id}/time-jump', () => {
  check('PART-6', 'advances simulated time: elapsedTime grows, in proportion to the time jumped', async (ctx) => {
    const id = await createWorld(client, 'time-jump');
    // A jump and one six times as long, in the unit the served document's member names (600 s, 10 min, 1 h…).
    const UNITS: Record<string, number> = { seconds: 600, secs: 600, minutes: 10, mins: 10, hours: 1, days: 1 };
    const jump = (times: number) => bodyFor(ctx, 'timeJump', [
      role('the time to jump', ['seconds', 'secs', 'minutes', 'mins', 'hours', 'days', 'duration', 'amount', 'delta', 'by'], (member) => (UNITS[member.toLowerCase()] ?? 600) * times),
    ]);
    // The unit of elapsedTime is not shown: compare two jumps instead of expecting a number.
    const t0 = await elapsed(client, id);
    const first = jump(1);
    ok(await client.call('timeJump', { params: { id }, body: first.body }), `POST /worlds/{id}/time-jump with ${first.shown}`);
    const t1 = await elapsed(client, id);
    const second = jump(6);
    ok(await client.call('timeJump', { params: { id }, body: second.body }), `POST /worlds/{id}/time-jump with ${second.shown}`);
    const t2 = await elapsed(client, id);
    expect(t1, 'progression.elapsedTime after a jump of 600 seconds').toBeGreaterThan(t0);
    const ratio = (t2 - t1) / (t1 - t0);
    expect(ratio, `a jump 6 times as long should advance elapsedTime 6 times as much (got ${t1 - t0}, then ${t2 - t1})`).toBeGreaterThan(5.4);
    expect(ratio, `a jump 6 times as long should advance elapsedTime 6 times as much (got ${t1 - t0}, then ${t2 - t1})`).toBeLessThan(6.6);
  });
});
