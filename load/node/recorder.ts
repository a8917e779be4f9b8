// Turns samples into the summary's numbers: counts and HDR histograms per phase and endpoint,
// a per-bucket timeline, display histograms, and where 429s began. Percentiles come from
// hdr-histogram-js (microsecond values, 3 significant digits), never from sorting by hand.
// The Node runner feeds it live; the k6 host feeds it from k6's JSON output.
import * as hdr from 'hdr-histogram-js';
import type { LoadConfig } from '../model/config.ts';
import { MIX } from '../model/mix.ts';
import { PHASES, onsetResolution, rateAt, type PhaseName, type Schedule } from '../model/schedule.ts';
import { MIN_ONSET } from '../model/thresholds.ts';
import { totalOf, type EndpointStats, type Latency, type Onset, type PhaseResult, type TimelinePoint } from '../model/summary.ts';

/** Upper bounds (ms) of the display histogram's bars; one more bar holds everything above. */
export const HISTOGRAM_BOUNDS_MS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000];

export interface Outcome {
  phase: PhaseName;
  operationId: string;
  /** ms from the start of the steady phase. */
  sentMs: number;
  /** When the answer came (ms from the start); defaults to sentMs + serviceMs. */
  answeredMs?: number;
  /** Service time: answer time minus actual send time (k6's http_req_duration); absent without an answer. */
  serviceMs?: number;
  /** Response time: answer time minus scheduled send time (Node runner only); absent without an answer. */
  responseMs?: number;
  /** 0 when no answer came. */
  status: number;
  hasRetryAfter: boolean;
}

interface Cell extends EndpointStats { hist: hdr.Histogram; resp: hdr.Histogram; bars: number[] }

const newHist = () => hdr.build({ numberOfSignificantValueDigits: 3 });

function latencyOf(h: hdr.Histogram): Latency | undefined {
  if (h.totalCount === 0) return undefined;
  const ms = (us: number) => Math.round(us) / 1000;
  return { p50: ms(h.getValueAtPercentile(50)), p95: ms(h.getValueAtPercentile(95)), p99: ms(h.getValueAtPercentile(99)), max: ms(h.maxValue), mean: ms(h.mean) };
}

export class Recorder {
  private readonly cells = new Map<string, Cell>();
  private readonly phaseHists = new Map<PhaseName, { service: hdr.Histogram; response: hdr.Histogram }>();
  private readonly sends: number[] = [];
  private readonly answers: number[] = [];
  private readonly limitedAt: number[] = [];
  private readonly sendsPerPhase = new Map<PhaseName, { n: number; inside: number; lag: hdr.Histogram }>();
  private readonly buckets: TimelinePoint[] = [];
  private first429?: { answeredMs: number; phase: PhaseName; operationId: string };
  private readonly specs: Map<PhaseName, Schedule['phases'][number]>;
  private answered = 0;

  constructor(
    private readonly config: LoadConfig,
    private readonly schedule: Schedule,
    /** Send times of the setup requests, ms relative to the steady start (negative). */
    private readonly setupSendsMs: number[] = [],
    readonly bucketMs = timelineBucketMs(schedule),
  ) {
    this.specs = new Map(schedule.phases.map((p) => [p.name, p]));
    for (const phase of PHASES) {
      this.phaseHists.set(phase, { service: newHist(), response: newHist() });
      this.sendsPerPhase.set(phase, { n: 0, inside: 0, lag: newHist() });
      for (const e of MIX) this.cell(phase, e.operationId);
    }
  }

  private cell(phase: PhaseName, operationId: string): Cell {
    const key = `${phase}|${operationId}`;
    let c = this.cells.get(key);
    if (!c) {
      c = { operationId, count: 0, ok: 0, errors: 0, rateLimited: 0, retryAfterMissing: 0, hist: newHist(), resp: newHist(), bars: HISTOGRAM_BOUNDS_MS.map(() => 0).concat(0) };
      this.cells.set(key, c);
    }
    return c;
  }

