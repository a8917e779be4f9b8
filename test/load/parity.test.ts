// One verdict from both engines. The same answers are fed to the k6 bundle (on stand-ins of k6's
// modules, which emit the samples k6 would) and to the Node runner's recorder; the bundle's k6
// thresholds are then evaluated under k6's rules (test/load/k6-rules.ts: thresholds run on empty
// metrics too, an empty Trend's min is 0, an empty Rate passes) and the model's thresholds the
// Node runner's way. Every threshold must come out the same, in the cases that matter: no 429
// seen, 429s at the limit, 429s before it, latency over its bound, a 429 without Retry-After,
// and a setup the target refuses.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLoadBundles } from '../../load/build.ts';
import { resolveConfig, type LoadConfig } from '../../load/model/config.ts';
import { buildSchedule, countAt, timeOfCount, type PhaseName, type Schedule } from '../../load/model/schedule.ts';
import { evaluate } from '../../load/model/summary.ts';
import { defaultThresholds, expression, passes, type Threshold } from '../../load/model/thresholds.ts';
import { k6MetricOf } from '../../load/k6/options.ts';
import { Recorder } from '../../load/node/recorder.ts';
import { runNodeLoad, SetupError } from '../../load/node/runner.ts';
import { startReference } from '../../reference/index.ts';
import { freshState, loadBundle } from './k6-stub/harness.ts';
import { evaluateK6Thresholds, passesK6, sinkValues, type MetricType } from './k6-rules.ts';

let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'load-parity-'));
  await buildLoadBundles({ outdir: dir });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The free plan's 100 requests per 1 s window: 2 s steady at 80 req/s, then 2 s from 80 to 150.
const ENV = { LOAD_BASE_URL: 'http://target.test', LOAD_API_KEY: 'mk_test_parity', LOAD_WINDOW_MS: '1000', LOAD_DURATION: '4s' };
const SETUP_REQUESTS = 4;
const K6_TYPES: Record<string, MetricType> = {
  http_reqs: 'counter', http_req_duration: 'trend', http_req_failed: 'rate', dropped_iterations: 'counter',
  rate_limited: 'counter', retry_after_on_429: 'rate', rate_limit_onset: 'trend', rate_limit_early: 'rate',
};

/** A run's shape, as both engines read it: the bundle's environment and the model's config. */
interface Shape { env: Record<string, string>; config: LoadConfig; schedule: Schedule; thresholds: Threshold[] }
function shape(env: Record<string, string>): Shape {
  const config = resolveConfig({ tier: 'free', windowMs: Number(env.LOAD_WINDOW_MS), duration: env.LOAD_DURATION });
  return { env, config, schedule: buildSchedule(config), thresholds: defaultThresholds(config) };
}
const SHORT = shape(ENV);
const { config, thresholds } = SHORT;

interface Request { k: number; phase: PhaseName; iteration: number; dueMs: number }
interface Answer { status: number; ms: number; retryAfter?: boolean }

/** Every request of the schedule, with its phase and its iteration number within the phase (k6's iterationInTest). */
function requests(sh: Shape = SHORT): Request[] {
  const steadyCount = Math.ceil(countAt(sh.schedule, sh.config.steadyMs));
  return Array.from({ length: sh.schedule.total }, (_, k) => {
    const phase: PhaseName = k < steadyCount ? 'steady' : 'ramp';
    return { k, phase, iteration: phase === 'steady' ? k : k - steadyCount, dueMs: timeOfCount(sh.schedule, k)! };
  });
}

/** A limiter counting in fixed windows of the due time (the setup counts in the first), with this budget per window. */
function fixedWindow(budget: number, withRetryAfter = true): (r: Request) => Answer {
  const seen = new Map<number, number>([[0, SETUP_REQUESTS]]);
  return (r) => {
    const w = Math.floor(r.dueMs / config.windowMs);
    const n = (seen.get(w) ?? 0) + 1;
    seen.set(w, n);
    return n > budget ? { status: 429, ms: 1, retryAfter: withRetryAfter } : { status: 200, ms: 5 };
  };
}

