// Standalone personas: create, read, PATCH (accepted, then read back through GET and the list), list with a cursor, and the runtime operations (perceive,
// emotion override, tick, state, annotate and prompt-context, next-response, snapshots).
import { describe, expect, type TestContext } from 'vitest';
import { check, api, bodyFor, createPersona, idOf, listItems, named, notRun, ok, pageSize, pagingOf, role, servedBodyProblem, walkList, type Client } from './support/index.ts';
import { differences } from './support/diff.ts';

const client = api();

type Vad = { V: number; A: number; D: number };
const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const dist = (a: Vad, b: Vad) => Math.hypot(a.V - b.V, a.A - b.A, a.D - b.D);
/** Personas listed, at least, when no page size can be asked for: past the default pages lists commonly use (10, 20, 25, 50). */
const DEFAULT_PAGE_BOUND = 51;
/** Tolerance when reading back numbers that went through a float pipeline. */
const TOLERANCE = 1e-3;

function expectVad(value: unknown, where: string): Vad {
  expect(value, `${where}: expected a VAD object`).toBeTypeOf('object');
  for (const k of ['V', 'A', 'D']) expect((value as Record<string, unknown>)?.[k], `${where}.${k} must be a number`).toBeTypeOf('number');
  return value as Vad;
}

const state = async (c: Client, id: string) => ok(await c.call('getPersonaState', { params: { id } }), 'GET /personas/{id}/state');
const snapshot = async (c: Client, id: string) => ok(await c.call('getPersonaSnapshot', { params: { id } }), 'GET /personas/{id}/snapshot');
/** SPEC.md: perceive takes "an event"; a deployment's document may wrap it (`{event: …}`): the form its schema accepts. */
const perceiveBody = (event: Record<string, unknown>) => (servedBodyProblem('perceive', event) && !servedBodyProblem('perceive', { event }) ? { event } : event);
const perceive = async (c: Client, id: string, event: Record<string, unknown>) =>
  ok(await c.call('perceive', { params: { id }, body: perceiveBody(event) }), 'POST /personas/{id}/perceive with an event');



describe('POST /personas and GET /personas/{id}', () => {
  check('PERS-1', 'answers {personaId, createdAt}; the persona is then readable with its configuration', async () => {
    const name = named('persona-readable');
    const created = ok(await client.call('createPersona', { body: { config: { identity: { name, role: 'baker' } } } }), 'POST /personas');
    expect(created.personaId, 'result.personaId must be a string').toBeTypeOf('string');
    expect(created.createdAt, 'result.createdAt must be a number').toBeTypeOf('number');
    const read = ok(await client.call('getPersona', { params: { id: created.personaId } }), 'GET /personas/{id}');
    expect(JSON.stringify(read), 'the persona info and config should hold the name it was created with').toContain(JSON.stringify(name));
  });
});

