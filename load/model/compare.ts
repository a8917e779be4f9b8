// "Did this release get slower?": a run against a baseline run (a previous run's JSON, either
// engine), per endpoint of the steady phase, on the service times both stored (`samples`, a
// bounded reservoir: load/node/recorder.ts).
//
// The test: a bootstrap confidence interval for the difference of the p50, and of the p95,
// current minus baseline. Each run's samples are resampled with replacement, independently, and
// the percentile (k6's rule, load/model/samples.ts) taken of each resample; the interval holds
// the middle `confidence` of the differences. Why this one: the thresholds and tables speak p50
// and p95, so the test is about those and reads in ms against the regression threshold; latency
// is skewed and often has two modes, and the bootstrap assumes no shape. (Mann–Whitney U would
// test whether one run's samples tend to be larger, a shift of the whole distribution: it says
// nothing of a tail that grew while the median stayed.) A percentile of few samples is its
// largest ones, so with under MIN_SAMPLES on either side an endpoint is "too few samples", and
// with few samples the p95's interval is wide: a short run shows only large regressions.
//
// An endpoint is worse when a difference is significant (its whole interval above zero) AND
// larger than the threshold (both `thresholdPct` of the baseline's value and `floorMs`); better
// the other way round; else the same. Up to 22 intervals are read per run (11 endpoints, two
// percentiles): 99% each, and the threshold on top, keep a false "worse" rare.
// No Node built-ins: plain data in, plain data out.
import { mulberry32, ns, percentileOfSorted } from './samples.ts';
import type { LoadSummary } from './summary.ts';

export const MIN_SAMPLES = 10;

export interface CompareOptions {
  /** A slowdown below this share of the baseline's value is "the same" (default 20%). */
  thresholdPct?: number;
  /** …or below this many ms (default 1): sub-millisecond moves on a fast endpoint are noise. */
  floorMs?: number;
  /** Of each bootstrap interval (default 0.99). */
  confidence?: number;
  resamples?: number;
  seed?: number;
}

export type Verdict = 'worse' | 'same' | 'better' | 'too few samples';

export interface StatComparison {
  baseline: number;
  current: number;
  /** current − baseline, ms, and its bootstrap interval. */
  diff: number;
  low: number;
  high: number;
  /** diff / baseline. */
  change: number;
  verdict: Exclude<Verdict, 'too few samples'>;
}

export interface EndpointComparison {
  operationId: string;
  baselineCount: number;
  currentCount: number;
  p50?: StatComparison;
  p95?: StatComparison;
  verdict: Verdict;
}

export interface Comparison {
  baseline: { engine: string; tier: string; startedAt: string; file?: string };
  method: string;
  thresholdPct: number;
  floorMs: number;
  confidence: number;
  resamples: number;
  endpoints: EndpointComparison[];
  /** Some endpoint is worse: slower by more than the threshold, and significantly. */
  regression: boolean;
  /** Why the runs were not compared (one was mostly refused): then no endpoint has a verdict. */
  notCompared?: string;
}

/**
 * Share of a run's steady-phase requests refused or failed (429s under the limit count) above
 * which its service times are not its endpoints' latency: a 429 is answered before any work, so
 * a mostly refused run reads "faster" and would hide any regression.
 */
export const MAX_REFUSED_SHARE = 0.1;

/** Why a run's steady phase cannot be compared (mostly refused or failed); undefined when it can. */
export function refusedProblem(s: LoadSummary, which: string): string | undefined {
  const steady = s.phases?.find((p) => p.name === 'steady')?.total;
  if (!steady?.count) return undefined;
  const share = steady.errors / steady.count;
  if (share <= MAX_REFUSED_SHARE) return undefined;
  const limited = steady.rateLimited;
  return `${Math.round(share * 100)}% of ${which}'s steady-phase requests were refused or failed (${limited} of ${steady.count} with 429): ` +
    `their service times are not the endpoints' latency`;
}

/** Why a summary cannot serve as a baseline; undefined when it can. */
export function baselineProblem(s: Partial<LoadSummary>): string | undefined {
  if (!s || typeof s !== 'object' || s.schema !== 'simulation-load-summary/1') return 'it is not the JSON of a load run (reports/load-<tier>.json)';
  if (!s.samples || !s.samples.endpoints || typeof s.samples.endpoints !== 'object') {
    return 'it holds no samples (a plain `k6 run` keeps only aggregates; run it through `npm run load`, with either engine)';
  }
  return undefined;
}

