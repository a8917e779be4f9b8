// The summary both engines write to reports/load-<tier>.json, and the verdict on it. Plain data:
// the k6 script builds it in handleSummary from k6's aggregates, the Node runner from its samples.
import type { LoadConfig } from './config.ts';
import type { PhaseName, PhaseSpec } from './schedule.ts';
import { expression, passes, type Threshold } from './thresholds.ts';

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
  /** Absent when nothing was answered. */
  latency?: Latency;
}

export interface PhaseResult extends PhaseSpec {
  /** Requests the schedule planned, and those sent. */
  planned: number;
  sent: number;
  /** Rate actually achieved, from the send times (Node runner), requests per second. */
  achievedRps?: number;
  /** Worst lateness of a send against its scheduled time, ms (Node runner). */
  maxLagMs?: number;
  endpoints: EndpointStats[];
  total: EndpointStats;
}

export interface Onset {
  found: boolean;
  /** ms from the start of the steady phase to the first 429 (its answer). */
  atMs?: number;
  phase?: PhaseName;
  operationId?: string;
  /** Requests offered in the rate-limit window ending at the first 429. */
  offeredInWindow?: number;
  /** offeredInWindow / the plan's budget per window: 1 means 429s began exactly at the limit. */
  fractionOfLimit?: number;
  /** The same, at the plan's scale: requests per minute. */
  rpmEquivalent?: number;
  /** The scheduled arrival rate at that moment, as a share of the limit. */
  rateFraction?: number;
  /** The ramp's climb during one rate-limit window (share of the limit): how coarsely a fixed-window limiter can show the onset. */
  resolution: number;
}

export interface ThresholdResult {
  id: string;
  expression: string;
  actual?: number;
  ok: boolean;
  abortOnFail?: boolean;
}

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
  verdict: 'pass' | 'fail';
  /** Why the run stopped early, when it did. */
  aborted?: string;
  warnings: string[];
  /** Per-second counts over the run (absent from a plain `k6 run`: k6 keeps no time series). */
  timeline?: { bucketMs: number; points: TimelinePoint[] };
  /** Latency histogram per endpoint over the steady phase: counts between bounds (ms). */
  histograms?: Record<string, { boundsMs: number[]; counts: number[] }>;
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
    case 'onset': return onset.found ? onset.fractionOfLimit : undefined;
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

/** Sums endpoint stats (latency is not additive: the caller supplies it for the total). */
export function totalOf(endpoints: EndpointStats[], latency?: Latency): EndpointStats {
  const sum = (f: (s: EndpointStats) => number) => endpoints.reduce((n, s) => n + f(s), 0);
  return {
    operationId: 'total', count: sum((s) => s.count), ok: sum((s) => s.ok), errors: sum((s) => s.errors),
    rateLimited: sum((s) => s.rateLimited), retryAfterMissing: sum((s) => s.retryAfterMissing), ...(latency ? { latency } : {}),
  };
}
