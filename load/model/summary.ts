// The summary both engines write to reports/load-<tier>.json, and the verdict on it. Plain data:
// the k6 script builds it in handleSummary from k6's aggregates, the Node runner from its samples.
import { MAX_DURATION_MS, type LoadConfig, type OptionName } from './config.ts';
import { buildSchedule, fixedWindowPeak, type PhaseName, type PhaseSpec } from './schedule.ts';
import { expression, passes, type Threshold } from './thresholds.ts';
import type { Comparison } from './compare.ts';
import type { Incomplete } from './complete.ts';


export const SUMMARY_SCHEMA = 'simulation-load-summary/1';

/** Latency in ms. */
export interface Latency { p50: number; p95: number; p99: number; max: number; mean: number }

export interface EndpointStats {
  operationId: string;
  count: number;
  /** 2xx answers. */
  ok: number;
  /** Failures: transport errors, timeouts, and non-2xx answers, except 429 on the ramp. */
  errors: number;
  rateLimited: number;
  /** 429 answers without a Retry-After header (SPEC.md: every 429 carries one). */
  retryAfterMissing: number;
  /**
   * Service time: from the moment the request is written on a connection to its whole answer, as k6's http_req_duration
   * counts it (both engines; the thresholds judge it). Absent when nothing was answered.
   */
  latency?: Latency;
  /**
   * Response time: from the request's scheduled send to its answer, so that a late send (the
   * runner's or a backlog's) is charged too, corrected for coordinated omission as wrk2 does.
   * Node runner only: k6 does not record when an iteration was due.
   */
  responseTime?: Latency;
}

export interface PhaseResult extends PhaseSpec {
  /** Requests the schedule planned, and those sent. */
  planned: number;
  sent: number;
  /** Rate actually achieved, requests per second: sends within the phase (Node runner, or k6 with
   *  its JSON output), else requests counted over the phase's duration. */
  achievedRps: number;
  /** Lateness of the sends against their scheduled times, ms (Node runner: its own send lag). */
  sendLag?: { p50: number; p99: number; max: number };
  /**
   * From the runner's send to a connection taking the request (a busy pool, a new connection), ms
   * (Node runner). The response time is send lag + this + the service time, all from one origin.
   */
  connectWait?: { p50: number; p99: number; max: number };
  /** Iterations k6 could not start for want of a free VU (k6 only): the schedule was not kept. */
  droppedIterations?: number;
  endpoints: EndpointStats[];
  total: EndpointStats;
}

export interface Onset {
  found: boolean;
  /** ms from the start of the steady phase to the first 429 (its answer). */
  atMs?: number;
  phase?: PhaseName;
  operationId?: string;
  /**
   * Requests offered in the rate-limit window ending at the first 429: the Node runner, those the
   * limiter may have counted (an upper bound from send and answer times); the k6 script, the
   * schedule's offer.
   */
  offeredInWindow?: number;
  /** offeredInWindow / the plan's budget per window: 1 means 429s began exactly at the limit. */
  fractionOfLimit?: number;
  /** The same, at the plan's scale: requests per minute. */
  rpmEquivalent?: number;
  /** The scheduled arrival rate at that moment, as a share of the limit. */
  rateFraction?: number;
  /** What the k6 script's rule (the schedule's offer over the window, setup counted at the start) reads at the same moment (Node runner). */
  scheduledFraction?: number;
  /** The ramp's climb during one rate-limit window (share of the limit): how coarsely a fixed-window limiter can show the onset. */
  resolution: number;
  /** 429s answered before the load offered over the window reached MIN_ONSET of the budget: each one is early. */
  early: number;
}

/** k6's checks, and the same two counted by the Node runner. */
export interface CheckResult { name: string; passes: number; fails: number }
export const CHECK = { ok: 'status is 2xx', retryAfter: '429 carries Retry-After' } as const;

export interface ThresholdResult {
  id: string;
  expression: string;
  actual?: number;
  ok: boolean;
  abortOnFail?: boolean;
}

/**
 * Service times kept for a later comparison (`npm run load -- --baseline FILE`): per endpoint of
 * the steady phase, every sample when there were at most `cap`, else a uniform random subset of
 * `cap` of them (a reservoir, seeded); `count` is how many there were. Both engines write it when
 * run by the CLI (the k6 engine from k6's per-request output); a plain `k6 run` cannot.
 */
export interface SampleStore {
  phase: 'steady';
  metric: 'service';
  cap: number;
  endpoints: Record<string, { count: number; ms: number[] }>;
}

/** One runner of a split run, as it judged itself: k6 evaluates thresholds on the runner's own metrics only. */
export interface RunnerReport {
  index: number;
  /** Its execution segment ('0:1/2'); null for a lone runner (the whole test). */
  segment: string | null;
  /** k6's exit status: 0, 99 (a threshold failed on its own metrics), 105 (stopped by a signal, summary written), 108 (aborted), … */
  exitCode: number;
  /** The signal that ended it, when one did (SIGKILL: no summary). */
  signal?: string;
  /** Requests it sent in the measured phases. */
  sent: number;
  /** Its own verdict, and the thresholds it failed on its own metrics ('none': it did not run its segment of the plan). */
  verdict: 'pass' | 'fail' | 'none';
  failed: string[];
  /** Its first 429, as its own script read it (the schedule's offer over the window, % of the budget). */
  onsetPct?: number;
}

