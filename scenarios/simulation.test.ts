// Simulation of a world: chat, events, tick (and the simulated time it advances), query, context (and
// the values SPEC.md defines for it), batch mutations, snapshots, the additional members of open
// objects, and the lower bound of the emotion and mood vectors in what these operations answer.
import { describe, expect } from 'vitest';
import { setup, check, api, createWorld, fails, ok, type Client } from './support/index.ts';
import { differences, notKept, withoutVolatile } from './support/diff.ts';

const client = api();
/** The world most checks read: entities ana and ben (personas) and user (a user), see worldBody(). */
let worldId: string;
setup(async () => { worldId = await createWorld(client, 'simulation'); });

const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/** Checks the members of one EntityResponse that SPEC.md lists as always there. */
function expectEntityResponse(response: unknown, where: string): void {
  expect(response, `${where}: expected an EntityResponse object`).toBeTypeOf('object');
  const r = response as Record<string, any>;
  expect(r, `${where}: EntityResponse needs emotion`).toHaveProperty('emotion');
  for (const k of ['V', 'A', 'D']) expect(r.emotion?.[k], `${where}: emotion.${k} must be a number`).toBeTypeOf('number');
}

function expectAffectedItems(list: unknown, where: string): void {
  expect(Array.isArray(list), `${where}: expected an array of affected items`).toBe(true);
  for (const [i, item] of (list as any[]).entries()) {
    expect(item?.entityName, `${where}[${i}].entityName must be a string`).toBeTypeOf('string');
    expectEntityResponse(item?.response, `${where}[${i}].response`);
  }
}

async function query(c: Client, id: string): Promise<Record<string, any>> {
  const result = ok(await c.call('queryWorld', { params: { id }, body: {} }), 'POST /worlds/{id}/query');
  expect(Array.isArray(result.entities), 'query: expected entities to be an array').toBe(true);
  return result;
}

const entityNames = (q: Record<string, any>) => (q.entities as Array<{ name?: string }>).map((e) => e.name);

/**
 * Every emotion and mood vector in a response body: objects with numeric V, A, D reached under a
 * member named emotion, mood, emotionSnapshot or emotion_history (or `vad` inside emotion / mood).
 * Deltas and stimuli (velocity, prev_emotion_delta, vadDelta, vadOverride) are not states: left out.
 */
function emotionVectors(body: unknown): Array<{ path: string; vad: { V: number; A: number; D: number } }> {
  const out: Array<{ path: string; vad: { V: number; A: number; D: number } }> = [];
  const STATE_KEYS = new Set(['emotion', 'mood', 'emotionSnapshot', 'emotion_history']);
  const walk = (node: unknown, path: string[], named: string[]) => {
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    const last = named[named.length - 1];
    const parent = named[named.length - 2];
    if (isNum(o.V) && isNum(o.A) && isNum(o.D)
      && (STATE_KEYS.has(last) || (last === 'vad' && (parent === 'emotion' || parent === 'mood')))) {
      out.push({ path: path.join('.'), vad: { V: o.V, A: o.A, D: o.D } });
    }
    if (Array.isArray(node)) node.forEach((v, i) => walk(v, [...path, String(i)], named));
    else for (const [k, v] of Object.entries(o)) walk(v, [...path, k], [...named, k]);
  };
  walk(body, [], []);
  return out;
}

describe('POST /worlds/{id}/chat', () => {
  check('SIM-1', 'answers entityName, response, affected and groupAwareness for the recipient', async () => {
    const result = ok(await client.call('chat', { params: { id: worldId }, body: { from: 'user', to: 'ana', message: 'Hello Ana, how are you today?' } }), 'chat');
    const q = await query(client, worldId);
    const ana = (q.entities as any[]).find((e) => e.name === 'ana');
    // The recipient may be named by its name or by its entity id (SPEC.md does not say which key).
    expect([ 'ana', ana?.id ], `entityName should name the recipient ana, got ${JSON.stringify(result.entityName)}`).toContain(result.entityName);
    expectEntityResponse(result.response, 'chat result.response');
    expectAffectedItems(result.affected, 'chat result.affected');
    expectAffectedItems(result.groupAwareness, 'chat result.groupAwareness');
  });
});

