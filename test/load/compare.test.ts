// The baseline comparison's statistics on samples the test makes (seeded, so every run of the
// test sees the same numbers): a run slowed by a known amount is called worse and fails, the same
// distribution drawn again is the same, a faster one is better, a slowdown under the threshold
// or not significant is not a regression, and too few samples say so. And the same verdicts on
// real runs: the Node runner against a target slowed by a known, large amount, and against the
// same target again.
import { afterAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { compareRuns, baselineProblem, renderComparison } from '../../load/model/compare.ts';
import { mulberry32 } from '../../load/model/samples.ts';
import type { LoadSummary } from '../../load/model/summary.ts';
import { resolveConfig } from '../../load/model/config.ts';
import { runNodeLoad } from '../../load/node/runner.ts';
import { startReference, type RunningReference } from '../../reference/index.ts';
import { budget } from '../budget.ts';

/** A summary holding only what the comparison reads: per endpoint, service times. */
function run(samples: Record<string, number[]>): LoadSummary {
  return {
    schema: 'simulation-load-summary/1', engine: 'node', tier: 'pro', startedAt: '2026-01-01T00:00:00.000Z',
    samples: { phase: 'steady', metric: 'service', cap: 2000, endpoints: Object.fromEntries(Object.entries(samples).map(([op, ms]) => [op, { count: ms.length, ms }])) },
  } as unknown as LoadSummary;
}

/** n latencies around `base` ms: a log-normal body and one sample in 50 in a tail three times as slow, as loopback answers look. */
function latencies(n: number, base: number, seed: number): number[] {
  const rand = mulberry32(seed);
  return Array.from({ length: n }, () => {
    const z = Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
    return base * Math.exp(0.25 * z) * (rand() < 0.02 ? 3 : 1);
  });
}

describe('compareRuns', () => {
  const before = run({ chat: latencies(300, 5, 1), getWorld: latencies(200, 2, 2) });

  it('calls a run slowed by 20 ms on every answer worse, on both percentiles, and a regression', () => {
    const c = compareRuns(before, run({ chat: latencies(300, 5, 3).map((x) => x + 20), getWorld: latencies(200, 2, 4).map((x) => x + 20) }));
    expect(c.endpoints.map((e) => [e.operationId, e.verdict, e.p50!.verdict, e.p95!.verdict])).toEqual([['chat', 'worse', 'worse', 'worse'], ['getWorld', 'worse', 'worse', 'worse']]);
    expect(c.endpoints[0].p50!.low).toBeGreaterThan(15);
    expect(c.regression).toBe(true);
    expect(renderComparison(c)).toContain('baseline: SLOWER on chat, getWorld');
  });

  it('calls the same distribution drawn again the same, and a faster one better, without a regression', () => {
    const same = compareRuns(before, run({ chat: latencies(300, 5, 5), getWorld: latencies(200, 2, 6) }));
    expect(same.endpoints.map((e) => e.verdict)).toEqual(['same', 'same']);
    expect(same.regression).toBe(false);
    const faster = compareRuns(run({ chat: latencies(300, 25, 7), getWorld: latencies(200, 20, 8) }), before);
    expect(faster.endpoints.map((e) => e.verdict)).toEqual(['better', 'better']);
    expect(faster.regression).toBe(false);
  });

  it('fails only beyond the threshold and when significant', () => {
    // 10% slower, surely (4,000 samples each): significant, but under a 20% threshold.
    const big = { chat: latencies(2000, 50, 9) };
    const c = compareRuns(run(big), run({ chat: latencies(2000, 50, 10).map((x) => x * 1.1) }));
    expect(c.endpoints[0].p50!.low).toBeGreaterThan(0);
    expect(c.endpoints[0].verdict).toBe('same');
    expect(compareRuns(run(big), run({ chat: latencies(2000, 50, 10).map((x) => x * 1.1) }), { thresholdPct: 5 }).endpoints[0].verdict).toBe('worse');
    // 50% slower on 12 samples each, against a spread of the same size: not significant.
    const few = compareRuns(run({ chat: [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 40] }), run({ chat: [1.5, 1.5, 3, 3, 4.5, 4.5, 6, 6, 7.5, 7.5, 1, 2] }));
    expect(few.endpoints[0].p95!.verdict).toBe('same');
    expect(few.regression).toBe(false);
  });

  it('says when there are too few samples, and refuses a baseline without samples', () => {
    const c = compareRuns(run({ chat: latencies(9, 5, 1) }), run({ chat: latencies(9, 50, 2) }));
    expect(c.endpoints[0]).toMatchObject({ operationId: 'chat', verdict: 'too few samples' });
    expect(c.regression).toBe(false);
    expect(baselineProblem({ schema: 'simulation-load-summary/1' } as LoadSummary)).toMatch(/no samples/);
    expect(baselineProblem({} as LoadSummary)).toMatch(/not the JSON of a load run/);
  });
});

describe('runs against a target slowed by a known amount', () => {
  const KEY = 'mk_test_compare_key_000000001';
  const servers: RunningReference[] = [];
  afterAll(async () => { await Promise.all(servers.map((s) => s.close())); });

  /**
   * A short Node run (4 s steady at 20 req/s: chat gets 19 answers) against the reference
   * delaying every answer by delayMs. A low rate: three run at once in this process, beside the
   * three references, and must not saturate it on a busy machine (at 80 req/s each they did, and
   * the queue, not the delay, made the latency).
   */
  async function runAgainst(delayMs: number): Promise<LoadSummary> {
    const server = await startReference({
      keys: [{ key: KEY, tenantId: 'compare', plan: 'enterprise', rpm: 1_000_000 }],
      // The setup's creates are not delayed (they are not compared, and would wait in line).
      extend: (app) => app.addHook('onRequest', async (req) => { if (!(req.method === 'POST' && /^\/(worlds|personas)$/.test(req.url))) await sleep(delayMs); }),
    });
    servers.push(server);
    const config = { ...resolveConfig({ tier: 'enterprise', rpm: 1500, p95Ms: 60_000, p99Ms: 60_000 }), steadyMs: 4000, rampMs: 100 };
    return runNodeLoad({ baseUrl: server.url, apiKey: KEY, config, embedded: true, warmUp: 0 });
  }

  it('calls the run against a target a second slower worse, a regression, and the run against the same target the same', async () => {
    // The delays are floors: a busy machine adds to both runs' answers alike, never takes away.
    // The three at once: they share whatever the machine is doing.
    const [base, same, slowed] = await Promise.all([runAgainst(100), runAgainst(100), runAgainst(1100)]);
    // A threshold of 50% and 50 ms: the slowed target is ten times slower, and an unchanged one is
    // not half again as slow at its p50 or p95 unless the machine stalls through much of a run.
    const o = { thresholdPct: 50, floorMs: 50 };
    const worse = compareRuns(base, slowed, o);
    const compared = worse.endpoints.filter((e) => e.verdict !== 'too few samples');
    expect(compared.map((e) => e.operationId)).toContain('chat');
    expect(compared.every((e) => e.verdict === 'worse'), renderComparison(worse)).toBe(true);
    expect(compared.every((e) => e.p50!.low > 500), renderComparison(worse)).toBe(true);
    expect(worse.regression).toBe(true);
    const unchanged = compareRuns(base, same, o);
    expect(unchanged.endpoints.filter((e) => e.verdict !== 'too few samples').every((e) => e.verdict === 'same'), renderComparison(unchanged)).toBe(true);
    expect(unchanged.regression).toBe(false);
  }, budget(60_000));
});
