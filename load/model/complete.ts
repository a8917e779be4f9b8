// Whether a run ran its plan. A verdict is a statement about the whole schedule: the steady
// phase's latency and the ramp past the limit. A run cut short (a runner stopped by a signal or
// killed, Ctrl-C, a deadline) measured part of it, and "PASS" or "no 429 up to 150%" would speak of
// load never sent. So such a run has no verdict (the CLI exits 2) and says how much was sent of
// how much planned, and why. Two ways to know: the engine's own account (a runner's exit status,
// an interrupt) and the counts (requests sent against the schedule's plan), which also cover a
// plain `k6 run` stopped by a signal (k6 still writes its summary). A run its own abortOnFail
// threshold stopped is not cut short: that threshold's failure is its verdict.
// No Node built-ins: the k6 bundles print the table too.
import type { LoadSummary, PhaseResult, ThresholdResult } from './summary.ts';

export interface Incomplete {
  /** Requests the schedule planned for the measured phases, and those sent (answered or not). */
  planned: number;
  sent: number;
  /** Iterations k6 dropped for want of a free VU: counted as sent (the schedule asked, the target was too slow). */
  dropped?: number;
  /** Why, in words: a runner's exit, an interrupt, or only the counts. */
  why: string;
}

/** Sends a run may miss at the edges of its phases and still have run its plan (k6's segments round: 973 of 975). */
export function slack(planned: number): number {
  return Math.max(2, Math.ceil(planned * 0.01));
}

export function sentOfPlan(phases: PhaseResult[]): { planned: number; sent: number; dropped: number } {
  return {
    planned: phases.reduce((n, p) => n + p.planned, 0),
    sent: phases.reduce((n, p) => n + p.sent, 0),
    dropped: phases.reduce((n, p) => n + (p.droppedIterations ?? 0), 0),
  };
}

/**
 * Why the run is incomplete, when it is: the causes known (a runner's exit, an interrupt), else
 * the counts alone, unless an abortOnFail threshold stopped it (then it has its verdict).
 */
export function incompleteness(phases: PhaseResult[], thresholds: ThresholdResult[], causes: string[] = []): Incomplete | undefined {
  const { planned, sent, dropped } = sentOfPlan(phases);
  const counted = { planned, sent, ...(dropped ? { dropped } : {}) };
  if (causes.length) return { ...counted, why: causes.join('; ') };
  if (thresholds.some((t) => t.abortOnFail && !t.ok)) return undefined;
  if (sent + dropped >= planned - slack(planned)) return undefined;
  return { ...counted, why: `the run stopped before its schedule's end (${sent} of ${planned} requests sent${dropped ? `, ${dropped} dropped` : ''})` };
}

/** "261 of 975 planned requests sent (27%)". */
export function sentText(i: Pick<Incomplete, 'planned' | 'sent' | 'dropped'>): string {
  return `${i.sent} of ${i.planned} planned requests sent (${Math.round((i.sent / Math.max(1, i.planned)) * 100)}%)${i.dropped ? `, ${i.dropped} dropped` : ''}`;
}

/**
 * Marks a summary incomplete (no verdict) when it is: its verdict becomes 'none', and the
 * warnings that speak of the whole schedule (no 429 up to the ramp's end) go, since it was not sent.
 */
export function judgeCompleteness(s: LoadSummary, causes: string[] = []): LoadSummary {
  // A run stopped by its own account (a setup refused, an abort threshold) says so already in
  // `aborted` (the CLI exits 2 on a setup refused).
  if (s.aborted && !causes.length) return s;
  const incomplete = incompleteness(s.phases, s.thresholds, causes);
  if (!incomplete) return s;
  return { ...s, verdict: 'none', incomplete, warnings: s.warnings.filter((w) => !w.startsWith('no 429 up to')) };
}