/** Per bucket of send times: each answer counted once, as 2xx (ok), 429 (rateLimited) or another failure, no answer included (errors). */
export interface TimelinePoint { t: number; sent: number; ok: number; rateLimited: number; errors: number }

export interface LoadSummary {
  schema: typeof SUMMARY_SCHEMA;
  engine: 'node' | 'k6';
  tier: LoadConfig['tier'];
  plan: { rpm: number; windowMs: number; limitRps: number };
  config: LoadConfig & { seed?: number };
  target: { baseUrl: string; embedded?: boolean };
  startedAt: string;
  /** Wall time of the measured phases, ms. */
  durationMs: number;
  setup: { requests: number; runTag: string };
  phases: PhaseResult[];
  onset: Onset;
  thresholds: ThresholdResult[];
  checks: CheckResult[];
  /** 'none': the run did not run its plan (`incomplete` says how far it got and why): no verdict. */
  verdict: 'pass' | 'fail' | 'none';
  /** Why the run stopped early, when it did. */
  aborted?: string;
  /** The run fell short of its plan (a runner stopped, Ctrl-C, …): load/model/complete.ts. */
  incomplete?: Incomplete;
  warnings: string[];
  /** Per-second counts over the run (absent from a plain `k6 run`: k6 keeps no time series). */
  timeline?: { bucketMs: number; points: TimelinePoint[] };
  /** Latency histogram per endpoint over the steady phase: counts between bounds (ms). */
  histograms?: Record<string, { boundsMs: number[]; counts: number[] }>;
  /** The steady phase's service times per endpoint (a bounded reservoir), for --baseline. */
  samples?: SampleStore;
  /** This run against a baseline run (`--baseline FILE`). */
  comparison?: Comparison;
  /**
   * The key's use against a deployment (CLI runs with --base-url): a fingerprint of the key and
   * when the run's last request went (teardown included), so that the next run of the key waits
   * until these requests no longer count in the limiter's window (load/fresh-window.ts).
   */
  keyUse?: { id: string; lastRequestAt: string };
  /**
   * A run split across k6 runners (execution segments, as k6-operator starts them): what each
   * runner judged on its own samples. The run's figures and verdict are the whole's, from every
   * runner's raw samples (load/k6-host/combine.ts).
   */
  runners?: RunnerReport[];

}

/**
 * The most of the timeline's `pick` in any span of one rate-limit window, and whether that span
 * begins with the run (where the setup's requests count too); undefined without a timeline.
 */
export function mostInWindow(s: Pick<LoadSummary, 'timeline' | 'plan'>, pick: (p: TimelinePoint) => number): { most: number; fromStart: boolean } | undefined {
  const t = s.timeline;
  if (!t?.points.length) return undefined;
  const n = Math.max(1, Math.round(s.plan.windowMs / t.bucketMs));
  let best = { most: -1, fromStart: false };
  for (let i = 0; i < t.points.length; i++) {
    const sum = t.points.slice(i, i + n).reduce((k, p) => k + pick(p), 0);
    if (sum > best.most) best = { most: sum, fromStart: i === 0 };
  }
  return best;
}

/** The value a threshold looks at, from the phase results and the onset. */
export function measure(t: Threshold, phases: PhaseResult[], onset: Onset): number | undefined {
  const inScope = phases.filter((p) => t.phase === 'all' || p.name === t.phase);
  const stats = inScope.map((p) => (t.operationId ? p.endpoints.find((e) => e.operationId === t.operationId) : p.total)).filter((s): s is EndpointStats => !!s);
  const sum = (f: (s: EndpointStats) => number) => stats.reduce((n, s) => n + f(s), 0);
  switch (t.kind) {
    case 'latency': {
      // Latency thresholds name a single phase; with 'all' the worst phase counts.
      const values = stats.map((s) => s.latency?.[t.stat ?? 'p95']).filter((v): v is number => v !== undefined);
      return values.length ? Math.max(...values) : undefined;
    }
    case 'errorRate': { const n = sum((s) => s.count); return n ? sum((s) => s.errors) / n : undefined; }
    case 'retryAfter': { const n = sum((s) => s.rateLimited); return n ? 1 - sum((s) => s.retryAfterMissing) / n : undefined; }
    case 'onset': { const n = sum((s) => s.rateLimited); return n ? onset.early / n : undefined; }
  }
}

export function evaluate(thresholds: Threshold[], phases: PhaseResult[], onset: Onset): ThresholdResult[] {
  return thresholds.map((t) => {
    const actual = measure(t, phases, onset);
    return { id: t.id, expression: expression(t), ...(actual !== undefined ? { actual } : {}), ok: passes(t, actual), ...(t.abortOnFail ? { abortOnFail: true } : {}) };
  });
}

