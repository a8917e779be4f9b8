// The rate-limit checks where no 429 shows nothing, which is no failure of the deployment:
// - across a slow link: a proxy lets one request through every 40 ms, one at a time, at most 75 in a
//   3-second window of the reference's free plan (100). Whatever the machine's speed, the link stays
//   that slow or slower: the suite must say it could not send fast enough to see the limit, as its own
//   failure (error), never the deployment's and never a silent "not run";
// - with a custom (enterprise) plan, whose limit SPEC.md leaves open and may be above all the run sent;
// - in the self-test's families (here the faults'), an entry whose run could not tell is run again, not judged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { resolveTarget, type Target } from '../../suite/run/target.ts';
import { createSession } from '../../suite/run/session.ts';
import { startFaultProxy, type FaultProxy } from '../../suite/self-test/proxy.ts';
import { runMatrix } from '../../suite/self-test/matrix.ts';
import type { Fault } from '../../suite/self-test/faults.ts';
import { EMBEDDED_RATE_WINDOW_MS } from '../../contract/plans.ts';
import { budget } from '../budget.ts';

const dir = mkdtempSync(join(tmpdir(), 'conformance-slow-link-'));
let target: Target;
let proxy: FaultProxy;
let queue: Promise<void> = Promise.resolve();
/** A second proxy, fast, under which the rate-limit key is never limited (sent on as the unlimited main key). */
let unlimited: FaultProxy;

beforeAll(async () => {
  target = await resolveTarget({ rateLimitWindowMs: EMBEDDED_RATE_WINDOW_MS });
  proxy = await startFaultProxy(target.baseUrl, {
    // One request at a time, each held 40 ms before it goes on.
    request: () => (queue = queue.then(() => sleep(40))),
  });
  unlimited = await startFaultProxy(target.baseUrl, {
    request: (req) => { if (req.headers['x-api-key'] === target.extraKeys.rateLimitKey) req.headers['x-api-key'] = target.apiKey; },
  });
});
afterAll(async () => {
  await proxy?.close();
  await unlimited?.close();
  await target?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The rate-limit area alone through a proxy, the rate-limit key given as of `plan`: each RATE check's outcome, and the run. */
async function rateArea(baseUrl: string, plan: 'free' | 'enterprise' | undefined) {
  const session = createSession({ ...target, baseUrl, embedded: false }, {
    areas: ['rate-limit'], strict: true, keep: false, timeoutMs: 10_000, deadlineAt: Date.now() + 120_000, workDir: dir, plan: 'enterprise', rpm: 0,
    rateLimitPlan: plan, allowBillable: false, shownConfig: {}, print: () => undefined,
  });
  const result = await session.run();
  const outcomes = Object.fromEntries(result.checks.filter((c) => c.requirementIds.some((id) => id.startsWith('RATE-'))).map((c) => [c.requirementIds.join(','), c.outcome]));
  const rate1 = result.checks.find((c) => c.requirementIds.includes('RATE-1'));
  return { result, outcomes, why: rate1?.reason ?? rate1?.failure?.title ?? '' };
}

describe('the rate-limit area across a link slower than the plan', () => {
  it("says the suite could not send fast enough (its own error), and fails nothing of the deployment's", async () => {
    const { result, outcomes, why } = await rateArea(proxy.url, 'free');
    expect(outcomes).toMatchObject({ 'RATE-1': 'error', 'RATE-2': 'error', 'RATE-3': 'error', 'RATE-4': 'error', 'RATE-5': 'error', 'RATE-7': 'error' });
    expect(why).toMatch(/suite: sent \d+ requests in .* too slowly to tell: a limit of 100 a window may accept \d+ in that time/);
    expect(result.requirements.filter((q) => q.outcome === 'fail')).toEqual([]);
    expect(result.exitCode).toBe(2);
  }, budget(120_000));
});

describe('the rate-limit area with a custom (enterprise) plan, or none named', () => {
  it('no 429 is no failure: the custom limit may be above what the run sent (not run, saying so)', async () => {
    const { result, outcomes, why } = await rateArea(unlimited.url, 'enterprise');
    expect(outcomes).toMatchObject({ 'RATE-1': 'not-run', 'RATE-2': 'not-run', 'RATE-3': 'not-run', 'RATE-4': 'skip', 'RATE-5': 'not-run', 'RATE-7': 'not-run' });
    expect(why).toMatch(/the key's limit is custom \(enterprise\) and may be higher; name its fixed plan with --rate-limit-plan/);
    expect(result.requirements.filter((q) => q.outcome === 'fail')).toEqual([]);
  }, budget(120_000));

  it("with no plan named, RATE-4 is not run for want of --rate-limit-plan, and the others judge the 429s", async () => {
    const { result, outcomes } = await rateArea(target.baseUrl, undefined);
    expect(outcomes).toMatchObject({ 'RATE-1': 'pass', 'RATE-2': 'pass', 'RATE-3': 'pass', 'RATE-4': 'not-run', 'RATE-5': 'pass', 'RATE-7': 'pass' });
    expect(result.checks.find((c) => c.requirementIds.includes('RATE-4'))?.reason).toMatch(/--rate-limit-plan/);
  }, budget(120_000));
});

describe('a fault whose first run could not tell (the fault matrix)', () => {
  it('is run again, and caught by the run that could tell', async () => {
    // The first proxy holds the rate-limit key's requests as the slow link above (the run cannot tell);
    // the proxies after it do not. The fault itself, in every run: 429s without Retry-After.
    let proxies = 0;
    const slowFirst: Fault = {
      id: 'slow-then-retry-after-missing', areas: ['rate-limit'], expected: ['RATE-2'], description: 'a slow first run, then 429s without Retry-After',
      request: async (req, ctx) => {
        if (!ctx.state.has('n')) ctx.state.set('n', ++proxies);
        if (ctx.state.get('n') === 1 && req.headers['x-api-key'] !== undefined) await (queue = queue.then(() => sleep(40)));
      },
      response: (res) => { if (res.status === 429) delete res.headers['retry-after']; },
    };
    const m = await runMatrix({ workDir: dir, faults: [slowFirst], skipCleanRuns: true });
    expect(proxies).toBe(2);
    expect(m.verdicts[0]).toMatchObject({ id: slowFirst.id, ok: true, reruns: 1, caughtBy: ['RATE-2'] });
    expect(m.ok).toBe(true);
  }, budget(240_000));
});