describe('POST /worlds/{id}/events', () => {
  check('SIM-2', 'answers the event type, the affected entities with their responses and the resulting events', async () => {
    const type = 'cf-sim-doorbell';
    const result = ok(await client.call('dispatchEvent', {
      params: { id: worldId },
      body: { type, sourceEntity: 'user', targetEntity: 'ana', payload: { note: 'the doorbell rings' } },
    }), 'dispatching an event');
    expect(result.type, 'result.type should be the dispatched type').toBe(type);
    expectAffectedItems(result.affected, 'event result.affected');
    expect(result.affected.length, 'an event aimed at the persona ana should affect at least one entity').toBeGreaterThanOrEqual(1);
    expect(Array.isArray(result.events), 'event result.events must be an array').toBe(true);
  });
});

describe('recent events: snapshot recentEvents and context whatHappened', () => {
  check('SIM-12', 'two events dispatched to ana are both in the snapshot\'s recentEvents and in whatHappened of her context', async () => {
    const before = ok(await client.call('worldContext', { params: { id: worldId }, body: { entityName: 'ana' } }), 'context of ana');
    const spaceId = before.whoAmI?.spaceId;
    // Two events, in ana's space and aimed at her: whatever a deployment counts as recent or as what
    // an entity witnessed, the last two events of her own space are.
    const types = ['cf-sim-knock', 'cf-sim-letter'];
    for (const type of types) {
      ok(await client.call('dispatchEvent', { params: { id: worldId }, body: { type, sourceEntity: 'user', targetEntity: 'ana', ...(typeof spaceId === 'string' ? { spaceId } : {}), payload: { note: type } } }), `dispatching ${type}`);
    }
    const typesIn = (events: unknown) => (Array.isArray(events) ? events.map((e) => e?.type) : []);
    const snap = ok(await client.call('getWorldSnapshot', { params: { id: worldId } }), 'GET /worlds/{id}/snapshot');
    expect(typesIn(snap.recentEvents), 'snapshot recentEvents should hold both events just dispatched').toEqual(expect.arrayContaining(types));
    const ctx = ok(await client.call('worldContext', { params: { id: worldId }, body: { entityName: 'ana' } }), 'context of ana');
    expect(typesIn(ctx.whatHappened), 'whatHappened of ana\'s context should hold both events just dispatched to her').toEqual(expect.arrayContaining(types));
  });
});

describe('POST /worlds/{id}/tick', () => {
  check('SIM-3', 'answers the affected entities and the events of the advance', async () => {
    const result = ok(await client.call('tickWorld', { params: { id: worldId }, body: { seconds: 30 } }), 'tick');
    expectAffectedItems(result.affected, 'tick result.affected');
    expect(Array.isArray(result.events), 'tick result.events must be an array').toBe(true);
  });
});

