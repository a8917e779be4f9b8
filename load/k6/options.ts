// k6 options from the load model: one arrival-rate scenario per phase, and the model's thresholds
// as k6 thresholds on submetrics tagged by endpoint (operationId) and phase. Bundled into the k6
// scripts: no Node built-ins here.
import type { Options, Threshold as K6Threshold } from 'k6/options';
import type { LoadConfig } from '../model/config.ts';
import type { Schedule } from '../model/schedule.ts';
import { expression, type Threshold } from '../model/thresholds.ts';

/** Custom metrics of the script (names shared with the summary conversion). */
export const METRIC = {
  rateLimited: 'rate_limited',
  retryAfter: 'retry_after_on_429',
  /** Trend: the load offered over the window at each 429, % of the budget (its min is the onset). No threshold: an empty Trend's min is 0 to k6. */
  onset: 'rate_limit_onset',
  /** Rate: per 429, whether it came before the offered load reached MIN_ONSET of the budget (the verdict's metric). */
  early: 'rate_limit_early',
} as const;

/** The k6 metric (with submetric selector) a model threshold is evaluated on. */
export function k6MetricOf(t: Threshold): string {
  const tags = [t.operationId ? `endpoint:${t.operationId}` : '', t.phase !== 'all' ? `phase:${t.phase}` : ''].filter(Boolean).join(',');
  const on = (metric: string) => (tags ? `${metric}{${tags}}` : metric);
  switch (t.kind) {
    case 'latency': return on('http_req_duration');
    case 'errorRate': return on('http_req_failed');
    case 'retryAfter': return on(METRIC.retryAfter);
    case 'onset': return on(METRIC.early);
  }
}

/** Iterations per window: k6 rates are whole numbers per timeUnit, and the window is the natural unit. */
export const perWindow = (rps: number, windowMs: number) => Math.max(1, Math.round((rps * windowMs) / 1000));

/**
 * VUs for an arrival-rate scenario. A request in flight holds a VU, so by Little's law the rate
 * times the latency is what a phase needs: sized for the slowest answer the thresholds accept
 * (the largest p99 bound), past which the run fails anyway and k6 reports dropped iterations.
 * Every VU costs memory on each runner (and money on Grafana Cloud), so no blanket 10x.
 */
export function vusFor(peakRps: number, thresholds: Threshold[]): { preAllocatedVUs: number; maxVUs: number } {
  const slowestMs = Math.max(0, ...thresholds.filter((t) => t.kind === 'latency' && t.stat === 'p99').map((t) => t.bound)) || 1000;
  const maxVUs = Math.ceil((peakRps * slowestMs) / 1000) + 10;
  // Most answers are far quicker: start with a tenth of a second's worth, k6 adds the rest as needed.
  return { preAllocatedVUs: Math.min(maxVUs, Math.ceil(peakRps / 10) + 5), maxVUs };
}

export function k6Options(c: LoadConfig, s: Schedule, thresholds: Threshold[], o: { maxVUs?: number } = {}): Options {
  const [steady, ramp] = s.phases;
  const sized = vusFor(Math.max(steady.toRps, ramp.toRps), thresholds);
  const maxVUs = o.maxVUs ?? sized.maxVUs;
  const preAllocatedVUs = Math.min(maxVUs, sized.preAllocatedVUs);
  // An iteration still waiting for its answer when its phase ends may finish: one request timeout.
  const gracefulStop = `${c.timeoutMs}ms`;
  const timeUnit = `${c.windowMs}ms`;

  const k6Thresholds: Record<string, K6Threshold[]> = {};
  const add = (metric: string, th: K6Threshold) => (k6Thresholds[metric] ??= []).push(th);
  for (const t of thresholds) {
    add(k6MetricOf(t), t.abortOnFail ? { threshold: expression(t), abortOnFail: true, delayAbortEval: `${t.delayAbortEvalMs ?? 0}ms` } : expression(t));
  }
  // Only the model's thresholds: k6 computes a submetric only when a threshold names it, and
  // always-true thresholds added to make more of them appear buried the real ones in k6's own
  // summary (108 of 148). handleSummary makes do with what these name (load/k6/summary.ts); the
  // CLI reads every figure from k6's per-request output instead.

  return {
    scenarios: {
      steady: {
        executor: 'constant-arrival-rate', exec: 'steady', tags: { phase: 'steady' },
        rate: perWindow(steady.fromRps, c.windowMs), timeUnit, duration: `${steady.durationMs}ms`,
        preAllocatedVUs, maxVUs, gracefulStop,
      },
      ramp: {
        executor: 'ramping-arrival-rate', exec: 'ramp', tags: { phase: 'ramp' }, startTime: `${steady.durationMs}ms`,
        startRate: perWindow(ramp.fromRps, c.windowMs), timeUnit,
        stages: [{ target: perWindow(ramp.toRps, c.windowMs), duration: `${ramp.durationMs}ms` }],
        preAllocatedVUs, maxVUs, gracefulStop,
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
