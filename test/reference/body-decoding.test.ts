// How a request body is read: UTF-8 only (another charset 415, invalid bytes 400), nesting at most
// MAX_JSON_DEPTH levels (400, never a 500 from a stack overflow further on), and an empty body with a
// JSON content type accepted where the operation takes no body (DELETE, restore).
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, expectError, sampleWorld, startHarness, type Harness, type Reply } from './harness.ts';
import { MAX_JSON_DEPTH } from '../../reference/platform/json-body.ts';

let h: Harness;
let worldId: string;
beforeAll(async () => {
  h = await startHarness();
  worldId = (await h.call('createWorld', { body: sampleWorld() })).body.result.worldId;
});
afterAll(async () => h.close());

async function send(method: string, path: string, body: Buffer | string, contentType = 'application/json'): Promise<Reply> {
  const res = await request(h.url + path, { method: method as 'POST', headers: { 'x-api-key': KEYS.a, 'content-type': contentType }, body });
  const text = await res.body.text();
  let parsed: unknown = text;
  try { parsed = JSON.parse(text); } catch { /* kept as text */ }
  return { status: res.statusCode, headers: res.headers as Reply['headers'], body: parsed, text };
}

const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const count = async () => (await h.call('listWorlds', { query: { limit: '100' } })).body.result.worlds.length;

describe('nesting', () => {
  it.each([
    ['an event payload', 'POST', () => `/worlds/${worldId}/events`, (deep: string) => `{"type":"x","payload":${deep}}`],
    ['a definition member', 'PATCH', () => `/worlds/${worldId}`, (deep: string) => `{"definition":{"extra":${deep}}}`],
    ['a mutate environment', 'POST', () => `/worlds/${worldId}/mutate`, (deep: string) => `{"operations":[{"op":"set_environment","environment":{"x":${deep}}}]}`],
    ['an array', 'POST', () => `/worlds/${worldId}/events`, () => `{"type":"x","payload":{"a":${'['.repeat(5000)}${']'.repeat(5000)}}}`],
  ])('refuses %s nested 5,000 levels deep with 400', async (_, method, path, body) => {
    const before = (await h.call('getWorldSnapshot', { params: { id: worldId } })).body.result;
    expectError(await send(method, path(), body(nested(5000))), 400, 'VALIDATION_ERROR');
    expect((await h.call('getWorldSnapshot', { params: { id: worldId } })).body.result).toEqual(before);
  });

  it(`accepts ${MAX_JSON_DEPTH} levels in all and refuses one more`, async () => {
    // The body's own object is one of the levels.
    const ok = await send('POST', `/worlds/${worldId}/events`, `{"type":"x","payload":${nested(MAX_JSON_DEPTH - 1)}}`);
    expect(ok.status, ok.text).toBe(200);
    expectError(await send('POST', `/worlds/${worldId}/events`, `{"type":"x","payload":${nested(MAX_JSON_DEPTH)}}`), 400, 'VALIDATION_ERROR');
  });

  it('counts brackets inside strings as text', async () => {
    const ok = await send('POST', `/worlds/${worldId}/events`, JSON.stringify({ type: 'x', payload: { text: '{['.repeat(10_000) } }));
    expect(ok.status, ok.text).toBe(200);
  });
});

describe('charset and encoding', () => {
  const body = JSON.stringify({ definition: { identity: { name: 'Café' } } });
  it.each(['application/json; charset=utf-16', 'application/json; charset=latin1', 'application/json; charset=iso-8859-1', 'application/json;charset="us-ascii"'])(
    'refuses %s with 415 and stores nothing', async (type) => {
      const before = await count();
      expectError(await send('POST', '/worlds', body, type), 415, 'UNSUPPORTED_MEDIA_TYPE');
      expect(await count()).toBe(before);
    },
  );

  it.each(['application/json', 'application/json; charset=utf-8', 'application/json; charset=UTF-8', 'application/json; charset="utf-8"', 'Application/JSON;Charset=utf8'])(
    'accepts %s', async (type) => {
      const reply = await send('POST', '/worlds', body, type);
      expect(reply.status, reply.text).toBe(201);
    },
  );

  it('refuses invalid UTF-8 with 400 and stores nothing', async () => {
    const before = await count();
    const bytes = Buffer.concat([Buffer.from('{"definition":{"identity":{"name":"Caf'), Buffer.from([0xe9]), Buffer.from('"}}}')]);
    expectError(await send('POST', '/worlds', bytes), 400, 'VALIDATION_ERROR');
    expectError(await send('POST', '/worlds', Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00])), 400, 'VALIDATION_ERROR');
    expect(await count()).toBe(before);
  });
});

describe('an empty body with a JSON content type', () => {
  it('is accepted by DELETE and restore, which take no body', async () => {
    const id = (await h.call('createWorld', { body: sampleWorld('Empty') })).body.result.worldId;
    const deleted = await send('DELETE', `/worlds/${id}`, '');
    expect(deleted.status, deleted.text).toBe(200);
    const restored = await send('POST', `/worlds/${id}/restore`, '');
    expect(restored.status, restored.text).toBe(200);
    const persona = (await h.call('createPersona', { body: { config: { identity: { name: 'E' } } } })).body.result.personaId;
    expect((await send('DELETE', `/personas/${persona}`, '')).status).toBe(200);
    expect((await send('POST', `/personas/${persona}/restore`, '')).status).toBe(200);
  });

  it('is still refused where the operation takes a body', async () => {
    expectError(await send('POST', '/worlds', ''), 400, 'VALIDATION_ERROR');
    expectError(await send('POST', `/worlds/${worldId}/tick`, ''), 400, 'VALIDATION_ERROR');
  });
});