describe('simulated time: progression.elapsedTime', () => {
  /** progression.elapsedTime of a world, as query reports it. */
  async function elapsedTime(id: string): Promise<number> {
    const t = (await query(client, id)).progression?.elapsedTime;
    expect(t, 'query: progression.elapsedTime must be a number').toBeTypeOf('number');
    return t;
  }
  // A world whose time runs at the ratio 1 (the definition's `time`), so that a tick's seconds are simulated seconds.
  const timed = () => createWorld(client, 'tick-time', { time: { type: 'realtime', ratio: 1 } });

  check('SIM-13', 'a tick advances simulated time: progression.elapsedTime grows', async () => {
    const id = await timed();
    const t0 = await elapsedTime(id);
    ok(await client.call('tickWorld', { params: { id }, body: { seconds: 30 } }), 'a tick of 30 seconds');
    expect(await elapsedTime(id), `progression.elapsedTime after a tick of 30 seconds (it was ${t0})`).toBeGreaterThan(t0);
  });

  check('SIM-14', 'elapsedTime grows by the seconds each tick sends, fractions included', async () => {
    const id = await timed();
    const start = await elapsedTime(id);
    let sent = 0;
    for (const seconds of [1.5, 0.25, 30]) {
      const before = await elapsedTime(id);
      ok(await client.call('tickWorld', { params: { id }, body: { seconds } }), `a tick of ${seconds} seconds`);
      sent += seconds;
      const after = await elapsedTime(id);
      expect(Math.abs(after - before - seconds), `a tick of ${seconds} s moved progression.elapsedTime from ${before} to ${after}`).toBeLessThan(1e-6);
    }
    expect(Math.abs(await elapsedTime(id) - start - sent), `ticks of ${sent} s in all`).toBeLessThan(1e-6);
  });
});

describe('open objects return their additional members', () => {
  check('SIM-15', "a dispatched event's payload comes back whole in the snapshot's recentEvents and the context's whatHappened", async () => {
    const id = await createWorld(client, 'open-payload');
    const spaceId = ok(await client.call('worldContext', { params: { id }, body: { entityName: 'ana' } }), 'context of ana').whoAmI?.spaceId;
    const type = 'cf-sim-bell';
    const payload = { cfNote: 'the bell of the old tower', cfCount: 3, cfNested: { loud: true, tones: ['low', 'high'] } };
    ok(await client.call('dispatchEvent', { params: { id }, body: { type, sourceEntity: 'user', targetEntity: 'ana', ...(typeof spaceId === 'string' ? { spaceId } : {}), payload } }), 'dispatching an event with a payload');
    const snap = ok(await client.call('getWorldSnapshot', { params: { id } }), 'GET /worlds/{id}/snapshot');
    const recent = (Array.isArray(snap.recentEvents) ? snap.recentEvents : []).find((e: any) => e?.type === type);
    expect(recent, `the event ${type} just dispatched should be among the snapshot's recentEvents`).toBeDefined();
    expect(notKept(payload, recent.payload, '$.payload'), "the dispatched payload's members in the snapshot's recentEvents").toEqual([]);
    const ctx = ok(await client.call('worldContext', { params: { id }, body: { entityName: 'ana' } }), 'context of ana');
    const seen = (Array.isArray(ctx.whatHappened) ? ctx.whatHappened : []).find((e: any) => e?.type === type);
    expect(seen, `the event ${type} just dispatched to ana should be in whatHappened of her context`).toBeDefined();
    expect(notKept(payload, seen.payload, '$.payload'), "the dispatched payload's members in whatHappened").toEqual([]);
  });

  check('SIM-15', 'an imported environment comes back with its additional members in the next export', async () => {
    const id = await createWorld(client, 'open-environment');
    const snap = ok(await client.call('getWorldSnapshot', { params: { id } }), 'export');
    const extras = { cfScent: 'rain on stone', cfLayers: { fog: 0.4, sounds: ['gulls', 'bells'] } };
    ok(await client.call('putWorldSnapshot', { params: { id }, body: { snapshot: { ...snap, environment: { ...(snap.environment ?? {}), ...extras } } } }), 'import of the snapshot with an environment holding additional members');
    const after = ok(await client.call('getWorldSnapshot', { params: { id } }), 'export after the import');
    expect(notKept(extras, after.environment, '$.environment'), 'additional members of the imported environment (open)').toEqual([]);
  });
});