/** Both verdicts on the same answers: per threshold id, whether it passed under k6 and in the Node runner. */
async function bothEngines(answer: (r: Request, operationId: () => string) => Answer, sh: Shape = SHORT) {
  const k6 = freshState();
  const script = await loadBundle(dir, 'free', sh.env);
  const data = { fx: { worlds: [{ id: 'w1', users: ['u'], personas: ['a', 'b'] }, { id: 'w2', users: ['u'], personas: ['c'] }], personaIds: ['p1', 'p2'] }, runTag: 't', setupRequests: SETUP_REQUESTS };
  const recorder = new Recorder(sh.config, sh.schedule, Array.from({ length: SETUP_REQUESTS }, () => -10));
  for (const r of requests(sh)) {
    let a: Answer | undefined;
    k6.iteration = r.iteration;
    k6.scenarioTags = { phase: r.phase, scenario: r.phase };
    // The script reads how far into its scenario it is from Date.now(): place it at the due time.
    k6.scenarioStart = Date.now() - (r.dueMs - (r.phase === 'steady' ? 0 : sh.config.steadyMs));
    k6.respond = (call) => {
      a = answer(r, () => call.params.tags.endpoint);
      return { status: a.status, duration: a.ms, body: '', headers: a.retryAfter ? { 'Retry-After': '1' } : ({} as Record<string, string>) };
    };
    script[r.phase](data);
    const operationId = k6.requests[k6.requests.length - 1].params.tags.endpoint;
    recorder.recordSend(r.phase, r.dueMs, r.dueMs);
    recorder.recordOutcome({
      phase: r.phase, operationId, sentMs: r.dueMs, answeredMs: r.dueMs + a!.ms, status: a!.status,
      hasRetryAfter: !!a!.retryAfter, serviceMs: a!.ms, responseMs: a!.ms,
    });
  }
  const underK6 = evaluateK6Thresholds(script.options.thresholds, k6.metrics, K6_TYPES, sh.schedule.totalMs / 1000);
  const phases = recorder.phaseResults();
  const node = evaluate(sh.thresholds, phases, recorder.onset());
  const results = sh.thresholds.map((t, i) => {
    const k6ok = underK6.get(`${k6MetricOf(t)} ${expression(t)}`);
    if (k6ok === undefined) throw new Error(`the bundle has no k6 threshold for '${t.id}'`);
    return { id: t.id, k6: k6ok, node: node[i].ok };
  });
  return Object.assign(results, { phases, k6Samples: k6.metrics });
}

const failing = (results: Array<{ id: string; k6: boolean; node: boolean }>, engine: 'k6' | 'node') => results.filter((r) => !r[engine]).map((r) => r.id).sort();

