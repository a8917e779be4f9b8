// Client mistakes get a 4xx with the error envelope, never a 5xx, and store nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, sampleWorld, startHarness, type Harness } from './harness.ts';

let h: Harness;
let worldId: string;
beforeAll(async () => {
  h = await startHarness({ bodyLimit: 64 * 1024 });
  worldId = (await h.call('createWorld', { body: sampleWorld() })).body.result.worldId;
});
afterAll(async () => h.close());

const count = async () => (await h.call('listWorlds', { query: { limit: '100' } })).body.result.worlds.length;

describe('bad input to POST /worlds', () => {
  const cases: Array<[string, string, number, string]> = [
    ['malformed JSON', '{"definition": {', 400, 'VALIDATION_ERROR'],
    ['an empty body', '', 400, 'VALIDATION_ERROR'],
    ['a JSON array', '[]', 400, 'VALIDATION_ERROR'],
    ['a JSON string', '"world"', 400, 'VALIDATION_ERROR'],
    ['null', 'null', 400, 'VALIDATION_ERROR'],
    ['a missing member', '{}', 400, 'VALIDATION_ERROR'],
    ['a missing nested member', '{"definition":{"identity":{}}}', 400, 'VALIDATION_ERROR'],
    ['a wrong type', '{"definition":{"identity":{"name":42}}}', 400, 'VALIDATION_ERROR'],
    ['a wrong nested type', '{"definition":{"identity":{"name":"x"},"rules":{"physics":{"gravity":"yes"}}}}', 400, 'VALIDATION_ERROR'],
    ['an unknown member of a closed object', '{"definition":{"identity":{"name":"x"}},"color":"red"}', 400, 'VALIDATION_ERROR'],
    ['an unknown member of a closed nested object', '{"definition":{"identity":{"name":"x"},"time":{"type":"realtime","speed":2}}}', 400, 'VALIDATION_ERROR'],
    ['a __proto__ key', '{"definition":{"identity":{"name":"x"}},"__proto__":{"admin":true}}', 400, 'VALIDATION_ERROR'],
    ['a constructor.prototype key', '{"definition":{"identity":{"name":"x"},"constructor":{"prototype":{"admin":true}}}}', 400, 'VALIDATION_ERROR'],
    ['an entity config for a non-persona', '{"definition":{"identity":{"name":"x"}},"entities":[{"name":"u","type":"user"}],"personaConfigs":{"u":{}}}', 400, 'VALIDATION_ERROR'],
  ];
  for (const [label, body, status, code] of cases) {
    it(`answers ${status} ${code} to ${label} and stores nothing`, async () => {
      const before = await count();
      const reply = await h.raw('POST', '/worlds', { body });
      expectError(reply, status, code);
      expect(await count()).toBe(before);
    });
  }

  it('names the failing member in the message', async () => {
    const reply = await h.raw('POST', '/worlds', { body: '{"definition":{"identity":{"name":42}}}' });
    expect(reply.body.error.message).toMatch(/name/);
  });

  it('answers 413 PAYLOAD_TOO_LARGE to a body over the limit', async () => {
    const big = JSON.stringify({ definition: { identity: { name: 'x', description: 'y'.repeat(70 * 1024) } } });
    expectError(await h.raw('POST', '/worlds', { body: big }), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('answers 415 UNSUPPORTED_MEDIA_TYPE to a body that is not JSON', async () => {
    expectError(await h.raw('POST', '/worlds', { body: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
  });
});

describe('bad input elsewhere', () => {
  it('answers 404 ROUTE_NOT_FOUND to an unknown path and 405 METHOD_NOT_ALLOWED to a wrong method', async () => {
    expectError(await h.raw('GET', '/nowhere'), 404, 'ROUTE_NOT_FOUND');
    const wrong = await h.raw('PUT', '/worlds');
    expectError(wrong, 405, 'METHOD_NOT_ALLOWED');
    expect(String(wrong.headers.allow)).toMatch(/GET/);
  });

  it('refuses a chat with a wrong type and changes nothing', async () => {
    const before = (await h.call('getWorldSnapshot', { params: { id: worldId } })).body.result;
    expectError(await h.raw('POST', `/worlds/${worldId}/chat`, { body: '{"from":"visitor","to":"mara","message":7}' }), 400, 'VALIDATION_ERROR');
    expectError(await h.raw('POST', `/worlds/${worldId}/events`, { body: '{"type":"x","stimulus":{"vadDelta":{"V":9}}}' }), 400, 'VALIDATION_ERROR');
    expectError(await h.raw('POST', `/worlds/${worldId}/tick`, { body: '{"seconds":-5}' }), 400, 'VALIDATION_ERROR');
    expectError(await h.raw('PUT', `/worlds/${worldId}/snapshot`, { body: '{"snapshot":{"id":"x"}}' }), 400, 'VALIDATION_ERROR');
    expect((await h.call('getWorldSnapshot', { params: { id: worldId } })).body.result).toEqual(before);
  });

  it('refuses an inconsistent snapshot import and changes nothing', async () => {
    const before = (await h.call('getWorldSnapshot', { params: { id: worldId } })).body.result;
    const broken = { ...before, entities: [{ ...before.entities[0], spaceId: 'nowhere' }] };
    expectError(await h.call('putWorldSnapshot', { params: { id: worldId }, body: { snapshot: broken } }), 400, 'VALIDATION_ERROR');
    expect((await h.call('getWorldSnapshot', { params: { id: worldId } })).body.result).toEqual(before);
  });
});