describe('POST /worlds/{id}/query', () => {
  check('SIM-4', 'answers entities (with the created ones), spaces, knowledge, progression and relationships', async () => {
    const q = await query(client, worldId);
    const names = entityNames(q);
    for (const name of ['ana', 'ben', 'user']) expect(names, `query entities should include the created entity ${name}`).toContain(name);
    const byName = new Map((q.entities as any[]).map((e) => [e.name, e]));
    expect(byName.get('ana')?.type, 'ana was created with type persona').toBe('persona');
    expect(byName.get('user')?.type, 'user was created with type user').toBe('user');
    for (const e of q.entities as any[]) expect(e.id, `entity ${e.name}: id must be a string`).toBeTypeOf('string');
    expect(Array.isArray(q.spaces), 'query: spaces must be an array').toBe(true);
    expect(q.knowledge, 'query: knowledge must be an object').toBeTypeOf('object');
    expect(Array.isArray(q.knowledge?.facts), 'query: knowledge.facts must be an array').toBe(true);
    expect(q.progression, 'query: progression must be an object').toBeTypeOf('object');
    expect(q.progression?.currentPhase, 'query: progression.currentPhase must be a string').toBeTypeOf('string');
    expect(q.relationships, 'query: relationships must be an object (a two-level map)').toBeTypeOf('object');
  });
});

describe('POST /worlds/{id}/context', () => {
  check('SIM-5', 'answers the context of the named entity: whoAmI is that entity', async () => {
    for (const [name, type] of [['ana', 'persona'], ['user', 'user']] as const) {
      const ctx = ok(await client.call('worldContext', { params: { id: worldId }, body: { entityName: name } }), `context of ${name}`);
      expect(ctx.whoAmI, `context of ${name}: whoAmI must be an entity`).toBeTypeOf('object');
      expect(ctx.whoAmI?.name, `context of ${name}: whoAmI.name`).toBe(name);
      expect(ctx.whoAmI?.type, `context of ${name}: whoAmI.type`).toBe(type);
      expect(ctx.whereAmI, `context of ${name}: whereAmI must be a space`).toBeTypeOf('object');
      expect(Array.isArray(ctx.whoIsHere), `context of ${name}: whoIsHere must be an array`).toBe(true);
      expect(Array.isArray(ctx.whatHappened), `context of ${name}: whatHappened must be an array`).toBe(true);
      expect(ctx.currentPhase, `context of ${name}: currentPhase must be a string`).toBeTypeOf('string');
    }
  });
});

