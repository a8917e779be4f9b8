// Rate limits (needs --rate-limit-key, a key the run may exhaust): past the plan's limit, 429
// RATE_LIMITED with a Retry-After in whole seconds; after waiting it, accepted again; the observed
// limit compared with the plan's. Requests here are sent without pacing, on purpose.
import { describe, expect } from 'vitest';
import { check, api, config, skip } from './support/index.ts';
import { PLAN_RPM } from '../contract/plans.ts';
import { noteWait } from '../suite/http/waits.ts';

const client = api();
/**
 * How many requests to send before concluding there is no limit: twice the plan's (a window may
 * start over once while the run counts), 2600 for a custom (enterprise) plan, above the largest
 * fixed plan (pro, 2000) with room for a window edge.
 */
const maxRequests = () => {
  const plan = config().plan;
  return plan === 'enterprise' ? 2600 : 2 * PLAN_RPM[plan as keyof typeof PLAN_RPM] + 10;
};

let limited: { accepted: number; status: number; code?: string; retryAfter?: string } | undefined;
async function exhaust() {
  if (limited) return limited;
  let accepted = 0;
  for (let n = 0; n < maxRequests(); n++) {
    const reply = await client.call('listWorlds', { key: config().rateLimitKey, query: { limit: '1' }, expect429: true });
    if (reply.status === 429) return (limited = { accepted, status: 429, code: reply.body?.error?.code, retryAfter: reply.headers['retry-after'] });
    accepted += 1;
  }
  return (limited = { accepted, status: 200 });
}

describe('per-key rate limit', () => {
  check('RATE-1', 'answers 429 RATE_LIMITED past the limit', { needs: ['rateLimitKey'] }, async (ctx) => {
    const r = await exhaust();
    expect(r.status, `no 429 after ${maxRequests()} requests`).toBe(429);
    expect(r.code).toBe('RATE_LIMITED');
  });

  check('RATE-2', 'gives Retry-After as a whole number of seconds', { needs: ['rateLimitKey'] }, async (ctx) => {
    const r = await exhaust();
    expect(r.retryAfter, 'the 429 has no Retry-After').toBeDefined();
    expect(r.retryAfter).toMatch(/^\d+$/);
  });

  check('RATE-3', 'accepts a request sent after waiting Retry-After seconds', { needs: ['rateLimitKey'] }, async (ctx) => {
    const r = await exhaust();
    const wait = Number(r.retryAfter);
    expect(Number.isInteger(wait) && wait >= 0 && wait <= 120, `Retry-After '${r.retryAfter}' is not a usable wait`).toBe(true);
    noteWait(wait * 1000 + 100, `waiting the Retry-After of the 429 (${wait} s) before sending again`);
    await new Promise((done) => setTimeout(done, wait * 1000 + 100));
    const after = await client.call('listWorlds', { key: config().rateLimitKey, query: { limit: '1' }, expect429: true });
    expect(after.status, `still ${after.status} after waiting ${wait} s`).toBe(200);
  });

  check('RATE-4', "accepts about the plan's number of requests before the first 429", { needs: ['rateLimitKey'] }, async (ctx) => {
    if (config().plan === 'enterprise') skip(ctx, 'the enterprise limit is custom: nothing to compare with');
    const r = await exhaust();
    const plan = PLAN_RPM[config().plan as keyof typeof PLAN_RPM];
    expect(r.accepted, `accepted ${r.accepted} before the first 429; the ${config().plan} plan allows ${plan} a minute`).toBeGreaterThanOrEqual(Math.floor(plan * 0.9));
    expect(r.accepted).toBeLessThanOrEqual(Math.ceil(plan * 1.1));
  });
});