export function compareRuns(baseline: LoadSummary, current: LoadSummary, o: CompareOptions = {}): Comparison {
  const thresholdPct = o.thresholdPct ?? 20;
  const floorMs = o.floorMs ?? 1;
  const confidence = o.confidence ?? 0.99;
  const resamples = o.resamples ?? 2000;
  const method = `bootstrap ${Math.round(confidence * 100)}% interval of the p50 and p95 difference (${resamples} resamples of each run, k6's percentile rule); ` +
    `worse or better when significant and beyond ${thresholdPct}% of the baseline and ${floorMs} ms`;
  const refused = refusedProblem(current, 'this run') ?? refusedProblem(baseline, 'the baseline');
  if (refused) {
    return { baseline: { engine: baseline.engine, tier: baseline.tier, startedAt: baseline.startedAt }, method, thresholdPct, floorMs, confidence, resamples, endpoints: [], regression: false, notCompared: refused };
  }
  const before = baseline.samples?.endpoints ?? {};
  const after = current.samples?.endpoints ?? {};
  const ops = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const endpoints = ops.map((operationId, i): EndpointComparison => {
    const a = Float64Array.from(before[operationId]?.ms ?? []).sort();
    const b = Float64Array.from(after[operationId]?.ms ?? []).sort();
    const head = { operationId, baselineCount: a.length, currentCount: b.length };
    if (a.length < MIN_SAMPLES || b.length < MIN_SAMPLES) return { ...head, verdict: 'too few samples' };
    const boot = bootstrap(a, b, [0.5, 0.95], resamples, (o.seed ?? 1) + i);
    const stat = (k: number, p: number): StatComparison => {
      const base = percentileOfSorted(a, p);
      const cur = percentileOfSorted(b, p);
      const diffs = boot[k].sort();
      const low = percentileOfSorted(diffs, (1 - confidence) / 2);
      const high = percentileOfSorted(diffs, 1 - (1 - confidence) / 2);
      const diff = cur - base;
      const big = Math.abs(diff) > Math.max((thresholdPct / 100) * base, floorMs);
      const verdict = big && low > 0 && diff > 0 ? 'worse' : big && high < 0 && diff < 0 ? 'better' : 'same';
      return { baseline: ns(base), current: ns(cur), diff: ns(diff), low: ns(low), high: ns(high), change: base > 0 ? ns(diff / base) : 0, verdict };
    };
    const p50 = stat(0, 0.5);
    const p95 = stat(1, 0.95);
    const verdicts = [p50.verdict, p95.verdict];
    const verdict: Verdict = verdicts.includes('worse') ? 'worse' : verdicts.includes('better') ? 'better' : 'same';
    return { ...head, p50, p95, verdict };
  });
  return {
    baseline: { engine: baseline.engine, tier: baseline.tier, startedAt: baseline.startedAt },
    method, thresholdPct, floorMs, confidence, resamples, endpoints, regression: endpoints.some((e) => e.verdict === 'worse'),
  };
}

/** For each p, `resamples` differences: percentile of a resample of b minus that of a resample of a. */
function bootstrap(a: Float64Array, b: Float64Array, ps: number[], resamples: number, seed: number): Float64Array[] {
  const rand = mulberry32(seed);
  const out = ps.map(() => new Float64Array(resamples));
  const ra = new Float64Array(a.length);
  const rb = new Float64Array(b.length);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < a.length; i++) ra[i] = a[Math.floor(rand() * a.length)];
    for (let i = 0; i < b.length; i++) rb[i] = b[Math.floor(rand() * b.length)];
    ra.sort();
    rb.sort();
    for (let k = 0; k < ps.length; k++) out[k][r] = percentileOfSorted(rb, ps[k]) - percentileOfSorted(ra, ps[k]);
  }
  return out;
}

/** The comparison as lines for the terminal, after the run's own table. */
export function renderComparison(c: Comparison, file?: string): string {
  const f = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 10 ? x.toFixed(1) : x.toFixed(2));
  const pct = (x: number) => `${x >= 0 ? '+' : ''}${Math.round(x * 100)}%`;
  const cell = (s?: StatComparison) => (s ? `${f(s.baseline)} → ${f(s.current)} (${pct(s.change)}, [${f(s.low)}, ${f(s.high)}])` : '-');
  const rows = c.endpoints.map((e) => [e.operationId, `${e.baselineCount}/${e.currentCount}`, cell(e.p50), cell(e.p95), e.verdict]);
  const head = ['endpoint', 'n (base/now)', 'p50 ms (change, interval of the difference)', 'p95 ms (change, interval of the difference)', 'verdict'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((x, i) => x.padEnd(widths[i])).join('  ').trimEnd();
  const worse = c.endpoints.filter((e) => e.verdict === 'worse').map((e) => e.operationId);
  if (c.notCompared) return `baseline: not compared with ${file ?? 'the baseline'}: ${c.notCompared}`;
  return [
    `against the baseline ${file ?? ''} (${c.baseline.engine} engine, ${c.baseline.tier} tier, ${c.baseline.startedAt}), steady phase, service time:`,
    `(${c.method})`,
    line(head), ...rows.map(line),
    c.regression ? `baseline: SLOWER on ${worse.join(', ')}` : 'baseline: no endpoint slower beyond the threshold',
  ].join('\n');
}
