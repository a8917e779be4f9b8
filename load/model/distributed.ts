// A run split across k6 instances (k6-operator's `parallelism`, execution segments): what each
// runner does, and what that costs the plan. k6-operator (pkg/resources/jobs/runner.go, v1.x)
// passes `--no-setup --no-teardown` only to Grafana Cloud private load zones: elsewhere every
// runner runs setup() and teardown() itself, so the setup's 4 creates and the teardown's 4
// deletes happen once per runner. That cost is bounded here and counted: the bundle's setup reads
// its execution segment and counts every runner's setup against the budget of the first window
// (the onset), and a parallelism whose setups would push the first window past MIN_ONSET of the
// budget is refused. No Node built-ins: the k6 bundles import it.
import { MIN_ONSET } from './thresholds.ts';

/** '0:1/4' → [0, 0.25]; undefined when it cannot be read (no segment: the whole test). */
export function parseSegment(segment: string | null | undefined): [number, number] | undefined {
  if (!segment) return undefined;
  const frac = (x: string): number => {
    const t = x.trim();
    if (t.includes('/')) { const [n, d] = t.split('/').map(Number); return n / d; }
    if (t.endsWith('%')) return Number(t.slice(0, -1)) / 100;
    return Number(t);
  };
  const parts = String(segment).split(':');
  const [from, to] = parts.length === 2 ? parts.map(frac) : [0, frac(parts[0])];
  return Number.isFinite(from) && Number.isFinite(to) && to > from ? [from, to] : undefined;
}

/** How many runners share the test, from one runner's execution segment (k6-operator splits it evenly). */
export function runnersOf(segment: string | null | undefined): number {
  const s = parseSegment(segment);
  return s ? Math.max(1, Math.round(1 / (s[1] - s[0]))) : 1;
}

/**
 * The most runners whose setups fit: the steady phase offers `steadyFraction` of the budget over
 * the first window, and each runner's setup `setupRequests` more; together they must stay within
 * MIN_ONSET of the budget, or the limiter may rightly say no in the steady phase.
 */
export function maxParallelism(rpm: number, steadyFraction: number, setupRequests: number): number {
  return Math.max(0, Math.floor(((MIN_ONSET - steadyFraction) * rpm) / setupRequests + 1e-9));
}

/** One runner of a split run: its execution segment and the sequence of all of them (null when alone). */
export interface RunnerSplit { index: number; segment: string | null; sequence: string | null }

/**
 * How a run is split across `parallelism` runners: k6-operator's rule (pkg/segmentation, v1.x),
 * runner i of N (1-based) runs segment (i−1)/N:i/N of the sequence 0,1/N,…,1, and a lone runner
 * runs the whole test with no segment. The one description of the split: the TestRun manifest
 * asks the operator for it (load/k6-host/testrun.ts), and the local distributed mode runs it
 * (load/k6-host/distributed.ts), so what was run locally is what the operator will run.
 */
export function executionSplit(parallelism: number): RunnerSplit[] {
  if (!Number.isInteger(parallelism) || parallelism < 1) throw new Error(`parallelism must be a whole number ≥ 1, got '${parallelism}'`);
  const at = (i: number) => (i === 0 ? '0' : i === parallelism ? '1' : `${i}/${parallelism}`);
  const sequence = parallelism > 1 ? Array.from({ length: parallelism + 1 }, (_, i) => at(i)).join(',') : null;
  return Array.from({ length: parallelism }, (_, k) => ({
    index: k + 1, segment: parallelism > 1 ? `${at(k)}:${at(k + 1)}` : null, sequence,
  }));
}

/** The `k6 run` flags of one runner of the split. */
export const segmentFlags = (r: RunnerSplit): string[] =>
  r.segment ? [`--execution-segment=${r.segment}`, `--execution-segment-sequence=${r.sequence}`] : [];