describe('PATCH /personas/{id}', () => {
  check('PERS-2', 'answers {ok: true}', async () => {
    const id = await createPersona(client, 'persona-patch');
    const result = ok(await client.call('updatePersona', { params: { id }, body: {} }), 'PATCH /personas/{id} with {}');
    expect(result.ok, 'PATCH /personas/{id} answers {ok: true}').toBe(true);
  });

  /**
   * A PATCH of the configuration's identity.speakingStyle (a string member SPEC.md lists), with the
   * body the served document describes: SPEC.md shows only "object", the empty one changing nothing.
   * The configuration as a member, or its identity (at the top: a merge patch of the configuration).
   */
  const restyle = (ctx: TestContext, style: string) =>
    bodyFor(ctx, 'updatePersona', [role('the configuration', ['config', 'configuration'], () => ({ identity: { speakingStyle: style } }))], {
      or: [[role('the identity', ['identity'], () => ({ speakingStyle: style }))]],
    });

  check('PERS-13', 'accepts a change of the configuration', async (ctx) => {
    const id = await createPersona(client, 'persona-patch-accepted');
    const { body, shown } = restyle(ctx, named('speaks tersely'));
    ok(await client.call('updatePersona', { params: { id }, body }), `PATCH /personas/{id} with ${shown}`);
  });

  check('PERS-14', 'an accepted change of the configuration is read back by GET /personas/{id}, and GET /personas does not list it as before', async (ctx) => {
    const label = 'persona-patch-read-back';
    const [before, after] = [named('speaks plainly'), named('speaks tersely')];
    const id = await createPersona(client, label, { identity: { name: named(label), speakingStyle: before } });
    const { body, shown } = restyle(ctx, after);
    const reply = await client.call('updatePersona', { params: { id }, body });
    // A refusal is PERS-13's (SPEC.md shows no member of this body): nothing changed, nothing to read back.
    if (reply.status < 200 || reply.status >= 300) notRun(ctx, `PATCH /personas/{id} with ${shown} was refused (${reply.status}): PERS-13 reports it; no change to read back`);
    // "persona info and config": where GET shows it is not shown, so the new value anywhere in the answer.
    const read = JSON.stringify(ok(await client.call('getPersona', { params: { id } }), 'GET /personas/{id} after the PATCH'));
    expect(read, `GET /personas/{id} should show the speakingStyle that PATCH /personas/{id} with ${shown} set (it answered ${reply.status})`).toContain(JSON.stringify(after));
    // The list's records are not shown: one that shows no configuration is legal, one that shows the old one is stale.
    const entry = JSON.stringify((await walkList(client, 'listPersonas', { maxPages: 500 })).items.find((x) => idOf(x) === id) ?? null);
    const stale = entry.includes(JSON.stringify(before)) && !entry.includes(JSON.stringify(after));
    expect(stale, `GET /personas lists the persona with the speakingStyle it had before the PATCH: ${entry.slice(0, 300)}`).toBe(false);
  });
});

describe('GET /personas', () => {
  // SPEC.md: "cursor-based pagination"; its parameters are not shown: they come from the served document.
  check('PERS-3', 'pages with a cursor: every persona once, none missing', async (ctx) => {
    const paging = pagingOf('listPersonas');
    const lacking = [!paging.cursorParam && 'a cursor query parameter', !paging.nextMember && 'a result member giving the next cursor'].filter(Boolean);
    if (lacking.length) notRun(ctx, `the served document of GET /personas declares no ${lacking.join(', ')} (SPEC.md does not show them)`);
    if (!paging.sizeParam) {
      // No page size to ask for: more personas than a default page holds (bounded: DEFAULT_PAGE_BOUND listed).
      const listed = (await walkList(client, 'listPersonas', { maxPages: 500 })).ids.length;
      const mine = [await createPersona(client, 'persona-list-0')];
      for (let n = listed + 1; n <= DEFAULT_PAGE_BOUND; n++) mine.push(await createPersona(client, `persona-list-${n}`));
      const paged = await walkList(client, 'listPersonas', { maxPages: 500 });
      expect(paged.repeated, `personas listed again while following ${paging.nextMember}`).toEqual([]);
      expect(paged.complete, 'the cursor walk of GET /personas did not end after 500 pages').toBe(true);
      expect(paged.ids, 'the walk should reach every persona created').toEqual(expect.arrayContaining(mine));
      if (paged.pages < 2) notRun(ctx, `the served document of GET /personas declares no page-size parameter, and its default page held all ${paged.ids.length} personas: no cursor was followed`);
      return;
    }
    const size = pageSize(paging, 2);
    if (size > 20) notRun(ctx, `the served document's smallest page of GET /personas holds ${size}: too many personas to create to see a second page`);
    const mine = [];
    for (let n = 0; n <= size; n++) mine.push(await createPersona(client, `persona-list-${n}`));
    // A page holding more than asked: the page size is ignored (the walk below would then see one page).
    const first = await client.call('listPersonas', { query: { [paging.sizeParam!]: String(size) } });
    const firstItems = listItems('listPersonas', ok(first, 'GET /personas'));
    expect(firstItems?.length ?? 0, `GET /personas with ${paging.sizeParam}=${size} answered more personas than asked`).toBeLessThanOrEqual(size);
    const paged = await walkList(client, 'listPersonas', { size, maxPages: 500 });
    expect(paged.repeated, `personas listed again while following ${paging.nextMember} with ${paging.sizeParam}=${size}`).toEqual([]);
    expect(paged.complete, 'the cursor walk of GET /personas did not end after 500 pages').toBe(true);
    expect(paged.ids, 'the walk should reach every persona created').toEqual(expect.arrayContaining(mine));
    if (paged.pages < 2) notRun(ctx, `GET /personas listed all ${paged.ids.length} personas on one page with ${paging.sizeParam}=${size}: no cursor was followed`);
    const whole = await walkList(client, 'listPersonas', { size: 100 });
    expect([...paged.ids].sort(), `paging by ${size} and by ${pageSize(paging, 100)} should list the same personas`).toEqual([...whole.ids].sort());
  });
});

