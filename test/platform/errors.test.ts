import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { ApiError, ERROR_CODES, fastifyServerOptions, registerErrorHandling } from '../../reference/platform/index.ts';
import { buildApp, call, envelope, KEYS, type TestApp } from './app.ts';

const auth = { 'x-api-key': KEYS.free };
const json = { ...auth, 'content-type': 'application/json' };

describe('error envelope', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildApp({ bodyLimit: 1024 });
  });
  afterAll(() => app.close());

  it('accepts a valid body unchanged (nothing stripped, coerced or defaulted)', async () => {
    const payload = { definition: { identity: { name: 'Ada' }, tags: ['x'] } };
    const res = await call(app, { method: 'POST', url: '/worlds', headers: auth, payload });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual(payload);
  });

  it('answers a schema violation with 400 VALIDATION_ERROR naming the location and member', async () => {
    const res = await call(app, {
      method: 'POST',
      url: '/worlds',
      headers: auth,
      payload: { definition: { identity: { name: 5 } } },
    });
    expect(res.statusCode).toBe(400);
    expect(envelope(res)).toEqual({ code: 'VALIDATION_ERROR', message: 'body/definition/identity/name must be string' });
  });

  it('names a missing required member', async () => {
    const res = await call(app, { method: 'POST', url: '/worlds', headers: auth, payload: { definition: {} } });
    expect(res.statusCode).toBe(400);
    expect(envelope(res)).toEqual({ code: 'VALIDATION_ERROR', message: 'body/definition/identity is required' });
  });

  it('rejects (does not strip) an unknown member of a closed object, naming it', async () => {
    const res = await call(app, {
      method: 'POST',
      url: '/worlds',
      headers: auth,
      payload: { definition: { identity: { name: 'Ada', nickname: 'A' } } },
    });
    expect(res.statusCode).toBe(400);
    const error = envelope(res);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.message).toBe('body/definition/identity/nickname is not an allowed member');
  });

  it('validates path params too, naming them', async () => {
    const res = await call(app, { url: '/worlds/NOT-AN-ID', headers: auth });
    expect(res.statusCode).toBe(400);
    const error = envelope(res);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.message).toMatch(/^params\/worldId /);
  });

  it('answers malformed JSON with 400 VALIDATION_ERROR', async () => {
    const res = await call(app, { method: 'POST', url: '/worlds', headers: json, payload: '{"definition": ' });
    expect(res.statusCode).toBe(400);
    expect(envelope(res).code).toBe('VALIDATION_ERROR');
  });

  it('answers an empty JSON body with 400 VALIDATION_ERROR', async () => {
    const res = await call(app, { method: 'POST', url: '/worlds', headers: json, payload: '' });
    expect(res.statusCode).toBe(400);
    expect(envelope(res)).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'Request body is empty but Content-Type is application/json',
    });
  });

  it.each([
    ['{"definition":{"identity":{"name":"x"}},"__proto__":{"x":1}}', '__proto__'],
    ['{"definition":{"identity":{"name":"x"},"__proto__":{"x":1}}}', '__proto__'],
    ['{"constructor":{"prototype":{"x":1}}}', 'constructor.prototype'],
  ])(
    'answers prototype poisoning %s with 400 VALIDATION_ERROR naming the member, and pollutes nothing',
    async (payload, member) => {
      const res = await call(app, { method: 'POST', url: '/worlds', headers: json, payload });
      expect(res.statusCode).toBe(400);
      const error = envelope(res);
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.message).toContain(member);
      expect(({} as Record<string, unknown>).x).toBeUndefined();
    },
  );

  it('answers a body over the limit with 413 PAYLOAD_TOO_LARGE', async () => {
    const payload = JSON.stringify({ definition: { identity: { name: 'x'.repeat(2000) } } });
    const res = await call(app, { method: 'POST', url: '/worlds', headers: json, payload });
    expect(res.statusCode).toBe(413);
    expect(envelope(res).code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers a text/plain body with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const res = await call(app, {
      method: 'POST',
      url: '/worlds',
      headers: { ...auth, 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(res.statusCode).toBe(415);
    expect(envelope(res).code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers an unknown route with 404 ROUTE_NOT_FOUND, without needing a key', async () => {
    const res = await call(app, { url: '/nowhere?x=1' });
    expect(res.statusCode).toBe(404);
    expect(envelope(res)).toEqual({ code: 'ROUTE_NOT_FOUND', message: 'No route matches GET /nowhere' });
  });

  it('answers a known path with another method with 405 and an Allow header', async () => {
    const res = await call(app, { method: 'PUT', url: '/worlds', headers: json, payload: '{}' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, POST');
    expect(envelope(res).code).toBe('METHOD_NOT_ALLOWED');

    const res2 = await call(app, { method: 'POST', url: '/worlds/w_1', headers: json, payload: '{}' });
    expect(res2.statusCode).toBe(405);
    expect(res2.headers.allow).toBe('DELETE, GET, HEAD');
  });

  it('keeps the real methods working next to the 405 helpers', async () => {
    expect((await call(app, { method: 'DELETE', url: '/worlds/w_1', headers: auth })).statusCode).toBe(204);
    expect((await call(app, { method: 'HEAD', url: '/worlds', headers: auth })).statusCode).toBe(200);
  });

  it('hides the 405 helper routes from swagger (schema.hide)', async () => {
    const hidden: string[] = [];
    const probe = Fastify();
    probe.addHook('onRoute', (route) => {
      if ((route.schema as { hide?: boolean } | undefined)?.hide === true) hidden.push(`${route.method} ${route.url}`);
    });
    const { registerMethodNotAllowed } = await import('../../reference/platform/index.ts');
    probe.get('/a', async () => 'a');
    registerMethodNotAllowed(probe, [{ method: 'GET', url: '/a' }]);
    await probe.ready();
    expect(hidden.sort()).toEqual(['DELETE /a', 'PATCH /a', 'POST /a', 'PUT /a']);
    await probe.close();
  });

  it('answers a handler throwing a plain Error with 500 INTERNAL_ERROR without leaking its message', async () => {
    const res = await call(app, { url: '/boom', headers: auth });
    expect(res.statusCode).toBe(500);
    const error = envelope(res);
    expect(error.code).toBe('INTERNAL_ERROR');
    expect(res.body).not.toContain('hunter2');
    expect(res.body).not.toContain('database');
  });

  it('answers other framework client errors with their 4xx status and BAD_REQUEST', async () => {
    const res = await call(app, { url: '/worlds/%E0%A4%A', headers: auth });
    expect(res.statusCode).toBe(400);
    expect(envelope(res).code).toBe('BAD_REQUEST');
  });
});

describe('error handler on its own', () => {
  it('sends an ApiError as it is, with its headers', async () => {
    const app = Fastify(fastifyServerOptions());
    registerErrorHandling(app);
    app.get('/gone', async () => {
      throw new ApiError(404, 'WORLD_NOT_FOUND', 'World w_1 does not exist', { headers: { 'x-extra': 'yes' } });
    });
    app.get('/teapot', async () => {
      throw Object.assign(new Error('I am a teapot'), { statusCode: 418 });
    });
    app.get('/unavailable', async () => {
      throw Object.assign(new Error('upstream secret'), { statusCode: 503 });
    });
    const gone = await app.inject({ url: '/gone' });
    expect(gone.statusCode).toBe(404);
    expect(gone.headers['x-extra']).toBe('yes');
    expect(envelope(gone)).toEqual({ code: 'WORLD_NOT_FOUND', message: 'World w_1 does not exist' });
    const teapot = await app.inject({ url: '/teapot' });
    expect(teapot.statusCode).toBe(418);
    expect(envelope(teapot).code).toBe('BAD_REQUEST');
    const unavailable = await app.inject({ url: '/unavailable' });
    expect(unavailable.statusCode).toBe(500);
    expect(envelope(unavailable).code).toBe('INTERNAL_ERROR');
    expect(unavailable.body).not.toContain('upstream secret');
    await app.close();
  });

  it('fastifyServerOptions sets the strict parser and validator options', () => {
    const options = fastifyServerOptions();
    expect(options.bodyLimit).toBe(1024 * 1024);
    expect(fastifyServerOptions({ bodyLimit: 10 }).bodyLimit).toBe(10);
    expect(options.onProtoPoisoning).toBe('ignore');
    expect(options.onConstructorPoisoning).toBe('error');
    expect(options.ajv?.customOptions).toMatchObject({
      removeAdditional: false,
      coerceTypes: false,
      useDefaults: false,
      allErrors: false,
    });
  });
});

describe('ERROR_CODES', () => {
  it('lists every code of the interface and of this deployment with its status', () => {
    const table = Object.fromEntries(Object.entries(ERROR_CODES).map(([code, { status }]) => [code, status]));
    expect(table).toEqual({
      UNAUTHORIZED: 401,
      RATE_LIMITED: 429,
      WORLD_NOT_FOUND: 404,
      ENTITY_NOT_FOUND: 404,
      PERSONA_NOT_FOUND: 404,
      VALIDATION_ERROR: 400,
      ROUTE_NOT_FOUND: 404,
      METHOD_NOT_ALLOWED: 405,
      PAYLOAD_TOO_LARGE: 413,
      UNSUPPORTED_MEDIA_TYPE: 415,
      ORIGIN_NOT_ALLOWED: 403,
      QUOTA_EXCEEDED: 403,
      BAD_REQUEST: 400,
      INTERNAL_ERROR: 500,
      ACTION_NOT_FOUND: 404,
      ACTION_NOT_DELETABLE: 409,
      RELATIONSHIP_NOT_FOUND: 404,
      ENTITY_EXISTS: 409,
      NOT_DELETED: 409,
    });
    for (const entry of Object.values(ERROR_CODES)) expect(entry.description.length).toBeGreaterThan(10);
  });
});
