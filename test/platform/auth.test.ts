import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, call, envelope, ALLOWED_ORIGIN, KEYS, type TestApp } from './app.ts';

describe('authentication', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildApp();
  });
  afterAll(() => app.close());

  it('answers a request without X-API-Key with 401 UNAUTHORIZED saying the key is missing', async () => {
    const res = await call(app, { url: '/worlds' });
    expect(res.statusCode).toBe(401);
    const error = envelope(res);
    expect(error.code).toBe('UNAUTHORIZED');
    expect(error.message).toMatch(/missing/i);
  });

  it('treats an empty X-API-Key as missing', async () => {
    const res = await call(app, { url: '/worlds', headers: { 'x-api-key': '' } });
    expect(res.statusCode).toBe(401);
    expect(envelope(res).message).toMatch(/missing/i);
  });

  it('answers an unknown key with 401 UNAUTHORIZED saying it is not recognised, without echoing it', async () => {
    const guess = 'mk_live_guessed_key_123456';
    const res = await call(app, { url: '/worlds', headers: { 'x-api-key': guess } });
    expect(res.statusCode).toBe(401);
    const error = envelope(res);
    expect(error.code).toBe('UNAUTHORIZED');
    expect(error.message).toMatch(/not recognised/);
    expect(res.body).not.toContain('guessed');
  });

  it('lets a known key in and exposes the principal to the handler', async () => {
    const res = await call(app, { url: '/worlds', headers: { 'x-api-key': KEYS.live } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ tenantId: 't_pro', rpm: 2000 });
  });

  it('lets public routes through without a key and without rate-limit headers', async () => {
    const res = await call(app, { url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ openapi: '3.1.0' });
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('never puts a key in any response, error or not', async () => {
    // call() asserts this on every response; here it is exercised across all the failure paths with a real key.
    const headers = { 'x-api-key': KEYS.web };
    const responses = await Promise.all([
      call(app, { url: '/worlds', headers }), // no origin
      call(app, { url: '/worlds', headers: { ...headers, origin: 'https://evil.example' } }),
      call(app, { url: '/worlds', headers: { ...headers, origin: ALLOWED_ORIGIN } }),
      call(app, { url: '/boom', headers: { ...headers, origin: ALLOWED_ORIGIN } }),
      call(app, { method: 'PUT', url: '/worlds', headers }),
      call(app, { url: '/nope', headers }),
    ]);
    for (const res of responses) expect(res.body + JSON.stringify(res.headers)).not.toContain(KEYS.web);
  });
});

describe('origin allowlist', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildApp();
  });
  afterAll(() => app.close());

  it('refuses a restricted key from another origin with 403 ORIGIN_NOT_ALLOWED', async () => {
    const res = await call(app, { url: '/worlds', headers: { 'x-api-key': KEYS.web, origin: 'https://evil.example' } });
    expect(res.statusCode).toBe(403);
    const error = envelope(res);
    expect(error.code).toBe('ORIGIN_NOT_ALLOWED');
    expect(error.message).toContain('https://evil.example');
  });

  it('refuses a restricted key without an Origin header, saying the key is bound to its origins', async () => {
    const res = await call(app, { url: '/worlds', headers: { 'x-api-key': KEYS.web } });
    expect(res.statusCode).toBe(403);
    const error = envelope(res);
    expect(error.code).toBe('ORIGIN_NOT_ALLOWED');
    expect(error.message).toMatch(/may only be used from its configured/);
    expect(error.message).toMatch(/no Origin header/);
  });

  it('refuses a look-alike origin (different scheme, port or subdomain)', async () => {
    for (const origin of ['http://app.example.com', 'https://app.example.com:8443', 'https://app.example.com.evil.example', 'null']) {
      const res = await call(app, { url: '/worlds', headers: { 'x-api-key': KEYS.web, origin } });
      expect(res.statusCode, origin).toBe(403);
    }
  });

  it('accepts a restricted key from its allowed origin, with CORS headers', async () => {
    const res = await call(app, { url: '/worlds', headers: { 'x-api-key': KEYS.web, origin: ALLOWED_ORIGIN } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ tenantId: 't_web' });
    expect(res.headers['access-control-allow-origin']).toBe(ALLOWED_ORIGIN);
  });

  it('accepts an unrestricted key from any origin and without one', async () => {
    const fromAnywhere = await call(app, { url: '/worlds', headers: { 'x-api-key': KEYS.free, origin: 'https://whatever.example' } });
    expect(fromAnywhere.statusCode).toBe(200);
    const noOrigin = await call(app, { url: '/worlds', headers: { 'x-api-key': KEYS.free } });
    expect(noOrigin.statusCode).toBe(200);
  });

  it('puts CORS headers on error responses so a browser can read them', async () => {
    const res = await call(app, { url: '/worlds', headers: { origin: 'https://whatever.example' } });
    expect(res.statusCode).toBe(401);
    expect(res.headers['access-control-allow-origin']).toBe('https://whatever.example');
    expect(res.headers['access-control-expose-headers']).toContain('Retry-After');
  });
});

describe('CORS preflight', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildApp();
  });
  afterAll(() => app.close());

  it('answers a preflight with 204 and the CORS headers, without a key', async () => {
    const res = await call(app, {
      method: 'OPTIONS',
      url: '/worlds',
      headers: {
        origin: ALLOWED_ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-api-key, content-type',
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(res.headers['access-control-allow-origin']).toBe(ALLOWED_ORIGIN);
    expect(res.headers.vary).toContain('Origin');
    const allowHeaders = String(res.headers['access-control-allow-headers']).toLowerCase();
    expect(allowHeaders).toContain('x-api-key');
    expect(allowHeaders).toContain('content-type');
    const methods = String(res.headers['access-control-allow-methods']);
    for (const m of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) expect(methods).toContain(m);
    const exposed = String(res.headers['access-control-expose-headers']).toLowerCase();
    for (const h of ['retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
      expect(exposed).toContain(h);
    }
  });

  it('reflects any origin in the preflight (the per-key allowlist is checked on the real request)', async () => {
    const res = await call(app, {
      method: 'OPTIONS',
      url: '/worlds/w_1',
      headers: { origin: 'https://other.example', 'access-control-request-method': 'DELETE' },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('https://other.example');
  });
});