describe('POST /personas/{id}/emotion', () => {
  check('PERS-4', 'answers {ok: true}; the overridden VAD is read back in the state', async () => {
    const id = await createPersona(client, 'persona-emotion');
    const vad = { V: -0.6, A: 0.7, D: -0.2 };
    const result = ok(await client.call('overrideEmotion', { params: { id }, body: { vad } }), 'POST /personas/{id}/emotion');
    expect(result.ok, 'POST /personas/{id}/emotion answers {ok: true}').toBe(true);
    const read = expectVad((await state(client, id)).emotion?.vad, 'state.emotion.vad');
    for (const k of ['V', 'A', 'D'] as const) {
      expect(Math.abs(read[k] - vad[k]), `state.emotion.vad.${k} = ${read[k]} should be the overridden ${vad[k]}`).toBeLessThanOrEqual(TOLERANCE);
    }
  });

  check('PERS-4', 'reads back an override of one member', async () => {
    const id = await createPersona(client, 'persona-emotion-v');
    ok(await client.call('overrideEmotion', { params: { id }, body: { vad: { V: 0.45 } } }), 'POST /personas/{id}/emotion with {vad: {V}}');
    const read = expectVad((await state(client, id)).emotion?.vad, 'state.emotion.vad');
    expect(Math.abs(read.V - 0.45), `state.emotion.vad.V = ${read.V} should be the overridden 0.45`).toBeLessThanOrEqual(TOLERANCE);
  });
});

describe('POST /personas/{id}/tick', () => {
  check('PERS-5', 'answers {pendingEvents}', async () => {
    const id = await createPersona(client, 'persona-tick');
    const result = ok(await client.call('tickPersona', { params: { id }, body: { seconds: 10 } }), 'POST /personas/{id}/tick');
    expect(Array.isArray(result.pendingEvents), 'result.pendingEvents must be an array').toBe(true);
    for (const [i, e] of (result.pendingEvents as any[]).entries()) expect(e?.type, `pendingEvents[${i}].type must be a string`).toBeTypeOf('string');
  });

  check('PERS-5', 'decays the mood toward where it rests and does not lower the body budget, over ticks of a minute', async (ctx) => {
    const id = await createPersona(client, 'persona-decay');
    // Where the mood rests: taken as the mood of the new persona (SPEC.md does not say where that is;
    // a personality may have its own). The range of `seconds` is not shown either: ticks of a minute,
    // which every deployment takes, several of them.
    const rest = expectVad((await snapshot(client, id)).mood, 'snapshot.mood of the new persona');
    const far: Vad = { V: rest.V >= 0 ? -0.9 : 0.9, A: rest.A >= 0 ? -0.9 : 0.9, D: rest.D >= 0 ? -0.9 : 0.9 };
    const quiet = await snapshot(client, id);
    ok(await client.call('putPersonaSnapshot', { params: { id }, body: { snapshot: { ...quiet, mood: far } } }), 'PUT /personas/{id}/snapshot');
    await perceive(client, id, { type: 'cf-shock', stimulus: { vadOverride: far, bodyBudgetDelta: -0.5 } });
    const before = await snapshot(client, id);
    const m0 = expectVad(before.mood, 'snapshot.mood before the ticks');
    if (dist(m0, rest) < 0.2) notRun(ctx, `the mood could not be moved from where it rests (snapshot import and a strong percept left it at ${JSON.stringify(m0)}), so its decay cannot be observed`);
    // Ticks of a minute first; where ten show no change, longer ones, each used only when the
    // deployment takes it (a refusal is its right: the range is not shown, and the check is then not
    // run). A deployment that accepted a day and shows the mood unchanged has not decayed it.
    let last = before;
    const steps = [...Array<number>(10).fill(60), 3_600, 86_400];
    for (const [n, seconds] of steps.entries()) {
      const reply = await client.call('tickPersona', { params: { id }, body: { seconds } });
      if (seconds > 60 && reply.status >= 400 && reply.status < 500) {
        notRun(ctx, `the mood did not change in 10 ticks of 60 s (${JSON.stringify(m0)}), and a tick of ${seconds} s was refused (${reply.status}; the range of seconds is not shown): its decay could not be observed`);
      }
      ok(reply, `a tick of ${seconds} seconds`);
      last = await snapshot(client, id);
      const m = expectVad(last.mood, `snapshot.mood after tick ${n + 1} (${seconds} s)`);
      if (dist(m, m0) > 1e-9) break;
    }
    const m1 = expectVad(last.mood, 'snapshot.mood after the ticks');
    expect(dist(m1, m0), `the mood did not change at all after ten ticks of 60 s, one of an hour and one of a day that the deployment accepted (${JSON.stringify(m0)})`).toBeGreaterThan(1e-9);
    expect(dist(m1, rest), `the mood should come closer to where it rests ${JSON.stringify(rest)}: before ${JSON.stringify(m0)}, after ${JSON.stringify(m1)}`)
      .toBeLessThan(dist(m0, rest));
    const b0 = before.state?.body_budget;
    const b1 = last.state?.body_budget;
    if (isNum(b0) && isNum(b1)) expect(b1, `state.body_budget should not drop while time passes (before ${b0})`).toBeGreaterThanOrEqual(b0);
  });
});

