// The measured phases of a Node run: arrivals on the clock, one request each, every answer into
// the recorder, the abortOnFail thresholds checked every second. Shared by the runner and by
// its capacity bench (bench/load.ts), so that the bench measures the path a run takes.
import type { LoadConfig } from '../model/config.ts';
import type { LoadRequest } from '../model/mix.ts';
import { rateAt, timeOfCount, type PhaseName, type Schedule } from '../model/schedule.ts';
import { evaluate } from '../model/summary.ts';
import type { Threshold } from '../model/thresholds.ts';
import { dispatchArrivals } from './arrivals.ts';
import type { Client } from './client.ts';
import { Recorder } from './recorder.ts';

export interface PhaseProgress {
  stage: PhaseName | 'drain';
  elapsedMs: number;
  rateRps?: number;
  lastSecond: number;
  sent: number;
  ok: number;
  rateLimited: number;
  errors: number;
  note?: string;
}

export interface PhaseRunOptions {
  client: Client;
  config: LoadConfig;
  schedule: Schedule;
  /** Request k of the run. */
  requestAt(k: number): LoadRequest;
  thresholds: Threshold[];
  /** performance.now() of each setup send (counted by the onset as offered load). */
  setupSends?: number[];
  signal?: AbortSignal;
  onProgress?: (p: PhaseProgress) => void;
}

export interface PhaseRun {
  recorder: Recorder;
  /** From the first due time to the last answer, ms. */
  wallMs: number;
  /** Why the run stopped early, when it did. */
  aborted?: string;
}

export async function runPhases(o: PhaseRunOptions): Promise<PhaseRun> {
  const { client, config, schedule, thresholds } = o;
  // Built before the clock starts: its allocation is not charged to the first sends.
  const recorder = new Recorder(config, schedule);
  const controller = new AbortController();
  const stop = () => controller.abort();
  o.signal?.addEventListener('abort', stop);
  let aborted: string | undefined;
  let inFlight = 0;
  let drained: (() => void) | undefined;
  // A request due exactly at the boundary belongs to the ramp (rounding of timeOfCount aside).
  const phaseOf = (due: number): PhaseName => (due < config.steadyMs - 1e-6 ? 'steady' : 'ramp');
  const abortable = thresholds.filter((t) => t.abortOnFail);
  // Percentiles only when an abort threshold needs them (the default one is an error rate).
  const countsOnly = abortable.every((t) => t.kind !== 'latency');

  // One origin for every time of the run: due, fired, connected and answered are all ms since t0,
  // the steady phase's start (the arrivals loop reads this same clock).
  const t0 = performance.now();
  recorder.setSetupSends((o.setupSends ?? []).map((s) => s - t0));
  const ticker = setInterval(() => {
    const now = performance.now() - t0;
    if (o.onProgress) o.onProgress({ stage: phaseOf(now), elapsedMs: now, rateRps: rateAt(schedule, now), ...recorder.progress(now) });
    // abortOnFail thresholds: evaluated while running, once their delay has passed.
    const due = abortable.filter((t) => now >= (t.delayAbortEvalMs ?? 0));
    if (!due.length || aborted) return;
    const failed = evaluate(due, recorder.phaseResults({ counts: countsOnly }), { found: false, resolution: 0, early: 0 }).find((r) => !r.ok);
    if (failed) {
      aborted = `threshold '${failed.id}' (${failed.expression}) failed at ${(now / 1000).toFixed(1)} s with ${failed.actual?.toFixed(3)}: stopped early`;
      controller.abort();
    }
  }, 1000);

  try {
    await dispatchArrivals({
      count: schedule.total,
      dueAt: (k) => timeOfCount(schedule, k)!,
      now: () => performance.now() - t0,
      signal: controller.signal,
      fire: (k, dueMs, firedMs) => {
        const phase = phaseOf(dueMs);
        const req = o.requestAt(k);
        recorder.recordSend(phase, dueMs, firedMs);
        inFlight++;
        client.dispatch(req, (out) => {
          const connectedMs = out.connectedAt - t0;
          const answeredMs = out.answeredAt - t0;
          const answered = out.status !== 0;
          recorder.recordOutcome({
            phase, operationId: req.operationId, sentMs: connectedMs, answeredMs, status: out.status, hasRetryAfter: out.retryAfter !== undefined,
            ...(answered ? { serviceMs: answeredMs - connectedMs, responseMs: answeredMs - dueMs, waitMs: connectedMs - firedMs } : {}),
          });
          if (--inFlight === 0) drained?.();
        });
      },
    });
    o.onProgress?.({ stage: 'drain', elapsedMs: schedule.totalMs, ...recorder.progress(schedule.totalMs), note: `waiting for ${inFlight} answers` });
    if (inFlight > 0) await new Promise<void>((resolve) => { drained = resolve; });
  } finally {
    clearInterval(ticker);
    o.signal?.removeEventListener('abort', stop);
  }
  if (o.signal?.aborted && !aborted) aborted = 'interrupted';
  return { recorder, wallMs: performance.now() - t0, ...(aborted ? { aborted } : {}) };
}
