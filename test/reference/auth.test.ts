// 401 on every operation of the served document, without a key and with a wrong one; the list of
// operations comes from the document, not from this file. Answers to keyed requests are not for a
// shared cache (Cache-Control: private, no-store).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOWED_ORIGIN, KEYS, expectError, startHarness, type Harness } from './harness.ts';
import { minimalInstance } from '../../suite/bodies/minimal.ts';

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => h.close());

function operations() {
  // Read synchronously from the contract build, the same generator the server serves.
  return h.reader.operations().filter((o) => o.secured);
}

describe('authentication on every operation', () => {
  it('the document has operations that need a key, and declares the X-API-Key scheme', () => {
    expect(operations().length).toBe(42);
    expect(h.document.components.securitySchemes.ApiKey).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }));
  });

  for (const [label, key] of [['without a key', null], ['with an unknown key', 'mk_test_not_a_key_at_all_0000'], ['with a malformed key', 'hello']] as const) {
    it(`answers 401 UNAUTHORIZED ${label}`, async () => {
      for (const op of operations()) {
        const params = Object.fromEntries((op.path.match(/\{(\w+)\}/g) ?? []).map((p) => [p.slice(1, -1), 'some-id']));
        const schema = h.reader.requestSchema(op.operationId);
        const reply = await h.call(op.operationId, { params, key, body: schema ? minimalInstance(schema) : undefined });
        expectError(reply, 401, 'UNAUTHORIZED');
        if (key) expect(reply.text).not.toContain(key);
      }
    });
  }

  it('marks every answer to a keyed request uncacheable by a shared cache (a stock Varnish would serve it to another key or none)', async () => {
    const answers = [
      await h.raw('GET', '/worlds'),
      await h.raw('GET', '/worlds', { key: null }),
      await h.raw('GET', '/worlds/no-such-world'),
      await h.raw('POST', '/worlds', { body: '{}' }),
    ];
    for (const reply of answers) expect(reply.headers['cache-control'], String(reply.status)).toBe('private, no-store');
    expect(answers.map((r) => r.status)).toEqual([200, 401, 404, 400]);
  });

  it('serves /openapi.json without a key', async () => {
    const reply = await h.raw('GET', '/openapi.json', { key: null });
    expect(reply.status).toBe(200);
    expect(reply.body.openapi).toBe('3.1.0');
  });
});

describe('origin allowlist', () => {
  it('accepts a restricted key from its origin and refuses it from another or from none', async () => {
    const ok = await h.call('listWorlds', { key: KEYS.origin, headers: { origin: ALLOWED_ORIGIN } });
    expect(ok.status).toBe(200);
    expectError(await h.call('listWorlds', { key: KEYS.origin, headers: { origin: 'https://evil.example' } }), 403, 'ORIGIN_NOT_ALLOWED');
    expectError(await h.call('listWorlds', { key: KEYS.origin }), 403, 'ORIGIN_NOT_ALLOWED');
  });

  it('accepts a key without origins from any origin', async () => {
    expect((await h.call('listWorlds', { headers: { origin: 'https://anywhere.example' } })).status).toBe(200);
  });

  it('answers a CORS preflight without a key', async () => {
    const reply = await h.raw('OPTIONS', '/worlds', {
      key: null, headers: { origin: ALLOWED_ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-api-key,content-type' },
    });
    expect(reply.status).toBe(204);
    expect(reply.headers['access-control-allow-origin']).toBe(ALLOWED_ORIGIN);
    expect(String(reply.headers['access-control-allow-headers']).toLowerCase()).toContain('x-api-key');
  });
});
