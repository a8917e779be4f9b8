// k6's end-of-test aggregates → the same summary the Node runner writes: in handleSummary, or in
// the CLI from `k6 run --summary-export` (k6's older JSON shape of the same data, see
// fromSummaryExport). k6 keeps no time series, so a plain `k6 run` summary has no timeline or
// histograms (the CLI adds them from k6's JSON output) and no exact onset time (the onset share
// is computed by the script from the schedule, see schedule.ts offeredInWindow).
import { envName, type LoadConfig, type OptionName } from '../model/config.ts';
import { MIX } from '../model/mix.ts';
import { onsetResolution, type PhaseName, type Schedule } from '../model/schedule.ts';
import { SUMMARY_SCHEMA, evaluate, noOnsetWarning, verdictOf, type CheckResult, type EndpointStats, type LoadSummary, type Onset } from '../model/summary.ts';
import { expression, type Threshold } from '../model/thresholds.ts';
import { judgeCompleteness } from '../model/complete.ts';
import { METRIC, k6MetricOf } from './options.ts';

/** The part of k6's summary data this conversion reads. */
export interface K6SummaryData {
  metrics: Record<string, { type?: string; values: Record<string, number>; thresholds?: Record<string, { ok: boolean }> }>;
  root_group?: { checks?: Array<{ name: string; passes: number; fails: number }> };
  setup_data?: { runTag?: string; setupRequests?: number; error?: string } | null;
  state?: { testRunDurationMs?: number };
}

/**
 * `k6 run --summary-export FILE` writes the same data in k6's older shape: a metric's values at
 * its top level, a Rate's rate as `value`, each threshold as `true` when it FAILED, and checks as
 * an object by name. k6 writes it even when handleSummary leaves k6's own text summary in place.
 */
export function fromSummaryExport(exported: {
  metrics: Record<string, Record<string, number | Record<string, boolean>>>;
  root_group?: { checks?: Record<string, { name: string; passes: number; fails: number }> };
  setup_data?: K6SummaryData['setup_data'];
}): K6SummaryData {
  const metrics: K6SummaryData['metrics'] = {};
  for (const [name, m] of Object.entries(exported.metrics)) {
    const { thresholds, ...rest } = m;
    const values = rest as Record<string, number>;
    // A Rate (it has passes and fails): `value` is its rate.
    if ('passes' in values && 'value' in values) values.rate = values.value;
    metrics[name] = {
      values,
      ...(thresholds ? { thresholds: Object.fromEntries(Object.entries(thresholds as Record<string, boolean>).map(([expr, failed]) => [expr, { ok: !failed }])) } : {}),
    };
  }
  return {
    metrics,
    root_group: { checks: Object.values(exported.root_group?.checks ?? {}) },
    ...(exported.setup_data !== undefined ? { setup_data: exported.setup_data } : {}),
  };
}

export interface K6SummaryContext {
  config: LoadConfig;
  schedule: Schedule;
  thresholds: Threshold[];
  baseUrl: string;
  seed?: number;
  now: number;
  /** How messages name options: LOAD_* inside k6 (the default), flags in the CLI. */
  optionName?: OptionName;
  /** The share of the test this k6 ran (its execution segment's length; 1 alone): its plan is that share of the schedule's. */
  share?: number;
  /** Whether to judge the run's completeness here (default); the CLI does it once it has read k6's per-request output. */
  judge?: boolean;
}