describe('POST /worlds/{id}/context: the values SPEC.md defines', () => {
  check('SIM-5', "whoIsHere holds the entities of the space, worldIdentity and worldCulture are the definition's, knownFacts among the world's facts, currentPhase the progression's; a persona's context has its personaState", async () => {
    const culture = { coreValues: ['courage', 'craft'], normMap: { honesty: 0.8 }, socialProtocol: { greetingStyle: 'bow', addressSystem: 'title', tabooTopics: ['debts'] } };
    const facts = [
      { id: 'cf-fact-well', content: 'The well is dry.', visibility: 'public', knownBy: ['ana'] },
      { id: 'cf-fact-key', content: 'The key is under the mat.', visibility: 'public', knownBy: ['ben'] },
    ];
    const id = await createWorld(client, 'context-values', { culture, knowledge: { facts, defaultVisibility: 'public' } });
    const { world } = ok(await client.call('getWorld', { params: { id } }), 'GET /worlds/{id}');
    const definition = world?.definition ?? {};
    const q = await query(client, id);
    const worldFacts = new Map((Array.isArray(q.knowledge?.facts) ? q.knowledge.facts : []).map((f: any) => [f?.id, f]));
    for (const [name, type] of [['ana', 'persona'], ['user', 'user']] as const) {
      const ctx = ok(await client.call('worldContext', { params: { id }, body: { entityName: name } }), `context of ${name}`);
      const me = ctx.whoAmI ?? {};
      expect(me.name, `context of ${name}: whoAmI.name`).toBe(name);
      expect(ctx.whereAmI?.id, `context of ${name}: whereAmI is the space of whoAmI (spaceId ${JSON.stringify(me.spaceId)})`).toBe(me.spaceId);
      // Who is here: the entities whose spaceId is that space, as query shows them; whoAmI may be left out.
      const here = (q.entities as any[]).filter((e) => e?.spaceId === me.spaceId).map((e) => e.id);
      const listed = (Array.isArray(ctx.whoIsHere) ? ctx.whoIsHere : []).map((e: any) => e?.id);
      expect(listed.filter((e: unknown) => !here.includes(e)), `context of ${name}: whoIsHere lists entities that query does not place in space ${me.spaceId}`).toEqual([]);
      expect(here.filter((e) => e !== me.id && !listed.includes(e)), `context of ${name}: entities of space ${me.spaceId} (per query) missing from whoIsHere`).toEqual([]);
      if (definition.identity !== undefined) expect(differences(definition.identity, ctx.worldIdentity), `context of ${name}: worldIdentity, the identity object of the definition`).toEqual([]);
      if (definition.culture !== undefined) expect(differences(definition.culture, ctx.worldCulture), `context of ${name}: worldCulture, the culture object of the definition`).toEqual([]);
      expect(Array.isArray(ctx.knownFacts), `context of ${name}: knownFacts must be an array of facts`).toBe(true);
      const unknown = (ctx.knownFacts as any[]).filter((f) => !worldFacts.has(f?.id) || (worldFacts.get(f?.id) as any)?.content !== f?.content);
      expect(unknown.map((f) => JSON.stringify(f).slice(0, 100)), `context of ${name}: knownFacts that are not facts of the world (query knowledge.facts)`).toEqual([]);
      expect(ctx.currentPhase, `context of ${name}: currentPhase, the progression's`).toBe(q.progression?.currentPhase);
      if (type === 'persona') expect(ctx.personaState, `context of ${name} (a persona): personaState`).toBeTypeOf('object');
    }
  });
});

describe('POST /worlds/{id}/mutate', () => {
  check('SIM-6', 'answers one result per operation', async () => {
    const id = await createWorld(client, 'mutate-all-ok');
    const operations = [
      { op: 'add_entity', name: 'mut-one', type: 'user' },
      { op: 'add_entity', name: 'mut-two', type: 'user' },
    ];
    const result = ok(await client.call('mutateWorld', { params: { id }, body: { operations } }), 'mutate');
    expect(Array.isArray(result.results), 'mutate: result.results must be an array').toBe(true);
    expect(result.results.length, 'mutate: one result per operation').toBe(operations.length);
    for (const [i, r] of (result.results as any[]).entries()) {
      expect(r?.op, `results[${i}].op`).toBe('add_entity');
      expect(r?.ok, `results[${i}].ok: the add_entity operation (SPEC.md's sample) should succeed`).toBe(true);
    }
    const names = entityNames(await query(client, id));
    expect(names, 'the added entities appear in query').toEqual(expect.arrayContaining(['mut-one', 'mut-two']));
  });

  check('SIM-7', 'reports a failing operation in its own result with ok false and an error string; the batch answers a result envelope', async () => {
    const id = await createWorld(client, 'mutate-one-fails');
    // An operation the service cannot perform: an op name no implementation knows.
    const operations = [
      { op: 'add_entity', name: 'mut-before', type: 'user' },
      { op: 'cf_no_such_operation', name: 'mut-never' },
      { op: 'add_entity', name: 'mut-after', type: 'user' },
    ];
    const reply = await client.call('mutateWorld', { params: { id }, body: { operations } });
    const result = ok(reply, 'a batch with one failing operation (expected a result envelope, not an error)');
    expect(Array.isArray(result.results), 'mutate: result.results must be an array').toBe(true);
    expect(result.results.length, 'mutate: one result per operation, the failed one included').toBe(operations.length);
    const failed = (result.results as any[]).filter((r) => r?.ok === false);
    expect(failed.length, 'exactly the unknown operation should be reported with ok false').toBe(1);
    expect(failed[0].op, 'the failed entry names its op').toBe('cf_no_such_operation');
    expect(failed[0].error, 'the failed entry carries an error string').toBeTypeOf('string');
    expect(failed[0].error.length, 'the error string should not be empty').toBeGreaterThan(0);
  });

  check('SIM-8', 'applies the other operations of a batch when one fails', async () => {
    const id = await createWorld(client, 'mutate-others-apply');
    const operations = [
      { op: 'add_entity', name: 'mut-before', type: 'user' },
      { op: 'cf_no_such_operation', name: 'mut-never' },
      { op: 'add_entity', name: 'mut-after', type: 'user' },
    ];
    const result = ok(await client.call('mutateWorld', { params: { id }, body: { operations } }), 'mutate');
    const okOnes = (result.results as any[] ?? []).filter((r) => r?.op === 'add_entity');
    expect(okOnes.map((r) => r.ok), 'both add_entity operations should succeed').toEqual([true, true]);
    const names = entityNames(await query(client, id));
    expect(names, 'the operations around the failing one are applied').toEqual(expect.arrayContaining(['mut-before', 'mut-after']));
    expect(names, 'the failing operation changes nothing').not.toContain('mut-never');
  });
});

