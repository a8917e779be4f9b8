// Turns samples into the summary's numbers: counts and raw samples per phase and endpoint, a
// per-bucket timeline, display histograms, and where 429s began. Percentiles follow k6's rule
// (load/model/samples.ts: every sample kept, linear interpolation at rank p·(n − 1)), so that a
// table or a threshold of the Node runner reads what k6 would on the same answers.
// The Node runner feeds it live; the k6 host feeds it from k6's JSON output.
//
// Times of one request, all in ms from one origin (the start of the steady phase, on the
// runner's clock): due (the schedule), fired (the runner called undici), connected (undici had a
// connection and began writing it), answered (the whole answer read). Apart:
//   send lag        fired − due          the runner's own lateness
//   connection wait connected − fired    a free connection, or a new one, to wait for
//   service time    answered − connected what k6 reports as http_req_duration
//   response time   answered − due       all three together (coordinated omission corrected)
import type { LoadConfig } from '../model/config.ts';
import { MIX } from '../model/mix.ts';
import { PHASES, offeredInWindow, onsetResolution, rateAt, type PhaseName, type Schedule } from '../model/schedule.ts';
import { MIN_ONSET } from '../model/thresholds.ts';
import { Samples, ns, reservoir } from '../model/samples.ts';
import { totalOf, type EndpointStats, type Latency, type Onset, type PhaseResult, type SampleStore, type TimelinePoint } from '../model/summary.ts';

/** Upper bounds (ms) of the display histogram's bars; one more bar holds everything above. */
export const HISTOGRAM_BOUNDS_MS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000];

/** Service times stored in the summary per endpoint (steady phase), for a later --baseline comparison. */
export const RESERVOIR_CAP = 2000;

export interface Outcome {
  phase: PhaseName;
  operationId: string;
  /** When the request was written (connected, else fired), ms from the start of the steady phase. */
  sentMs: number;
  /** When the answer came (ms from the start); defaults to sentMs + serviceMs. */
  answeredMs?: number;
  /** Service time: answer time minus the time the request began to be written (k6's http_req_duration); absent without an answer. */
  serviceMs?: number;
  /** Response time: answer time minus scheduled send time (Node runner only); absent without an answer. */
  responseMs?: number;
  /** Connection wait: from the runner's send to a connection taking the request (Node runner only). */
  waitMs?: number;
  /** 0 when no answer came. */
  status: number;
  hasRetryAfter: boolean;
}

interface Cell extends EndpointStats { service: Samples; response: Samples; bars: number[] }

function latencyOf(s: Samples): Latency | undefined {
  if (s.count === 0) return undefined;
  return { p50: ns(s.percentile(0.5)), p95: ns(s.percentile(0.95)), p99: ns(s.percentile(0.99)), max: ns(s.max()), mean: ns(s.mean()) };
}

const spread = (s: Samples) => (s.count ? { p50: ns(s.percentile(0.5)), p99: ns(s.percentile(0.99)), max: ns(s.max()) } : undefined);

export class Recorder {
  private readonly cells = new Map<string, Cell>();
  private readonly sends: number[] = [];
  private readonly answers: number[] = [];
  /** Send times of the requests that reached the target (an answer came), and of the 429s. */
  private readonly reached: number[] = [];
  private readonly limitedAt: Array<{ sentMs: number; answeredMs: number }> = [];
  private readonly sendsPerPhase = new Map<PhaseName, { n: number; inside: number; lag: Samples; wait: Samples }>();
  private readonly buckets: TimelinePoint[] = [];
  private first429?: { sentMs: number; answeredMs: number; phase: PhaseName; operationId: string };
  private readonly specs: Map<PhaseName, Schedule['phases'][number]>;
  private answered = 0;

