// The verdict: thresholds per endpoint (p95, p99 and error rate under steady load) and for the
// whole run (no errors but 429 on the ramp, every 429 with Retry-After, 429s not before the
// plan's limit). Both engines evaluate these same definitions: the k6 script turns them into
// k6 thresholds (load/k6/options.ts), the Node runner evaluates them on its own counts (verdict.ts).
import type { LoadConfig } from './config.ts';
import { MIX } from './mix.ts';
import type { PhaseName } from './schedule.ts';

export type ThresholdKind = 'latency' | 'errorRate' | 'retryAfter' | 'onset';

export interface Threshold {
  /** Stable name shown in reports, e.g. 'chat p95 (steady)'. */
  id: string;
  kind: ThresholdKind;
  phase: PhaseName | 'all';
  /** Absent: every endpoint together. */
  operationId?: string;
  stat?: 'p95' | 'p99';
  /**
   * latency: ms, passes below; errorRate: share of requests, passes below; retryAfter: share of
   * 429 answers carrying Retry-After, passes at or above; onset: share of 429 answers that came
   * before the load offered over the rate-limit window reached MIN_ONSET of the budget, passes at
   * or below (0: none came early).
   */
  bound: number;
  /** Stop the run early when this fails: hammering a broken target measures nothing. */
  abortOnFail?: boolean;
  /** Give the run this long before an abortOnFail threshold may stop it. */
  delayAbortEvalMs?: number;
}

/**
 * Default latency budgets (ms) for a deployment reached over a network: reads are lookups,
 * simulation calls run the emotion engine for one or more characters.
 */
const READS = new Set(['getWorld', 'listWorlds', 'getPersonaState', 'listWorldEvents', 'queryWorld']);
export const LATENCY_BUDGET = { read: { p95: 250, p99: 500 }, simulation: { p95: 500, p99: 1000 } } as const;

export const MAX_ERROR_RATE = 0.01;
/** Half the requests failing: the target is down or refusing us; stop after this long. */
export const ABORT_ERROR_RATE = 0.5;
export const ABORT_DELAY_MS = 10_000;
/** 429s may begin at the limit, with a little slack for clocks and window edges, never well before:
 *  a 429 answered while the load offered over the window was below this share of the budget is early. */
export const MIN_ONSET = 0.95;

export function defaultThresholds(c: LoadConfig): Threshold[] {
  const out: Threshold[] = [];
  for (const e of MIX) {
    const budget = READS.has(e.operationId) ? LATENCY_BUDGET.read : LATENCY_BUDGET.simulation;
    out.push(
      { id: `${e.operationId} p95 (steady)`, kind: 'latency', phase: 'steady', operationId: e.operationId, stat: 'p95', bound: c.p95Ms ?? budget.p95 },
      { id: `${e.operationId} p99 (steady)`, kind: 'latency', phase: 'steady', operationId: e.operationId, stat: 'p99', bound: c.p99Ms ?? budget.p99 },
      { id: `${e.operationId} errors (steady)`, kind: 'errorRate', phase: 'steady', operationId: e.operationId, bound: MAX_ERROR_RATE },
    );
  }
  out.push(
    { id: 'errors (steady, abort)', kind: 'errorRate', phase: 'steady', bound: ABORT_ERROR_RATE, abortOnFail: true, delayAbortEvalMs: Math.min(ABORT_DELAY_MS, c.steadyMs / 2) },
    { id: 'errors other than 429 (ramp)', kind: 'errorRate', phase: 'ramp', bound: MAX_ERROR_RATE },
    { id: '429 carries Retry-After', kind: 'retryAfter', phase: 'all', bound: 1 },
    { id: '429s begin at the limit', kind: 'onset', phase: 'all', bound: 0 },
  );
  return out;
}

/** 'p(95)<500', 'rate<0.01', 'rate>=1', 'rate<=0': the k6 expression, also shown in reports. */
export function expression(t: Threshold): string {
  switch (t.kind) {
    case 'latency': return `p(${t.stat === 'p95' ? 95 : 99})<${t.bound}`;
    case 'errorRate': return `rate<${t.bound}`;
    case 'retryAfter': return `rate>=${t.bound}`;
    case 'onset': return `rate<=${t.bound}`;
  }
}

/**
 * Whether a measured value passes the threshold, by k6's rules, so that both engines reach one
 * verdict. k6 evaluates thresholds on empty metrics too: an empty Trend's percentiles are 0 (which
 * passes every latency bound here) and an empty Rate has no value (its thresholds pass). Every
 * threshold here is a Trend percentile below a bound or a Rate, so no samples (undefined) passes.
 * (An empty Trend's min is 0 as well: a `min>=` bound would fail a run that saw no 429; that is
 * why the onset is a Rate of early 429s, not the min of a Trend.)
 */
export function passes(t: Threshold, actual: number | undefined): boolean {
  if (actual === undefined || Number.isNaN(actual)) return true;
  switch (t.kind) {
    case 'latency':
    case 'errorRate': return actual < t.bound;
    case 'retryAfter': return actual >= t.bound;
    case 'onset': return actual <= t.bound;
  }
}