export function fromK6Summary(data: K6SummaryData, ctx: K6SummaryContext): LoadSummary {
  const { config, schedule } = ctx;
  const values = (name: string) => data.metrics[name]?.values;

  // k6 computes a submetric only when a threshold names it, and the script declares only the
  // model's thresholds: per endpoint, the steady phase's latency (a Trend, with its count) and
  // error rate; per phase, the error rate (a Rate: passes are the failed requests). So the steady
  // phase has its endpoints, both phases their counts and errors, and the 429s their total
  // (rate_limited, a base metric k6 always reports). The CLI replaces all of it with what k6's
  // per-request output says (load/k6-host/run.ts).
  const total429 = values(METRIC.rateLimited)?.count ?? 0;
  const retryMissing = Math.round(values(METRIC.retryAfter)?.fails ?? 0);
  const endpointStats = (operationId: string): EndpointStats => {
    const selector = `{endpoint:${operationId},phase:steady}`;
    const d = values(`http_req_duration${selector}`);
    const f = values(`http_req_failed${selector}`);
    const count = d?.count ?? (f ? Math.round((f.passes ?? 0) + (f.fails ?? 0)) : 0);
    const errors = Math.round(f?.passes ?? 0);
    return {
      operationId, count, errors, rateLimited: 0, ok: Math.max(0, count - errors), retryAfterMissing: 0,
      ...(count && d ? { latency: { p50: d.med, p95: d['p(95)'], p99: d['p(99)'], max: d.max, mean: d.avg } } : {}),
    };
  };
  const phaseTotal = (phase: PhaseName): EndpointStats => {
    const f = values(`http_req_failed{phase:${phase}}`);
    const count = f ? Math.round((f.passes ?? 0) + (f.fails ?? 0)) : 0;
    const errors = Math.round(f?.passes ?? 0);
    // A 429 under the limit is an error of the steady phase; the 429s are counted on the ramp.
    const rateLimited = phase === 'ramp' ? total429 : 0;
    return { operationId: 'total', count, errors, rateLimited, ok: Math.max(0, count - errors - rateLimited), retryAfterMissing: phase === 'ramp' ? retryMissing : 0 };
  };

  const phases = schedule.phases.map((spec) => {
    const endpoints = spec.name === 'steady' ? MIX.map((e) => endpointStats(e.operationId)) : [];
    const total = phaseTotal(spec.name);
    const planned = Math.round(((spec.fromRps + spec.toRps) / 2) * (spec.durationMs / 1000) * (ctx.share ?? 1));
    // Without send times, the rate achieved is what was sent over the phase's length.
    return { ...spec, planned, sent: total.count, achievedRps: total.count / (spec.durationMs / 1000), endpoints, total };
  });

  const onsetValues = values(METRIC.onset);
  const early = Math.round(values(METRIC.early)?.passes ?? 0);
  const resolution = Math.round(onsetResolution(config) * 1000) / 1000;
  const onset: Onset = onsetValues && onsetValues.count
    ? {
      found: true, offeredInWindow: Math.round((onsetValues.min / 100) * config.rpm), fractionOfLimit: Math.round(onsetValues.min * 10) / 1000,
      rpmEquivalent: Math.round((onsetValues.min / 100) * config.rpm), resolution, early,
    }
    : { found: false, resolution, early };

  // The verdict: k6's own evaluation where it has one (it sets k6's exit status), else ours.
  const results = evaluate(ctx.thresholds, phases, onset).map((r, i) => {
    const k6 = data.metrics[k6MetricOf(ctx.thresholds[i])]?.thresholds?.[expression(ctx.thresholds[i])];
    return k6 ? { ...r, ok: k6.ok } : r;
  });
  const warnings: string[] = [];
  const dropped = values('dropped_iterations')?.count ?? 0;
  if (dropped) warnings.push(`k6 dropped ${dropped} iterations for want of free VUs: the target answered too slowly for the arrival rate (the schedule was not kept; LOAD_MAX_VUS raises the cap)`);
  const aborted = data.setup_data?.error;
  if (!onset.found && !aborted) warnings.push(noOnsetWarning(config, data.setup_data?.setupRequests ?? 0, ctx.optionName ?? envName));
  const checks: CheckResult[] = (data.root_group?.checks ?? []).map((c) => ({ name: c.name, passes: c.passes, fails: c.fails }));

  const durationMs = data.state?.testRunDurationMs ?? schedule.totalMs;
  // A run k6 stopped early (a signal: k6 still writes this summary) sent less than its plan: no verdict.
  const judge = ctx.judge === false ? (x: LoadSummary) => x : judgeCompleteness;
  return judge({
    schema: SUMMARY_SCHEMA, engine: 'k6', tier: config.tier,
    plan: { rpm: config.rpm, windowMs: config.windowMs, limitRps: schedule.limitRps },
    config: { ...config, ...(ctx.seed !== undefined ? { seed: ctx.seed } : {}) }, target: { baseUrl: ctx.baseUrl },
    startedAt: new Date(ctx.now - durationMs).toISOString(), durationMs: Math.round(durationMs),
    setup: { requests: data.setup_data?.setupRequests ?? 0, runTag: data.setup_data?.runTag ?? '' },
    phases, onset, thresholds: results, checks, verdict: verdictOf(results, aborted), ...(aborted ? { aborted } : {}), warnings,
  });
}
