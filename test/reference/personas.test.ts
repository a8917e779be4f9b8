// Standalone personas: records and runtime operations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startHarness, type Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => h.close());

const create = async (config: object = { identity: { name: 'Ivo', speakingStyle: 'warm' } }) => {
  const reply = await h.call('createPersona', { body: { config } });
  expect(reply.status).toBe(201);
  return reply.body.result.personaId as string;
};

describe('persona records', () => {
  it('creates, reads, updates, lists, soft-deletes and restores', async () => {
    const id = await create();
    expect(id).toMatch(/^per_/);
    const persona = (await h.call('getPersona', { params: { id } })).body.result.persona;
    expect(persona).toMatchObject({ id, tenantId: 'tenant-a', config: { identity: { name: 'Ivo', speakingStyle: 'warm' } } });
    expect((await h.call('updatePersona', { params: { id }, body: { config: { identity: { role: 'baker' } } } })).body.result).toEqual({ ok: true });
    expect((await h.call('getPersona', { params: { id } })).body.result.persona.config.identity).toMatchObject({ name: 'Ivo', role: 'baker' });
    expect((await h.call('updatePersona', { params: { id }, body: {} })).status).toBe(200);

    const listed = async () => (await h.call('listPersonas', { query: { limit: '100' } })).body.result.personas.map((p: { id: string }) => p.id);
    expect(await listed()).toContain(id);
    expect((await h.call('deletePersona', { params: { id } })).body.result).toEqual({ ok: true });
    expect(await listed()).not.toContain(id);
    expectError(await h.call('getPersona', { params: { id } }), 404, 'PERSONA_NOT_FOUND');
    expectError(await h.call('getPersonaState', { params: { id } }), 404, 'PERSONA_NOT_FOUND');
    expect((await h.call('restorePersona', { params: { id } })).body.result.persona.id).toBe(id);
    expect(await listed()).toContain(id);
    expectError(await h.call('restorePersona', { params: { id } }), 409, 'NOT_DELETED');
  });

  it('pages the persona list without repeats or gaps', async () => {
    const ids: string[] = [];
    for (let n = 0; n < 12; n++) ids.push(await create({ identity: { name: `P${n}` } }));
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = (await h.call('listPersonas', { query: { limit: '5', ...(cursor ? { cursor } : {}) } })).body.result;
      seen.push(...page.personas.map((p: { id: string }) => p.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen.filter((s) => ids.includes(s))).toEqual(ids);
    expect(new Set(seen).size).toBe(seen.length);
  });
});

describe('persona runtime', () => {
  it('emotion override is read back in the state; members not given are kept', async () => {
    const id = await create();
    const before = (await h.call('getPersonaState', { params: { id } })).body.result.emotion.vad;
    await h.call('overrideEmotion', { params: { id }, body: { vad: { V: -0.6 } } });
    const after = (await h.call('getPersonaState', { params: { id } })).body.result.emotion.vad;
    expect(after).toEqual({ ...before, V: -0.6 });
    expect((await h.call('overrideEmotion', { params: { id }, body: { vad: {} } })).status).toBe(200);
    expectError(await h.call('overrideEmotion', { params: { id }, body: { vad: { V: 3 } } }), 400, 'VALIDATION_ERROR');
  });

  it('annotate shows in the prompt; next-response forces the next text exactly once', async () => {
    const id = await create();
    await h.call('annotate', { params: { id }, body: { text: 'Mention the harvest festival.' } });
    expect((await h.call('promptContext', { params: { id } })).body.result.prompt).toContain('Mention the harvest festival.');
    await h.call('forceNextResponse', { params: { id }, body: { text: 'I will not say more.' } });
    const first = (await h.call('perceive', { params: { id }, body: { type: 'question', payload: { description: 'Who are you?' } } })).body.result.response;
    expect(first.text).toBe('I will not say more.');
    const second = (await h.call('perceive', { params: { id }, body: { type: 'question' } })).body.result.response;
    expect(second.text).not.toBe('I will not say more.');
    expect((await h.call('promptContext', { params: { id } })).body.result.prompt).not.toContain('harvest festival');
  });

  it('tick returns pending events that come due and advances time', async () => {
    const id = await create();
    const snap = (await h.call('getPersonaSnapshot', { params: { id } })).body.result;
    const now = snap.state.lastUpdated;
    const scheduled = await h.call('perceive', { params: { id }, body: { type: 'alarm', timestamp: now + 60_000 } });
    expect(scheduled.body.result.scheduled).toBe(true);
    expect((await h.call('tickPersona', { params: { id }, body: { seconds: 30 } })).body.result.pendingEvents).toEqual([]);
    const due = (await h.call('tickPersona', { params: { id }, body: { seconds: 60 } })).body.result.pendingEvents;
    expect(due.map((e: { type: string }) => e.type)).toEqual(['alarm']);
  });

  it('snapshot export → import → export is equal', async () => {
    const id = await create();
    await h.call('perceive', { params: { id }, body: { type: 'insult', appraisal: { goal_congruence: -0.9 } } });
    const first = (await h.call('getPersonaSnapshot', { params: { id } })).body.result;
    const other = await create({ identity: { name: 'Other' } });
    expect((await h.call('putPersonaSnapshot', { params: { id: other }, body: { snapshot: first } })).body.result).toEqual({ ok: true });
    expect((await h.call('getPersonaSnapshot', { params: { id: other } })).body.result).toEqual(first);
  });

  it('answers 404 PERSONA_NOT_FOUND on every runtime operation of an unknown persona', async () => {
    expectError(await h.call('perceive', { params: { id: 'per_missing' }, body: { type: 'x' } }), 404, 'PERSONA_NOT_FOUND');
    expectError(await h.call('tickPersona', { params: { id: 'per_missing' }, body: { seconds: 1 } }), 404, 'PERSONA_NOT_FOUND');
    expectError(await h.call('promptContext', { params: { id: 'per_missing' } }), 404, 'PERSONA_NOT_FOUND');
  });
});