export const verdictOf = (results: ThresholdResult[], aborted?: string): 'pass' | 'fail' =>
  !aborted && results.every((r) => r.ok) ? 'pass' : 'fail';

/** The checks the k6 script makes, from the counts: every answer but a 429 should be 2xx; every 429 should carry Retry-After. */
export function checksOf(phases: PhaseResult[]): CheckResult[] {
  const sum = (f: (s: EndpointStats) => number) => phases.reduce((n, p) => n + f(p.total), 0);
  const limited = sum((s) => s.rateLimited);
  const missing = sum((s) => s.retryAfterMissing);
  return [
    { name: CHECK.ok, passes: sum((s) => s.ok), fails: sum((s) => s.count - s.ok - s.rateLimited) },
    { name: CHECK.retryAfter, passes: limited - missing, fails: missing },
  ];
}

/** Sums endpoint stats (latency is not additive: the caller supplies it for the total). */
export function totalOf(endpoints: EndpointStats[], latency?: Latency): EndpointStats {
  const sum = (f: (s: EndpointStats) => number) => endpoints.reduce((n, s) => n + f(s), 0);
  return {
    operationId: 'total', count: sum((s) => s.count), ok: sum((s) => s.ok), errors: sum((s) => s.errors),
    rateLimited: sum((s) => s.rateLimited), retryAfterMissing: sum((s) => s.retryAfterMissing), ...(latency ? { latency } : {}),
  };
}

/**
 * Whether a correct limiter counting in fixed windows may let this whole run pass without a 429:
 * its windows begin where the deployment chose (at a key's first request, on the clock's
 * minute, …), and windows placed across the ramp may each stay within the budget. `peak` is the
 * most the fullest window must hold; `fills` whether that is past the budget; when it is not,
 * `longer` is the `--duration` whose ramp fills a window however they are placed (if one does).
 */
export function fixedWindowReach(config: LoadConfig, setupRequests: number): { peak: number; fills: boolean; longer?: string } {
  const peak = Math.round(fixedWindowPeak(buildSchedule(config), config.windowMs, setupRequests));
  if (peak > config.rpm) return { peak, fills: true };
  const longer = longerDuration(config, setupRequests);
  return { peak, fills: false, ...(longer ? { longer } : {}) };
}

/** The blind spot in words: the windows, the share of the budget, the duration that closes it. */
export function blindSpotText(config: LoadConfig, spot: { peak: number; longer?: string }, name: OptionName): string {
  return `a limiter counting in fixed ${config.windowMs / 1000} s windows may have them placed so that none holds more than ${spot.peak} requests of this run ` +
    `(${Math.round((spot.peak / config.rpm) * 100)}% of the budget of ${config.rpm}) and rightly never say no` +
    (spot.longer ? `; ${name('duration')} ${spot.longer} makes its 429 certain` : '');
}

/**
 * What a run that saw no 429 shows, the same in both engines: a deployment that ignores its
 * limit is told apart from a run that could not fill a window (fixedWindowReach), so that a
 * correct deployment never reads as one that does not limit.
 */
export function noOnsetWarning(config: LoadConfig, setupRequests: number, name: OptionName): string {
  const head = `no 429 up to ${Math.round(config.rampTo * 100)}% of the limit`;
  const reach = fixedWindowReach(config, setupRequests);
  if (!reach.fills) return `${head}, which does not show that the deployment ignores it: ${blindSpotText(config, reach, name)}`;
  // "Per window": a fixed or a sliding window must have said no; a token bucket that lets a full
  // bucket burst on top of its refill may not have.
  return `${head}: the deployment did not limit this key to its budget per window (wherever its ${config.windowMs / 1000} s windows begin, ` +
    `one of them held at least ${reach.peak} requests, ${Math.round((reach.peak / config.rpm) * 100)}% of the budget of ${config.rpm})`;
}

/** The shortest run, to the second (to 10 s past a minute), whose ramp fills a fixed window however it is placed. */
function longerDuration(config: LoadConfig, setupRequests: number): string | undefined {
  const fills = (d: number) => {
    const steadyMs = Math.round(d / 2);
    const c = { ...config, steadyMs, rampMs: d - steadyMs };
    return fixedWindowPeak(buildSchedule(c), c.windowMs, setupRequests) > c.rpm;
  };
  // A longer run climbs more slowly, so its last windows hold more: a bisection finds the least.
  let lo = config.steadyMs + config.rampMs;
  let hi = MAX_DURATION_MS;
  if (!fills(hi)) return undefined;
  while (hi - lo > 1000) {
    const mid = Math.round((lo + hi) / 2);
    if (fills(mid)) hi = mid; else lo = mid;
  }
  const d = hi < 60_000 ? Math.ceil(hi / 1000) * 1000 : Math.ceil(hi / 10_000) * 10_000;
  const m = Math.floor(d / 60_000);
  const sec = (d % 60_000) / 1000;
  return `${m ? `${m}m` : ''}${sec || !m ? `${sec}s` : ''}`;
}