  private bucket(ms: number): TimelinePoint {
    const i = Math.max(0, Math.floor(ms / this.bucketMs));
    while (this.buckets.length <= i) this.buckets.push({ t: this.buckets.length * this.bucketMs, sent: 0, ok: 0, rateLimited: 0, errors: 0 });
    return this.buckets[i];
  }

  /** A request left at sentMs; it was due at dueMs (lateness is the runner's, not the target's). */
  recordSend(phase: PhaseName, dueMs: number, sentMs: number): void {
    this.sends.push(sentMs);
    const p = this.sendsPerPhase.get(phase)!;
    const spec = this.specs.get(phase)!;
    p.n++;
    if (sentMs >= spec.startMs && sentMs < spec.startMs + spec.durationMs) p.inside++;
    p.lag.recordValue(Math.max(0, Math.round((sentMs - dueMs) * 1000)));
    this.bucket(sentMs).sent++;
  }

  recordOutcome(o: Outcome): void {
    const c = this.cell(o.phase, o.operationId);
    const b = this.bucket(o.sentMs);
    c.count++;
    this.answered++;
    const limited = o.status === 429;
    const answeredMs = o.answeredMs ?? o.sentMs + (o.serviceMs ?? 0);
    if (o.status) this.answers.push(answeredMs);
    const success = o.status >= 200 && o.status < 300;
    if (success) { c.ok++; b.ok++; }
    if (limited) {
      c.rateLimited++; b.rateLimited++;
      this.limitedAt.push(answeredMs);
      if (!o.hasRetryAfter) c.retryAfterMissing++;
      if (!this.first429 || answeredMs < this.first429.answeredMs) this.first429 = { answeredMs, phase: o.phase, operationId: o.operationId };
    }
    // Under the limit every 429 is an error; on the ramp it is the expected answer.
    if (!success && !(limited && o.phase === 'ramp')) { c.errors++; b.errors++; }
    const hists = this.phaseHists.get(o.phase)!;
    if (o.serviceMs !== undefined) {
      const us = Math.max(1, Math.round(o.serviceMs * 1000));
      c.hist.recordValue(us);
      hists.service.recordValue(us);
      let bar = 0;
      while (bar < HISTOGRAM_BOUNDS_MS.length && o.serviceMs >= HISTOGRAM_BOUNDS_MS[bar]) bar++;
      c.bars[bar]++;
    }
    if (o.responseMs !== undefined) {
      const us = Math.max(1, Math.round(o.responseMs * 1000));
      c.resp.recordValue(us);
      hists.response.recordValue(us);
    }
  }

  /** Answers (any status) in by nowMs. */
  answeredBy(nowMs: number): number {
    let n = 0;
    for (const at of this.answers) if (at <= nowMs) n++;
    return n;
  }

  /** Requests sent in the last second before nowMs, and totals so far (progress display). */
  progress(nowMs: number) {
    let i = this.sends.length;
    while (i > 0 && this.sends[i - 1] > nowMs - 1000) i--;
    const totals = { ok: 0, rateLimited: 0, errors: 0 };
    for (const c of this.cells.values()) { totals.ok += c.ok; totals.rateLimited += c.rateLimited; totals.errors += c.errors; }
    return { lastSecond: this.sends.length - i, sent: this.sends.length, answered: this.answered, ...totals };
  }