describe('the same answers, the same verdict from k6 and the Node runner', () => {
  it('no 429 seen (a deployment that does not limit, or a ramp too short to fill its window): both pass', async () => {
    const r = await bothEngines(() => ({ status: 200, ms: 5 }));
    expect(failing(r, 'k6')).toEqual([]);
    expect(failing(r, 'node')).toEqual([]);
  });

  it('429s at the limit, with Retry-After: both pass', async () => {
    const r = await bothEngines(fixedWindow(100));
    expect(failing(r, 'k6')).toEqual([]);
    expect(failing(r, 'node')).toEqual([]);
  });

  it('429s before the limit (a budget of 70): both fail the onset and the steady error rates, alike', async () => {
    const r = await bothEngines(fixedWindow(70));
    expect(failing(r, 'k6')).toContain('429s begin at the limit');
    expect(failing(r, 'k6')).toContain('chat errors (steady)');
    expect(failing(r, 'node')).toEqual(failing(r, 'k6'));
  });

  it('a 429 without Retry-After: both fail that threshold only', async () => {
    const r = await bothEngines(fixedWindow(100, false));
    expect(failing(r, 'k6')).toEqual(['429 carries Retry-After']);
    expect(failing(r, 'node')).toEqual(['429 carries Retry-After']);
  });

  it('chat over its latency bounds (900 ms under steady load): both fail its p95 and p99', async () => {
    const r = await bothEngines((req, op) => ({ status: 200, ms: req.phase === 'steady' && op() === 'chat' ? 900 + (req.k % 7) * 30 : 5 }));
    expect(failing(r, 'k6')).toEqual(['chat p95 (steady)', 'chat p99 (steady)']);
    expect(failing(r, 'node')).toEqual(['chat p95 (steady)', 'chat p99 (steady)']);
  });

  it('one slow answer among few samples (the 5th chat answer held 700 ms, 19 chat answers in the steady phase): both pass, with the same p95', async () => {
    // The free plan as a 20 s window counts it, 40 s: 80 steady requests at 4 req/s, of which
    // chat has 19. An HDR histogram's percentile rounds the rank up: its p95 of up to 20 samples
    // is the largest, 700 ms, over chat's bound of 500 (the Node runner failed the run before).
    // k6 interpolates at rank 0.95 × 18 = 17.1, between the two largest: 5 + 0.1 × 695 ≈ 74.5 ms.
    const slow = shape({ ...ENV, LOAD_WINDOW_MS: '20000', LOAD_DURATION: '40s' });
    let chats = 0;
    const r = await bothEngines((req, op) => ({ status: 200, ms: req.phase === 'steady' && op() === 'chat' && ++chats === 5 ? 700 : 5 }), slow);
    const chat = r.phases[0].endpoints.find((e) => e.operationId === 'chat')!;
    expect(chat.count).toBe(19);
    expect(chat.latency!.max).toBe(700);
    const k6Chat = r.k6Samples.http_req_duration.filter((x) => x.tags?.endpoint === 'chat' && x.tags?.phase === 'steady');
    expect(chat.latency!.p95).toBeCloseTo(sinkValues('trend', k6Chat, 40, [95])['p(95)'], 9);
    expect(chat.latency!.p95).toBeCloseTo(5 + 0.1 * 695, 6);
    expect(failing(r, 'k6')).toEqual([]);
    expect(failing(r, 'node')).toEqual([]);
  });

  it('an empty metric reads the same to both: every threshold of the model passes on no samples, as under k6', () => {
    for (const t of thresholds) {
      const type = K6_TYPES[k6MetricOf(t).replace(/\{.*$/, '')];
      expect(passesK6(expression(t), sinkValues(type, [], 4, [95, 99])), t.id).toBe(passes(t, undefined));
    }
    // Why the onset is not the min of a Trend: k6 reads an empty Trend's min as 0, so `min>=95` fails a run without 429s.
    expect(passesK6('min>=95', sinkValues('trend', [], 4, []))).toBe(false);
  });
});

describe('a setup the target refuses', () => {
  it('stops both engines with what it answered', async () => {
    const server = await startReference({ keys: [{ key: 'mk_test_parity_known_key_0001', tenantId: 'p', plan: 'free' }] });
    try {
      await expect(runNodeLoad({ baseUrl: server.url, apiKey: 'mk_test_parity_unknown_0001', config })).rejects.toThrow(SetupError);
      await expect(runNodeLoad({ baseUrl: server.url, apiKey: 'mk_test_parity_unknown_0001', config })).rejects.toThrow(/^setup: POST \/worlds \(createWorld\) answered 401/);
    } finally {
      await server.close();
    }
    const k6 = freshState();
    const script = await loadBundle(dir, 'free', ENV);
    k6.respond = () => ({ status: 401, body: '{"error":{"code":"UNAUTHORIZED"}}', headers: {} });
    const data = script.setup();
    expect(data.error).toMatch(/^setup: POST \/worlds \(createWorld\) answered 401/);
    expect(() => script.steady(data)).toThrow(/test aborted: setup: POST \/worlds/);
  });
});