describe('GET and PUT /worlds/{id}/snapshot', () => {
  check('SIM-9', 'GET answers the listed members; PUT of that snapshot answers {ok: true}', async () => {
    const snap = ok(await client.call('getWorldSnapshot', { params: { id: worldId } }), 'GET snapshot');
    for (const k of ['id', 'definition', 'entities', 'spaces', 'environment', 'createdAt', 'knowledge', 'progression', 'recentEvents', 'interaction']) {
      expect(snap, `world snapshot member ${k}`).toHaveProperty(k);
    }
    expect(snap.id, 'snapshot.id must be a string').toBeTypeOf('string');
    expect(snap.createdAt, 'snapshot.createdAt must be a number').toBeTypeOf('number');
    expect(Array.isArray(snap.entities) && Array.isArray(snap.spaces) && Array.isArray(snap.recentEvents), 'entities, spaces and recentEvents must be arrays').toBe(true);
    const names = (snap.entities as any[]).map((e) => e.name);
    expect(names, 'the snapshot holds the world\'s entities').toEqual(expect.arrayContaining(['ana', 'ben', 'user']));
    for (const e of snap.entities as any[]) {
      for (const k of ['id', 'type', 'name', 'spaceId', 'profile', 'relationships']) expect(e, `snapshot entity ${e.name}: member ${k}`).toHaveProperty(k);
      expect(Array.isArray(e.relationships), `snapshot entity ${e.name}: relationships must be an array`).toBe(true);
      if (e.type === 'persona') expect(e, `snapshot entity ${e.name} (a persona): member personaSnapshot`).toHaveProperty('personaSnapshot');
    }
    const put = ok(await client.call('putWorldSnapshot', { params: { id: worldId }, body: { snapshot: snap } }), 'PUT snapshot');
    expect(put.ok, 'PUT /worlds/{id}/snapshot answers {ok: true}').toBe(true);
  });

  check('SIM-10', 'export, import, export gives the same document, also after the world changed in between', async () => {
    const id = await createWorld(client, 'snapshot-round-trip');
    ok(await client.call('chat', { params: { id }, body: { from: 'user', to: 'ana', message: 'A first message to remember.' } }), 'chat');
    ok(await client.call('dispatchEvent', { params: { id }, body: { type: 'thunder' } }), 'event');
    const first = ok(await client.call('getWorldSnapshot', { params: { id } }), 'first export');
    // Read again at once: what differs between the two (an export's own time) is no state of the world.
    const again = ok(await client.call('getWorldSnapshot', { params: { id } }), 'first export, read again');
    // Change the world, so that the import has something to restore.
    ok(await client.call('chat', { params: { id }, body: { from: 'user', to: 'ben', message: 'Something that happens after the export.' } }), 'chat');
    ok(await client.call('tickWorld', { params: { id }, body: { seconds: 120 } }), 'tick');
    ok(await client.call('putWorldSnapshot', { params: { id }, body: { snapshot: first } }), 'import of the first export');
    const second = ok(await client.call('getWorldSnapshot', { params: { id } }), 'second export');
    expect(differences(withoutVolatile(first, first, again), withoutVolatile(second, first, again)), 'members of the second export that differ from the imported first export').toEqual([]);
  });

  check('SIM-10', 'an imported snapshot is what the next export returns (a changed environment is read back)', async () => {
    const id = await createWorld(client, 'snapshot-import');
    const snap = ok(await client.call('getWorldSnapshot', { params: { id } }), 'export');
    const weather = `cf-weather-${Date.now()}`;
    const changed = { ...snap, environment: { ...(snap.environment ?? {}), weather } };
    ok(await client.call('putWorldSnapshot', { params: { id }, body: { snapshot: changed } }), 'import');
    const after = ok(await client.call('getWorldSnapshot', { params: { id } }), 'export after import');
    expect(after.environment?.weather, 'the environment of the imported snapshot should be the world\'s').toBe(weather);
  });
});