  constructor(
    private readonly config: LoadConfig,
    private readonly schedule: Schedule,
    /** Send times of the setup requests, ms relative to the steady start (negative). */
    private setupSendsMs: number[] = [],
    readonly bucketMs = timelineBucketMs(schedule),
  ) {
    this.specs = new Map(schedule.phases.map((p) => [p.name, p]));
    for (const phase of PHASES) {
      this.sendsPerPhase.set(phase, { n: 0, inside: 0, lag: new Samples(), wait: new Samples() });
      for (const e of MIX) this.cell(phase, e.operationId);
    }
  }

  /** The setup's send times, once the origin is known (ms relative to the steady start). */
  setSetupSends(ms: number[]): void { this.setupSendsMs = ms; }

  private cell(phase: PhaseName, operationId: string): Cell {
    const key = `${phase}|${operationId}`;
    let c = this.cells.get(key);
    if (!c) {
      c = { operationId, count: 0, ok: 0, errors: 0, rateLimited: 0, retryAfterMissing: 0, service: new Samples(), response: new Samples(), bars: HISTOGRAM_BOUNDS_MS.map(() => 0).concat(0) };
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
    p.lag.add(Math.max(0, sentMs - dueMs));
    this.bucket(sentMs).sent++;
  }

  recordOutcome(o: Outcome): void {
    const c = this.cell(o.phase, o.operationId);
    const b = this.bucket(o.sentMs);
    c.count++;
    this.answered++;
    const limited = o.status === 429;
    const answeredMs = o.answeredMs ?? o.sentMs + (o.serviceMs ?? 0);
    if (o.status) { this.answers.push(answeredMs); this.reached.push(o.sentMs); }
    const success = o.status >= 200 && o.status < 300;
    if (success) { c.ok++; b.ok++; }
    if (limited) {
      c.rateLimited++; b.rateLimited++;
      this.limitedAt.push({ sentMs: o.sentMs, answeredMs });
      if (!o.hasRetryAfter) c.retryAfterMissing++;
      if (!this.first429 || o.sentMs < this.first429.sentMs) this.first429 = { sentMs: o.sentMs, answeredMs, phase: o.phase, operationId: o.operationId };
    }
    // Under the limit every 429 is an error; on the ramp it is the expected answer. The timeline
    // counts each answer once (2xx, 429, or another failure), so its 429s are never errors too.
    if (!success && !(limited && o.phase === 'ramp')) c.errors++;
    if (!success && !limited) b.errors++;
    if (o.waitMs !== undefined) this.sendsPerPhase.get(o.phase)!.wait.add(Math.max(0, o.waitMs));
    if (o.serviceMs !== undefined) {
      c.service.add(o.serviceMs);
      let bar = 0;
      while (bar < HISTOGRAM_BOUNDS_MS.length && o.serviceMs >= HISTOGRAM_BOUNDS_MS[bar]) bar++;
      c.bars[bar]++;
    }
    if (o.responseMs !== undefined) c.response.add(o.responseMs);
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
      const cells = [...this.cells.entries()].filter(([k]) => k.startsWith(`${spec.name}|`)).map(([, c]) => c);
      const endpoints = cells.map((c) => strip(c, !o.counts));
      const sent = this.sendsPerPhase.get(spec.name)!;
      const planned = Math.round(((spec.fromRps + spec.toRps) / 2) * (spec.durationMs / 1000));
      if (o.counts) return { ...spec, planned, sent: sent.n, achievedRps: sent.inside / (spec.durationMs / 1000), endpoints, total: totalOf(endpoints) };
      const service = new Samples();
      const response = new Samples();
      for (const c of cells) { service.addAll(c.service); response.addAll(c.response); }
      const total = totalOf(endpoints, latencyOf(service));
      const responseTime = latencyOf(response);
      const lag = spread(sent.lag);
      const wait = spread(sent.wait);
      return {
        ...spec, planned, sent: sent.n, achievedRps: sent.inside / (spec.durationMs / 1000),
        ...(lag ? { sendLag: lag } : {}), ...(wait ? { connectWait: wait } : {}),
        endpoints, total: responseTime ? { ...total, responseTime } : total,
      };
    });
  }

  /**
   * What a later run compares itself with (--baseline): the steady phase's service times per
   * endpoint, all of them up to RESERVOIR_CAP, else a uniform random subset of that many (seeded).
   */
  sampleStore(cap = RESERVOIR_CAP): SampleStore {
    const endpoints: SampleStore['endpoints'] = {};
    for (const [key, c] of this.cells) {
      if (!key.startsWith('steady|') || !c.service.count) continue;
      endpoints[c.operationId] = { count: c.service.count, ms: reservoir(c.service.values(), cap).map(ns) };
    }
    return { phase: 'steady', metric: 'service', cap, endpoints };
  }

  onset(): Onset {
    const resolution = onsetResolution(this.config);
    if (!this.first429) return { found: false, resolution, early: 0 };
    // What the limiter had counted when it first said no: the requests it saw over the window
    // before it saw the 429's. The runner cannot see when the target saw a request, only that it
    // was between the request's send (when it began to be written) and its answer. So it counts
    // every request that may have been in that window: answered after the window before the 429's
    // send began, and sent before the 429's answer came (the setup's too). With nothing in the way
    // this is the requests sent over the window (a fixed-window limiter says no at about 108% of
    // its budget in a default run); when the machine stalls, requests wait in the target's queue
    // or are answered late, and neither send nor answer times alone place them where the limiter
    // counted them (a shared, busy process read 92% by send times). An upper bound: a 429 is
    // called early only when even this count is under MIN_ONSET of the budget.
    const couldCount = this.offeredCounter();
    const early = this.limitedAt.filter((l) => couldCount(l) < MIN_ONSET * this.config.rpm).length;
    const first = this.first429;
    const offered = couldCount(first);
    const fraction = offered / this.config.rpm;
    const t = first.sentMs;
    return {
      early,
      found: true, atMs: Math.round(first.answeredMs), phase: first.phase, operationId: first.operationId,
      offeredInWindow: offered, fractionOfLimit: round3(fraction), rpmEquivalent: Math.round(fraction * this.config.rpm),
      rateFraction: round3(rateAt(this.schedule, t) / this.schedule.limitRps), resolution: round3(resolution),
      // The k6 script's rule at the same moment (the schedule's offer, the setup at the start): the
      // two read alike when the sends kept the schedule (load/README.md, where 429s begin).
      scheduledFraction: round3(offeredInWindow(this.schedule, t, this.config.windowMs, this.setupSendsMs.length) / this.config.rpm),
    };
  }

  /**
   * For a 429 sent at s and answered at a: the requests that may have been counted in the
   * limiter's window ending when it saw the 429, #{sent ≤ a} − #{answered ≤ s − window}
   * (a request answered by s − window was seen before the window; one sent after a, after the
   * 429). Setup requests count with their send time as both.
   */
  private offeredCounter(): (l: { sentMs: number; answeredMs: number }) => number {
    const sends = Float64Array.from([...this.reached, ...this.setupSendsMs]).sort();
    const answers = Float64Array.from([...this.answers, ...this.setupSendsMs]).sort();
    // How many of `xs` are ≤ x: a binary search, since there is one count per 429.
    const upTo = (xs: Float64Array, x: number) => { let lo = 0, hi = xs.length; while (lo < hi) { const m = (lo + hi) >> 1; if (xs[m] <= x) lo = m + 1; else hi = m; } return lo; };
    return (l) => upTo(sends, l.answeredMs) - upTo(answers, l.sentMs - this.config.windowMs);
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
  const latency = percentiles ? latencyOf(c.service) : undefined;
  const responseTime = percentiles ? latencyOf(c.response) : undefined;
  return {
    operationId: c.operationId, count: c.count, ok: c.ok, errors: c.errors, rateLimited: c.rateLimited, retryAfterMissing: c.retryAfterMissing,
    ...(latency ? { latency } : {}), ...(responseTime ? { responseTime } : {}),
  };
}