describe('the VAD lower bound of standalone personas', () => {
  /** Every emotion and mood vector SPEC.md shows in the state and snapshot of a persona, by where it is. */
  const vectors = (st: any, sn: any): Array<[string, unknown]> => [
    ['state.emotion.vad', st?.emotion?.vad], ['state.mood.vad', st?.mood?.vad], ['snapshot.mood', sn?.mood], ['snapshot.state.emotion', sn?.state?.emotion],
    ...((Array.isArray(sn?.moodHistory) ? sn.moodHistory : []) as any[]).map((h, i): [string, unknown] => [`snapshot.moodHistory[${i}].emotion`, h?.emotion]),
  ];
  const below = (st: any, sn: any, when: string) => vectors(st, sn).flatMap(([where, v]) =>
    (['V', 'A', 'D'] as const).filter((k) => isNum((v as any)?.[k]) && (v as any)[k] < -1).map((k) => `${when}: ${where}.${k} = ${(v as any)[k]}`));

  check('PERS-12', 'emotion and mood stay at or above -1 after an extreme override, strongly negative percepts and ticks', async () => {
    const id = await createPersona(client, 'persona-vad-bound');
    const found: string[] = [];
    const look = async (when: string) => { found.push(...below(await state(client, id), await snapshot(client, id), when)); };
    // An override past the bound: refused, or taken and shown within it (request bounds are not shown).
    const past = await client.call('overrideEmotion', { params: { id }, body: { vad: { V: -5, A: -5, D: -5 } } });
    if (past.status >= 200 && past.status < 300) await look('after an override to -5');
    ok(await client.call('overrideEmotion', { params: { id }, body: { vad: { V: -1, A: -1, D: -1 } } }), 'POST /personas/{id}/emotion to -1');
    await look('after an override to -1');
    for (let n = 1; n <= 3; n++) {
      await perceive(client, id, {
        type: 'cf-catastrophe',
        appraisal: { goal_relevance: 1, goal_congruence: -1, expectedness: 0, controllability: 0, agency: 0, norm_compatibility: -1 },
        stimulus: { vadDelta: { V: -1, A: -1, D: -1 }, bodyBudgetDelta: -1 },
      });
      await look(`after negative percept ${n}`);
    }
    ok(await client.call('tickPersona', { params: { id }, body: { seconds: 60 } }), 'a tick of 60 seconds');
    await look('after a tick');
    expect(found, 'emotion or mood members below the lower bound -1').toEqual([]);
  });
});

