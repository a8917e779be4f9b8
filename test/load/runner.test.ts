// The Node runner against the embedded reference with a short rate-limit window: what it sends,
// in which order and phase, what the target saw, and what it makes of the 429s. Behaviour only:
// nothing here depends on how fast this machine is (a run on a busy 2-core machine at a load
// average of 10 passes the same). How well the runner holds its rate, and how closely it reads
// the onset, are measured by `npm run bench` (bench/load.ts), not asserted here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/index.ts';
import { resolveConfig, type LoadConfig } from '../../load/model/config.ts';
import { buildSchedule } from '../../load/model/schedule.ts';
import { MIX, MIX_CYCLE } from '../../load/model/mix.ts';
import { runNodeLoad } from '../../load/node/runner.ts';
import { fixedWindowReach, type LoadSummary } from '../../load/model/summary.ts';
import { budget } from '../budget.ts';

const KEY = 'mk_test_runner_free_000000001';
const WINDOW_MS = 2000;
let server: RunningReference;
let summary: LoadSummary;
let config: LoadConfig;
/** What the target saw with the run's key, in the order it came. */
const seen: Array<{ method: string; url: string }> = [];

beforeAll(async () => {
  server = await startReference({
    keys: [{ key: KEY, tenantId: 'load', plan: 'free' }], rateLimitWindowMs: WINDOW_MS,
    extend: (app) => app.addHook('onRequest', async (req) => { if (req.headers['x-api-key'] === KEY) seen.push({ method: req.method, url: req.url }); }),
  });
  // The free plan's 100 requests per 2 s window: a 50 req/s limit. Steady 2 s at 50% (25 req/s:
  // a window holds 50 requests, so only a stall of two whole seconds could bring a 429 there),
  // then 4 s from 25 to 125 req/s: wherever the limiter's windows fall (they begin at the key's
  // first request, when the setup ran), one of them is offered at least 137 requests
  // (fixedWindowPeak), so 429s certainly come. Latency bounds are loose: speed is not what this checks.
  config = { ...resolveConfig({ tier: 'free', windowMs: WINDOW_MS, steadyFraction: 0.5, rampTo: 2.5, p95Ms: 10_000, p99Ms: 10_000 }), steadyMs: 2000, rampMs: 4000 };
  summary = await runNodeLoad({ baseUrl: server.url, apiKey: KEY, config, embedded: true, warmUp: 0 });
}, budget(30_000));
afterAll(async () => server.close());