describe('emotion and mood vectors of responses', () => {
  check('SIM-11', 'stay at or above -1 in chat, event, tick, context and snapshot responses, under strongly negative stimuli', async () => {
    const id = await createWorld(client, 'vad-bounds');
    const bodies: Array<{ what: string; body: unknown }> = [];
    const keep = (what: string, body: unknown) => { bodies.push({ what, body }); };
    const low = { V: -1, A: -1, D: -1 };
    const hostile = { goal_relevance: 1, goal_congruence: -1, expectedness: -1, controllability: -1, agency: -1, norm_compatibility: -1 };
    for (let n = 0; n < 4; n++) {
      const reply = await client.call('dispatchEvent', {
        params: { id },
        body: { type: 'cf-assault', sourceEntity: 'user', targetEntity: 'ana', appraisal: hostile, stimulus: { vadDelta: low, bodyBudgetDelta: -1, needsDelta: { autonomy: -1, competence: -1, relatedness: -1 } } },
      });
      keep(`event ${n + 1}`, ok(reply, 'a strongly negative event'));
    }
    keep('event with vadOverride', ok(await client.call('dispatchEvent', { params: { id }, body: { type: 'cf-override', targetEntity: 'ben', stimulus: { vadOverride: low, vadDelta: low } } }), 'event'));
    for (const message of ['I hate you, you are worthless and everyone despises you.', 'Get out. Nobody will ever help you, you are doomed.']) {
      keep('chat', ok(await client.call('chat', { params: { id }, body: { from: 'user', to: 'ana', message } }), 'a hostile chat'));
    }
    keep('tick', ok(await client.call('tickWorld', { params: { id }, body: { seconds: 5 } }), 'tick'));
    for (const name of ['ana', 'ben']) keep(`context of ${name}`, ok(await client.call('worldContext', { params: { id }, body: { entityName: name } }), 'context'));
    keep('snapshot', ok(await client.call('getWorldSnapshot', { params: { id } }), 'snapshot'));

    const vectors = bodies.flatMap(({ what, body }) => emotionVectors(body).map((v) => ({ ...v, what })));
    // The walk must find the vectors SPEC.md puts there (chat response.emotion at least), or it proves nothing.
    expect(vectors.filter((v) => v.what === 'chat').length, 'expected emotion vectors in the chat responses').toBeGreaterThan(0);
    const below = vectors.filter(({ vad }) => vad.V < -1 || vad.A < -1 || vad.D < -1)
      .map((v) => `${v.what}: ${v.path} = ${JSON.stringify(v.vad)}`);
    expect(below, 'emotion and mood vectors with a member below -1').toEqual([]);
  });
});
