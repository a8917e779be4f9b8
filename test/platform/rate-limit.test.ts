import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retryAfterSeconds } from '../../reference/platform/index.ts';
import { buildApp, call, envelope, ALLOWED_ORIGIN, KEYS, type TestApp } from './app.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const get = (app: TestApp, key: string, extra: Record<string, string> = {}) =>
  call(app, { url: '/worlds', headers: { 'x-api-key': key, ...extra } });

describe('rate limiting (enterprise rpm 5, 1.5 s window)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildApp({ windowMs: 1500 });
  });
  afterAll(() => app.close());

  it('allows exactly rpm requests, then answers 429 RATE_LIMITED with a true Retry-After', async () => {
    for (let i = 1; i <= 5; i++) {
      const res = await get(app, KEYS.entA);
      expect(res.statusCode, `request ${i}`).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('5');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(5 - i));
    }
    const limited = await get(app, KEYS.entA);
    expect(limited.statusCode).toBe(429);
    const error = envelope(limited);
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.message).toContain('5 requests per 1.5 seconds');
    const retryAfter = String(limited.headers['retry-after']);
    expect(retryAfter).toMatch(/^\d+$/);
    const seconds = Number(retryAfter);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(2);
    expect(limited.headers['x-ratelimit-limit']).toBe('5');
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    expect(limited.headers['x-ratelimit-reset']).toMatch(/^\d+$/);

    // Still limited while the window lasts.
    expect((await get(app, KEYS.entA)).statusCode).toBe(429);

    await sleep(seconds * 1000);
    const after = await get(app, KEYS.entA);
    expect(after.statusCode).toBe(200);
    expect(after.headers['x-ratelimit-remaining']).toBe('4');
  });

  it('gives separate keys separate budgets', async () => {
    for (let i = 0; i < 5; i++) expect((await get(app, KEYS.entB)).statusCode).toBe(200);
    expect((await get(app, KEYS.entB)).statusCode).toBe(429);
    // Refused before the body is read: a malformed body still gets 429, not 400.
    const malformed = await call(app, {
      method: 'POST',
      url: '/worlds',
      headers: { 'x-api-key': KEYS.entB, 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(malformed.statusCode).toBe(429);
    const other = await get(app, KEYS.free);
    expect(other.statusCode).toBe(200);
    expect(other.headers['x-ratelimit-limit']).toBe('100');
  });

  it('does not count unauthenticated or wrong-origin requests, nor public routes', async () => {
    for (let i = 0; i < 8; i++) {
      const res = await get(app, 'mk_test_unknown_key');
      expect(res.statusCode).toBe(401);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      const wrongOrigin = await get(app, KEYS.web, { origin: 'https://evil.example' });
      expect(wrongOrigin.statusCode).toBe(403);
      expect(wrongOrigin.headers['x-ratelimit-remaining']).toBeUndefined();
      const pub = await call(app, { url: '/openapi.json', headers: { 'x-api-key': KEYS.web } });
      expect(pub.statusCode).toBe(200);
      expect(pub.headers['x-ratelimit-remaining']).toBeUndefined();
    }
    // The restricted (starter, 500 rpm) key's budget is untouched by the 8 refused requests above.
    const ok = await get(app, KEYS.web, { origin: ALLOWED_ORIGIN });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['x-ratelimit-remaining']).toBe('499');
  });
});

describe('Retry-After with a 2 s window', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildApp({ windowMs: 2000 });
  });
  afterAll(() => app.close());

  it('is still true when the budget is exhausted at the very start of the window', async () => {
    // The remaining ttl is ~2000 ms, a whole number of seconds: the case where ceil(ttl/1000) leaves no slack.
    for (let i = 0; i < 5; i++) expect((await get(app, KEYS.entA)).statusCode).toBe(200);
    const limited = await get(app, KEYS.entA);
    expect(limited.statusCode).toBe(429);
    const seconds = Number(limited.headers['retry-after']);
    expect(Number.isInteger(seconds)).toBe(true);
    expect(seconds).toBeGreaterThanOrEqual(2);
    await sleep(seconds * 1000);
    expect((await get(app, KEYS.entA)).statusCode).toBe(200);
  });

  it('retryAfterSeconds rounds up with a margin, never below 1', () => {
    expect(retryAfterSeconds(2000)).toBe(3);
    expect(retryAfterSeconds(1900)).toBe(2);
    expect(retryAfterSeconds(1)).toBe(1);
    expect(retryAfterSeconds(0)).toBe(1);
  });
});