  /**
   * Endpoint stats per phase. `counts` only: no percentiles, which are the costly part, for the
   * abortOnFail thresholds evaluated every second during the run (error rates).
   */
  phaseResults(o: { counts?: boolean } = {}): PhaseResult[] {
    return this.schedule.phases.map((spec) => {
      const endpoints = [...this.cells.entries()].filter(([k]) => k.startsWith(`${spec.name}|`)).map(([, c]) => strip(c, !o.counts));
      const sent = this.sendsPerPhase.get(spec.name)!;
      const planned = Math.round(((spec.fromRps + spec.toRps) / 2) * (spec.durationMs / 1000));
      const hists = this.phaseHists.get(spec.name)!;
      const total = totalOf(endpoints, o.counts ? undefined : latencyOf(hists.service));
      const response = o.counts ? undefined : latencyOf(hists.response);
      const lag = o.counts ? undefined : latencyOf(sent.lag);
      return {
        ...spec, planned, sent: sent.n, achievedRps: sent.inside / (spec.durationMs / 1000),
        ...(lag ? { sendLag: { p50: lag.p50, p99: lag.p99, max: lag.max } } : {}),
        endpoints, total: response ? { ...total, responseTime: response } : total,
      };
    });
  }

  onset(): Onset {
    const resolution = onsetResolution(this.config);
    if (!this.first429) return { found: false, resolution, early: 0 };
    // Requests answered in (t − window, t], t the answer of the first 429: what the limiter had
    // counted when it first said no. Answer times follow the target's clock of events: when the
    // target or the runner pauses (a busy machine), requests reach the limiter late and in a
    // burst, and counting them by due or send time would place them where the limiter did not.
    const offeredAt = this.offeredCounter();
    const early = this.limitedAt.filter((at) => offeredAt(at) < MIN_ONSET * this.config.rpm).length;
    const t = this.first429.answeredMs;
    const offered = offeredAt(t);
    const fraction = offered / this.config.rpm;
    return {
      early,
      found: true, atMs: Math.round(t), phase: this.first429.phase, operationId: this.first429.operationId,
      offeredInWindow: offered, fractionOfLimit: round3(fraction), rpmEquivalent: Math.round(fraction * this.config.rpm),
      rateFraction: round3(rateAt(this.schedule, t) / this.schedule.limitRps), resolution: round3(resolution),
    };
  }

  /** Requests the limiter had counted in the window (t − window, t]: answers in it, and setup sends. */
  private offeredCounter(): (t: number) => number {
    const times = [...this.answers, ...this.setupSendsMs].sort((a, b) => a - b);
    // Index of the first time > x: a binary search, since there is one count per 429.
    const after = (x: number) => { let lo = 0, hi = times.length; while (lo < hi) { const m = (lo + hi) >> 1; if (times[m] <= x) lo = m + 1; else hi = m; } return lo; };
    return (t) => after(t) - after(t - this.config.windowMs);
  }

  timeline() {
    return { bucketMs: this.bucketMs, points: this.buckets.slice() };
  }

  /** Display histograms of the steady phase, per endpoint. */
  histograms(): Record<string, { boundsMs: number[]; counts: number[] }> {
    const out: Record<string, { boundsMs: number[]; counts: number[] }> = {};
    for (const [key, c] of this.cells) if (key.startsWith('steady|') && c.count) out[c.operationId] = { boundsMs: HISTOGRAM_BOUNDS_MS, counts: c.bars };
    return out;
  }
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * The timeline's bucket: about ten requests per bucket at the steady rate (so a bar is not a
 * count of 1 or 2), at most 200 buckets over the run, at least 10; a round number of ms.
 */
export function timelineBucketMs(s: Schedule): number {
  const wanted = Math.max(s.totalMs / 200, 10_000 / Math.max(s.phases[0].fromRps, 1e-9));
  const nice = [100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 30_000, 60_000].find((b) => b >= wanted) ?? 60_000;
  return Math.max(100, Math.min(nice, Math.floor(s.totalMs / 10 / 100) * 100 || 100));
}

function strip(c: Cell, percentiles: boolean): EndpointStats {
  const latency = percentiles ? latencyOf(c.hist) : undefined;
  const responseTime = percentiles ? latencyOf(c.resp) : undefined;
  return {
    operationId: c.operationId, count: c.count, ok: c.ok, errors: c.errors, rateLimited: c.rateLimited, retryAfterMissing: c.retryAfterMissing,
    ...(latency ? { latency } : {}), ...(responseTime ? { responseTime } : {}),
  };
}