describe('Node runner against the reference (free plan, 2 s window)', () => {
  it('has a ramp that fills a fixed window wherever the limiter places its windows', () => {
    expect(fixedWindowReach(config, 4)).toMatchObject({ fills: true });
    expect(fixedWindowReach(config, 4).peak).toBeGreaterThanOrEqual(125);
  });

  it('sends every request of the schedule, each phase its own, and the target sees the setup and those, nothing more', () => {
    const schedule = buildSchedule(config);
    const [steady, ramp] = summary.phases;
    expect(steady.planned).toBe(50);
    expect(ramp.planned).toBe(300);
    expect(steady.sent).toBe(steady.planned);
    expect(ramp.sent).toBe(ramp.planned);
    expect(steady.sent + ramp.sent).toBe(schedule.total);
    // Every request answered (a 2xx or a 429), none lost.
    expect(steady.total.count).toBe(steady.sent);
    expect(ramp.total.count).toBe(ramp.sent);
    // The embedded reference is discarded, not cleaned up: setup (4 creates) and the schedule.
    expect(seen).toHaveLength(4 + schedule.total);
    expect(seen.slice(0, 4).every((r) => r.method === 'POST' && /^\/(worlds|personas)$/.test(r.url)), JSON.stringify(seen.slice(0, 4))).toBe(true);
  });

  it('sends the mix in its order: every endpoint of the cycle, as many times as its weight', () => {
    const [steady, ramp] = summary.phases;
    const count = (op: string) => [steady, ramp].reduce((n, p) => n + (p.endpoints.find((e) => e.operationId === op)?.count ?? 0), 0);
    // 350 requests: three and a half cycles of 100, the same as the cycle's first 350 entries.
    const expected = new Map<string, number>();
    for (let k = 0; k < 350; k++) {
      const op = MIX[MIX_CYCLE[k % MIX_CYCLE.length]].operationId;
      expected.set(op, (expected.get(op) ?? 0) + 1);
    }
    for (const [op, n] of expected) expect(count(op), op).toBe(n);
  });

  it('sees no 429 under the limit, 429s with Retry-After past it, no other error, and says where they began', () => {
    const [steady, ramp] = summary.phases;
    expect(steady.total).toMatchObject({ errors: 0, rateLimited: 0 });
    expect(ramp.total.rateLimited).toBeGreaterThan(0);
    expect(ramp.total.errors).toBe(0);
    expect(ramp.total.retryAfterMissing).toBe(0);
    expect(summary.onset).toMatchObject({ found: true, phase: 'ramp', early: 0 });
    // A fixed-window limiter says no once its window holds the budget: the answers over the
    // trailing window then hold at least that (less what was still in flight), never well under.
    expect(summary.onset.fractionOfLimit!, JSON.stringify(summary.onset)).toBeGreaterThanOrEqual(0.95);
    expect(summary.thresholds.filter((t) => !t.ok)).toEqual([]);
    expect(summary.verdict).toBe('pass');
  });

  it('reports a timeline and per-endpoint histograms from its own samples, and the runner\'s times from one origin', () => {
    const points = summary.timeline!.points;
    expect(points.reduce((n, p) => n + p.sent, 0)).toBe(summary.phases[0].sent + summary.phases[1].sent);
    expect(points.reduce((n, p) => n + p.rateLimited, 0)).toBe(summary.phases[1].total.rateLimited);
    const chat = summary.histograms!.chat;
    expect(chat.counts.reduce((a, b) => a + b, 0)).toBe(summary.phases[0].endpoints.find((e) => e.operationId === 'chat')!.count);
    for (const p of summary.phases) {
      // A response time is send lag + connection wait + service time of the same request.
      expect(p.total.responseTime!.max).toBeGreaterThanOrEqual(p.total.latency!.max - 1e-6);
      expect(p.total.responseTime!.max).toBeGreaterThanOrEqual(p.sendLag!.max - 1e-6);
      expect(p.total.responseTime!.max).toBeGreaterThanOrEqual(p.connectWait!.max - 1e-6);
    }
    // The steady phase's service times, kept for a later --baseline comparison.
    expect(summary.samples!.endpoints.chat.ms).toHaveLength(summary.phases[0].endpoints.find((e) => e.operationId === 'chat')!.count);
  });
});

describe('the runner\'s warm-up', () => {
  it('warms on a local route: the target sees the setup, the schedule and the teardown, nothing more', async () => {
    const key = 'mk_test_runner_warm_000000001';
    let seenHere = 0;
    const target = await startReference({
      keys: [{ key, tenantId: 'warm', plan: 'enterprise', rpm: 100_000 }],
      extend: (app) => app.addHook('onRequest', async (req) => { if (req.headers['x-api-key'] === key) seenHere++; }),
    });
    try {
      const cfg = resolveConfig({ tier: 'enterprise', rpm: 6000, duration: '2s' });
      const notes: string[] = [];
      const s = await runNodeLoad({ baseUrl: target.url, apiKey: key, config: cfg, warmUp: 500, onProgress: (p) => { if (p.note) notes.push(p.note); } });
      // 4 creates, the schedule, 4 soft-deletes: the warm-up requests went elsewhere.
      expect(seenHere).toBe(4 + s.phases[0].sent + s.phases[1].sent + 4);
      expect(notes[0]).toBe('warming up the runner on a local route (nothing is sent to the target)');
    } finally {
      await target.close();
    }
  }, budget(30_000));
});
