// Per-key rate limits: over the budget the answer is 429 RATE_LIMITED with a Retry-After that is
// true (after waiting it, the next request is accepted). A short window keeps the test fast.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/index.ts';
import { request } from 'undici';
import { PLAN_RPM } from '../../reference/platform/index.ts';

const WINDOW_MS = 2000;
let server: RunningReference;
beforeAll(async () => {
  server = await startReference({
    rateLimitWindowMs: WINDOW_MS,
    keys: [
      { key: 'mk_test_small_enterprise_00001', tenantId: 't1', plan: 'enterprise', rpm: 5 },
      { key: 'mk_test_other_enterprise_00001', tenantId: 't1', plan: 'enterprise', rpm: 5 },
      { key: 'mk_test_free_plan_key_0000001', tenantId: 't2', plan: 'free' },
    ],
  });
});
afterAll(async () => server.close());

const get = async (key: string) => {
  const res = await request(`${server.url}/worlds`, { headers: { 'x-api-key': key } });
  return { status: res.statusCode, headers: res.headers, body: await res.body.json() as any };
};

describe('rate limits', () => {
  it('answers 429 with a true Retry-After once the budget is spent, then accepts again', async () => {
    const key = 'mk_test_small_enterprise_00001';
    for (let n = 0; n < 5; n++) expect((await get(key)).status).toBe(200);
    const limited = await get(key);
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil(WINDOW_MS / 1000) + 1);
    // Another key of the same tenant has its own budget.
    expect((await get('mk_test_other_enterprise_00001')).status).toBe(200);
    await new Promise((r) => setTimeout(r, retryAfter * 1000));
    expect((await get(key)).status).toBe(200);
  });

  it('gives the free plan exactly its 100 requests per window', async () => {
    const key = 'mk_test_free_plan_key_0000001';
    const statuses: number[] = [];
    for (let n = 0; n < PLAN_RPM.free + 1; n++) statuses.push((await get(key)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(100);
    expect(statuses[100]).toBe(429);
    expect(PLAN_RPM).toEqual({ free: 100, starter: 500, pro: 2000 });
  });
});