describe('GET /personas/{id}/state', () => {
  check('PERS-6', 'answers emotion {vad, discrete}, mood {vad}, somatic and narrative', async () => {
    const id = await createPersona(client, 'persona-state');
    const s = await state(client, id);
    expectVad(s.emotion?.vad, 'state.emotion.vad');
    expect(s.emotion?.discrete?.primary, 'state.emotion.discrete.primary must be a string').toBeTypeOf('string');
    expect(s.emotion?.discrete?.secondary, 'state.emotion.discrete.secondary must be a string').toBeTypeOf('string');
    expect(s.emotion?.discrete?.intensity, 'state.emotion.discrete.intensity must be a number').toBeTypeOf('number');
    expectVad(s.mood?.vad, 'state.mood.vad');
    expect(Array.isArray(s.somatic) && s.somatic.every((x: unknown) => typeof x === 'string'), 'state.somatic must be an array of strings').toBe(true);
    for (const k of ['tone', 'agency', 'coherence']) expect(s.narrative?.[k], `state.narrative.${k} must be a number`).toBeTypeOf('number');
  });
});

describe('POST /personas/{id}/annotate', () => {
  check('PERS-7', 'the annotated text appears in the next prompt-context', async (ctx) => {
    const id = await createPersona(client, 'persona-annotate');
    const text = `${named('note')}: mention the blue umbrella`;
    const made = bodyFor(ctx, 'annotate', [role('the text', ['text', 'note', 'annotation', 'content', 'message'], () => text)]);
    ok(await client.call('annotate', { params: { id }, body: made.body }), `POST /personas/{id}/annotate with ${made.shown}`);
    const prompt = ok(await client.call('promptContext', { params: { id } }), 'POST /personas/{id}/prompt-context');
    expect(JSON.stringify(prompt), 'the prompt-context result should contain the annotated text').toContain(text);
  });

  check('PERS-7', 'two annotations are both appended, in the order they were sent', async (ctx) => {
    const id = await createPersona(client, 'persona-annotate-two');
    const texts = [`${named('first note')}: the kettle is on`, `${named('second note')}: the train is late`];
    for (const text of texts) {
      const made = bodyFor(ctx, 'annotate', [role('the text', ['text', 'note', 'annotation', 'content', 'message'], () => text)]);
      ok(await client.call('annotate', { params: { id }, body: made.body }), `POST /personas/{id}/annotate with ${made.shown}`);
    }
    const prompt = JSON.stringify(ok(await client.call('promptContext', { params: { id } }), 'POST /personas/{id}/prompt-context'));
    // JSON.stringify escapes as the prompt does: compare the texts written the same way.
    const at = texts.map((t) => prompt.indexOf(JSON.stringify(t).slice(1, -1)));
    expect(at.map((i) => i >= 0), 'both annotated texts should be in the prompt-context result (appended, not replaced)').toEqual([true, true]);
    expect(at[0], 'the first annotation should come before the second (appended)').toBeLessThan(at[1]);
  });
});

describe('POST /personas/{id}/next-response', () => {
  check('PERS-8', 'the next response has exactly the forced text', async (ctx) => {
    const id = await createPersona(client, 'persona-forced');
    const text = `${named('forced')}: I would rather not say.`;
    const made = bodyFor(ctx, 'forceNextResponse', [role('the text', ['text', 'response', 'content', 'message', 'reply'], () => text)]);
    ok(await client.call('forceNextResponse', { params: { id }, body: made.body }), `POST /personas/{id}/next-response with ${made.shown}`);
    const result = await perceive(client, id, { type: 'cf-question', payload: { message: 'What are you thinking about?' } });
    const said = result?.response?.text ?? result?.text;
    expect(said, 'the next response text (result.response.text or result.text of perceive) should be the forced text').toBe(text);
    // "the next response": the one after it is the persona's own again.
    const later = await perceive(client, id, { type: 'cf-question', payload: { message: 'And now?' } });
    expect(later?.response?.text ?? later?.text, 'the response after the forced one should not be the forced text again').not.toBe(text);
  });
});

