// One report and one verdict from the runners of a split run (k6-operator's execution segments,
// or the CLI's --runners). Each k6 runner evaluates the thresholds on its own metrics only, so a
// runner's verdict is not the run's: a p95 interpolated from a runner's ten samples may pass where
// the twenty of the whole fail, and the reverse. Here the whole is judged: the percentiles from the
// raw samples of every runner (`--out json`), the rate offered and the first 429 from every
// runner's sends on one time axis (what the limiter saw), the thresholds of the model evaluated
// once on that. Each runner's own verdict is kept beside it (`runners`), as its pod would report it.
import { existsSync } from 'node:fs';
import type { LoadConfig } from '../model/config.ts';
import { judgeCompleteness } from '../model/complete.ts';
import { flagName } from '../model/config.ts';
import { buildSchedule } from '../model/schedule.ts';
import { SUMMARY_SCHEMA, evaluate, noOnsetWarning, verdictOf, type CheckResult, type EndpointStats, type LoadSummary, type RunnerReport } from '../model/summary.ts';
import { defaultThresholds } from '../model/thresholds.ts';
import { fromK6Summary, type K6SummaryData } from '../k6/summary.ts';
import { METRIC } from '../k6/options.ts';
import { readK6Outputs } from './output.ts';
import { parseSegment } from '../model/distributed.ts';

/** What one runner left: its exit status, its summary export (k6's aggregates of its own metrics) and its raw samples. */
export interface RunnerOutput {
  index: number;
  segment: string | null;
  exitCode: number;
  /** The signal that killed it, when one did (its exitCode is then 128 + the signal's number). */
  signal?: string;
  exported: K6SummaryData;
  /** Its `--out json=` file. */
  pointsFile: string;
}

export interface CombineContext { config: LoadConfig; baseUrl: string; seed?: number; now: number }

/** A runner's own verdict, from its k6 threshold results. */
export function runnerReport(r: RunnerOutput, ctx: CombineContext): RunnerReport {
  const schedule = buildSchedule(ctx.config);
  const segment = parseSegment(r.segment);
  const own = fromK6Summary(r.exported, { config: ctx.config, schedule, thresholds: defaultThresholds(ctx.config), baseUrl: ctx.baseUrl, now: ctx.now, optionName: flagName, ...(segment ? { share: segment[1] - segment[0] } : {}) });
  const onset = r.exported.metrics[METRIC.onset]?.values;
  return {
    index: r.index, segment: r.segment, exitCode: r.exitCode, ...(r.signal ? { signal: r.signal } : {}), sent: own.phases.reduce((n, p) => n + p.sent, 0),
    verdict: own.verdict, failed: own.thresholds.filter((t) => !t.ok).map((t) => t.id),
    ...(onset?.count ? { onsetPct: Math.round(onset.min * 10) / 10 } : {}),
  };
}

export async function combineRunners(runners: RunnerOutput[], ctx: CombineContext): Promise<LoadSummary> {
  const { config } = ctx;
  const schedule = buildSchedule(config);
  const thresholds = defaultThresholds(config);
  const reports = runners.map((r) => runnerReport(r, ctx));
  const values = (r: RunnerOutput, name: string) => r.exported.metrics[name]?.values;

  // A runner killed before it wrote anything has no points file.
  const { recorder, dropped } = await readK6Outputs(runners.map((r) => r.pointsFile).filter((f) => existsSync(f)), config, schedule);
  // k6 records no Retry-After per sample: each runner's retry_after_on_429 counts its missing ones.
  const retryAfterMissing = runners.reduce((n, r) => n + Math.round(values(r, METRIC.retryAfter)?.fails ?? 0), 0);
  // k6 knows no due time: its samples' response time would only repeat the service time.
  const bare = ({ responseTime: _, ...e }: EndpointStats): EndpointStats => e;
  const phases = recorder.phaseResults().map(({ sendLag: _l, connectWait: _w, ...p }) => ({
    ...p, endpoints: p.endpoints.map(bare),
    total: { ...bare(p.total), retryAfterMissing: p.name === 'ramp' ? retryAfterMissing : 0 },
    ...(dropped[p.name] ? { droppedIterations: dropped[p.name] } : {}),
  }));
  const onset = recorder.onset();
  // Each runner's setup counts every runner's (4 × runners: load/model/distributed.ts); the largest says how many there were.
  const setupRequests = Math.max(0, ...runners.map((r) => r.exported.setup_data?.setupRequests ?? 0));
  const aborted = runners.map((r) => r.exported.setup_data?.error).find(Boolean);
  const results = evaluate(thresholds, phases, onset);

  const checks = new Map<string, CheckResult>();
  for (const r of runners) {
    for (const c of r.exported.root_group?.checks ?? []) {
      const sum = checks.get(c.name) ?? { name: c.name, passes: 0, fails: 0 };
      checks.set(c.name, { name: c.name, passes: sum.passes + c.passes, fails: sum.fails + c.fails });
    }
  }
  const warnings: string[] = [];
  const droppedAll = (dropped.steady ?? 0) + (dropped.ramp ?? 0);
  if (droppedAll) warnings.push(`the runners dropped ${droppedAll} iterations for want of free VUs: the target answered too slowly for the arrival rate (the schedule was not kept; LOAD_MAX_VUS raises the cap)`);
  if (!onset.found && !aborted) warnings.push(noOnsetWarning(config, setupRequests, flagName));
  const verdict = verdictOf(results, aborted);
  // A runner without a verdict of its own (stopped short) is told of by the run's own incompleteness.
  const disagree = reports.filter((r) => r.verdict !== 'none' && r.verdict !== verdict);
  if (disagree.length) {
    warnings.push(`${disagree.map((r) => `runner ${r.index}`).join(', ')} alone would have said ${disagree[0].verdict.toUpperCase()} (each k6 runner judges its thresholds on its own samples); ` +
      `the verdict is the whole run's, on the samples of all ${runners.length} runners`);
  }
  const durationMs = schedule.totalMs;
  return judgeCompleteness({
    schema: SUMMARY_SCHEMA, engine: 'k6', tier: config.tier,
    plan: { rpm: config.rpm, windowMs: config.windowMs, limitRps: schedule.limitRps },
    config: { ...config, ...(ctx.seed !== undefined ? { seed: ctx.seed } : {}) }, target: { baseUrl: ctx.baseUrl },
    startedAt: new Date(ctx.now - durationMs).toISOString(), durationMs,
    setup: { requests: setupRequests, runTag: runners.map((r) => r.exported.setup_data?.runTag ?? '').join(' ') },
    phases, onset, thresholds: results, checks: [...checks.values()], verdict, ...(aborted ? { aborted } : {}), warnings,
    timeline: recorder.timeline(), histograms: recorder.histograms(), samples: recorder.sampleStore(),
    runners: reports,
  });
}
