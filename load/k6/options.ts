// k6 options from the load model: one arrival-rate scenario per phase, and the model's thresholds
// as k6 thresholds on submetrics tagged by endpoint (operationId) and phase. Bundled into the k6
// scripts: no Node built-ins here.
import type { Options, Threshold as K6Threshold } from 'k6/options';
import type { LoadConfig } from '../model/config.ts';
import { MIX } from '../model/mix.ts';
import { PHASES, type Schedule } from '../model/schedule.ts';
import { expression, type Threshold } from '../model/thresholds.ts';

/** Custom metrics of the script (names shared with the summary conversion). */
export const METRIC = {
  rateLimited: 'rate_limited',
  retryAfter: 'retry_after_on_429',
  onset: 'rate_limit_onset',
} as const;

/** The k6 metric (with submetric selector) a model threshold is evaluated on. */
export function k6MetricOf(t: Threshold): string {
  const tags = [t.operationId ? `endpoint:${t.operationId}` : '', t.phase !== 'all' ? `phase:${t.phase}` : ''].filter(Boolean).join(',');
  const on = (metric: string) => (tags ? `${metric}{${tags}}` : metric);
  switch (t.kind) {
    case 'latency': return on('http_req_duration');
    case 'errorRate': return on('http_req_failed');
    case 'retryAfter': return on(METRIC.retryAfter);
    case 'onset': return on(METRIC.onset);
  }
}

/**
 * Submetrics k6 only computes when a threshold names them. These always pass; they exist so that
 * handleSummary can fill the per-endpoint table (counts, 429s, ramp latency).
 */
export const OBSERVE = {
  http_reqs: 'count>=0',
  http_req_duration: 'max>=0',
  http_req_failed: 'rate>=0',
  [METRIC.rateLimited]: 'count>=0',
  [METRIC.retryAfter]: 'rate>=0',
} as const;

export function observedMetrics(): string[] {
  const out: string[] = [];
  for (const phase of PHASES) {
    for (const e of MIX) for (const m of ['http_reqs', 'http_req_duration', 'http_req_failed', METRIC.rateLimited]) out.push(`${m}{endpoint:${e.operationId},phase:${phase}}`);
    for (const m of ['http_reqs', 'http_req_duration', 'http_req_failed', METRIC.rateLimited, METRIC.retryAfter]) out.push(`${m}{phase:${phase}}`);
  }
  return out;
}

/** Iterations per window: k6 rates are whole numbers per timeUnit, and the window is the natural unit. */
export const perWindow = (rps: number, windowMs: number) => Math.max(1, Math.round((rps * windowMs) / 1000));

export function k6Options(c: LoadConfig, s: Schedule, thresholds: Threshold[]): Options {
  const [steady, ramp] = s.phases;
  // Arrival-rate executors need a free VU per request in flight: enough for 250 ms answers at the
  // peak rate up front, and room for 10 s answers (the request timeout) before k6 drops iterations.
  const peak = Math.max(steady.toRps, ramp.toRps);
  const maxVUs = Math.min(2000, Math.ceil(peak * 10) + 10);
  const preAllocatedVUs = Math.min(maxVUs, Math.ceil(peak / 4) + 5);
  const timeUnit = `${c.windowMs}ms`;

  const k6Thresholds: Record<string, K6Threshold[]> = {};
  const add = (metric: string, th: K6Threshold) => (k6Thresholds[metric] ??= []).push(th);
  for (const t of thresholds) {
    add(k6MetricOf(t), t.abortOnFail ? { threshold: expression(t), abortOnFail: true, delayAbortEval: `${t.delayAbortEvalMs ?? 0}ms` } : expression(t));
  }
  for (const m of observedMetrics()) {
    const base = m.slice(0, m.indexOf('{')) as keyof typeof OBSERVE;
    add(m, OBSERVE[base]);
  }

  return {
    scenarios: {
      steady: {
        executor: 'constant-arrival-rate', exec: 'steady', tags: { phase: 'steady' },
        rate: perWindow(steady.fromRps, c.windowMs), timeUnit, duration: `${steady.durationMs}ms`,
        preAllocatedVUs, maxVUs, gracefulStop: '10s',
      },
      ramp: {
        executor: 'ramping-arrival-rate', exec: 'ramp', tags: { phase: 'ramp' }, startTime: `${steady.durationMs}ms`,
        startRate: perWindow(ramp.fromRps, c.windowMs), timeUnit,
        stages: [{ target: perWindow(ramp.toRps, c.windowMs), duration: `${ramp.durationMs}ms` }],
        preAllocatedVUs, maxVUs, gracefulStop: '10s',
      },
    },
    thresholds: k6Thresholds,
    summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(95)', 'p(99)', 'count'],
    // Only the setup reads bodies (it asks for them per request); the load does not need them.
    discardResponseBodies: true,
    // Setup and teardown may wait out one rate-limit window (Retry-After) on a busy key.
    setupTimeout: `${c.windowMs + 60_000}ms`,
    teardownTimeout: `${c.windowMs + 60_000}ms`,
    userAgent: 'simulation-load (k6)',
  };
}