describe('GET and PUT /personas/{id}/snapshot', () => {
  check('PERS-9', 'GET answers the listed members; PUT of that snapshot answers {ok: true}', async () => {
    const id = await createPersona(client, 'persona-snapshot');
    const s = await snapshot(client, id);
    for (const k of ['state', 'relationships', 'somatic', 'narrative', 'tmt', 'motivationContexts']) {
      expect(s[k], `snapshot.${k} must be an object`).toBeTypeOf('object');
    }
    expect(Array.isArray(s.goals), 'snapshot.goals must be an array').toBe(true);
    expect(s.selfConcept, 'snapshot.selfConcept must be a string').toBeTypeOf('string');
    expectVad(s.mood, 'snapshot.mood');
    expect(Array.isArray(s.moodHistory), 'snapshot.moodHistory must be an array').toBe(true);
    expect(s.selfEsteem?.global, 'snapshot.selfEsteem.global must be a number').toBeTypeOf('number');
    expect(s.selfEsteem?.contingencies, 'snapshot.selfEsteem.contingencies must be an object').toBeTypeOf('object');
    expect(s.maskIntegrity, 'snapshot.maskIntegrity must be a number').toBeTypeOf('number');
    expect(s.maskState, 'snapshot.maskState must be a string').toBeTypeOf('string');
    const put = ok(await client.call('putPersonaSnapshot', { params: { id }, body: { snapshot: s } }), 'PUT /personas/{id}/snapshot');
    expect(put.ok, 'PUT /personas/{id}/snapshot answers {ok: true}').toBe(true);
  });

  check('PERS-10', 'export, import, export gives the same document, also after the persona moved on in between', async () => {
    const id = await createPersona(client, 'persona-round-trip');
    await perceive(client, id, { type: 'cf-compliment', payload: { message: 'You did well today.' } });
    const first = await snapshot(client, id);
    // Move the persona on: an insult, an override and an hour of time. An import of the first export
    // must bring back exactly that export, whatever members the persona gained in between.
    await perceive(client, id, { type: 'cf-insult', appraisal: { goal_congruence: -0.9, norm_compatibility: -0.9 } });
    ok(await client.call('overrideEmotion', { params: { id }, body: { vad: { V: -0.7, A: 0.6, D: -0.5 } } }), 'POST /personas/{id}/emotion');
    ok(await client.call('tickPersona', { params: { id }, body: { seconds: 3600 } }), 'POST /personas/{id}/tick');
    expect(differences(first, await snapshot(client, id)).length, 'the persona should have changed (or the round trip proves nothing)').toBeGreaterThan(0);
    ok(await client.call('putPersonaSnapshot', { params: { id }, body: { snapshot: first } }), 'import of the first export');
    const second = await snapshot(client, id);
    expect(differences(first, second), 'members of the second export that differ from the imported first export').toEqual([]);
  });

  check('PERS-10', 'an imported snapshot is what the next export returns (a changed selfConcept is read back)', async () => {
    const id = await createPersona(client, 'persona-import');
    const s = await snapshot(client, id);
    const selfConcept = `${named('self')}: a careful baker who loves rain`;
    ok(await client.call('putPersonaSnapshot', { params: { id }, body: { snapshot: { ...s, selfConcept } } }), 'import');
    expect((await snapshot(client, id)).selfConcept, 'the selfConcept of the imported snapshot').toBe(selfConcept);
  });
});

describe('POST /personas/{id}/perceive', () => {
  check('PERS-11', 'processes an event: a strong stimulus moves the emotion', async () => {
    const id = await createPersona(client, 'persona-perceive');
    const before = expectVad((await state(client, id)).emotion?.vad, 'state.emotion.vad before');
    const target = { V: before.V >= 0 ? -0.8 : 0.8, A: before.A >= 0 ? -0.8 : 0.8, D: before.D >= 0 ? -0.8 : 0.8 };
    await perceive(client, id, {
      type: 'cf-threat',
      appraisal: { goal_relevance: 1, goal_congruence: -1, expectedness: 0, controllability: 0, agency: 0, norm_compatibility: -1 },
      stimulus: { vadOverride: target },
    });
    const after = expectVad((await state(client, id)).emotion?.vad, 'state.emotion.vad after');
    expect(dist(after, before), `the emotion should move after a strong event: before ${JSON.stringify(before)}, after ${JSON.stringify(after)}`).toBeGreaterThan(0.01);
  });
});
