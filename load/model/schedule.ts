// When each request is due: an open model, so arrivals follow the clock and never wait for
// responses (a slow server cannot slow the load down and hide its tail). Two phases: steady at
// a share of the limit, then a linear ramp past it. Times in ms from the start of the steady phase.
import { limitRps, type LoadConfig } from './config.ts';

export type PhaseName = 'steady' | 'ramp';
export const PHASES: readonly PhaseName[] = ['steady', 'ramp'];

export interface PhaseSpec {
  name: PhaseName;
  startMs: number;
  durationMs: number;
  /** Arrival rate at the start and at the end of the phase, requests per second. */
  fromRps: number;
  toRps: number;
}

export interface Schedule {
  phases: PhaseSpec[];
  totalMs: number;
  /** Requests the whole schedule sends. */
  total: number;
  limitRps: number;
}

export function buildSchedule(c: LoadConfig): Schedule {
  const limit = limitRps(c);
  const steady = limit * c.steadyFraction;
  const phases: PhaseSpec[] = [
    { name: 'steady', startMs: 0, durationMs: c.steadyMs, fromRps: steady, toRps: steady },
    { name: 'ramp', startMs: c.steadyMs, durationMs: c.rampMs, fromRps: steady, toRps: limit * c.rampTo },
  ];
  const totalMs = c.steadyMs + c.rampMs;
  const partial = { phases, totalMs, total: 0, limitRps: limit };
  return { ...partial, total: Math.ceil(countAt(partial, totalMs) - 1e-9) };
}

/** Requests due in [0, t): the integral of the rate. */
export function countAt(s: Pick<Schedule, 'phases'>, tMs: number): number {
  let n = 0;
  for (const p of s.phases) {
    const u = Math.min(Math.max(tMs - p.startMs, 0), p.durationMs) / 1000;
    const slope = (p.toRps - p.fromRps) / (p.durationMs / 1000);
    n += p.fromRps * u + (slope * u * u) / 2;
  }
  return n;
}

export function rateAt(s: Schedule, tMs: number): number {
  const p = phaseAt(s, tMs);
  return p.fromRps + ((p.toRps - p.fromRps) * (tMs - p.startMs)) / p.durationMs;
}

export function phaseAt(s: Schedule, tMs: number): PhaseSpec {
  for (const p of s.phases) if (tMs < p.startMs + p.durationMs) return p;
  return s.phases[s.phases.length - 1];
}

/** When request k (0-based) is due: the time at which countAt reaches k. Undefined past the end. */
export function timeOfCount(s: Schedule, k: number): number | undefined {
  if (k >= s.total) return undefined;
  let before = 0;
  for (const p of s.phases) {
    const d = p.durationMs / 1000;
    const inPhase = ((p.fromRps + p.toRps) / 2) * d;
    if (k < before + inPhase || p === s.phases[s.phases.length - 1]) {
      const x = k - before;
      const a = (p.toRps - p.fromRps) / d;
      // Root of a·u²/2 + r0·u − x = 0, in the form that stays exact when a is 0 or tiny.
      const u = (2 * x) / (p.fromRps + Math.sqrt(p.fromRps * p.fromRps + 2 * a * x));
      return p.startMs + Math.min(u * 1000, p.durationMs);
    }
    before += inPhase;
  }
  return undefined;
}

/**
 * The load offered to the limiter over the window ending at t: requests sent in (t − window, t],
 * plus the setup requests when that window reaches back before the start. Compared with the
 * budget it says where 429s began whatever the limiter's algorithm (fixed window, sliding
 * window, token bucket): at the first 429 a correct limiter has seen about one budget in the
 * trailing window. The k6 script uses this (it cannot see other VUs' requests); the Node runner
 * counts the answers it received in that window, which is the same when nothing pauses.
 */
export function offeredInWindow(s: Schedule, tMs: number, windowMs: number, setupRequests = 0): number {
  return countAt(s, tMs) - countAt(s, Math.max(0, tMs - windowMs)) + (tMs < windowMs ? setupRequests : 0);
}

/**
 * The ramp's climb during one rate-limit window, as a share of the limit. A limiter counting in
 * fixed windows answers its first 429 only when a window's budget is spent, so the scheduled
 * rate at that moment can be up to about this far past the limit; the offered load over the
 * window (offeredInWindow) stays close to the budget whatever the climb.
 */
export function onsetResolution(c: LoadConfig): number {
  return ((c.rampTo - c.steadyFraction) * c.windowMs) / c.rampMs;
}

/**
 * The most a limiter counting in fixed windows must have seen in one of its windows, for the
 * placement of those windows least favourable to finding the limit: the run cannot know where a
 * deployment's windows begin (at its first request, on the clock's minute, …), and a window that
 * falls across the ramp splits it. When this stays within the budget, a correct fixed-window
 * limiter may never say no during the run.
 */
export function fixedWindowPeak(s: Schedule, windowMs: number, setupRequests = 0): number {
  const PLACEMENTS = 240;
  const held = (start: number) =>
    countAt(s, Math.min(start + windowMs, s.totalMs)) - countAt(s, Math.max(start, 0)) + (start < 0 ? setupRequests : 0);
  let least = Infinity;
  for (let i = 0; i < PLACEMENTS; i++) {
    // Windows begin at offset + j·window. The rate never falls, so of the windows wholly inside
    // the run the last holds the most: it, the cut one holding the end, and the first (with the
    // setup, sent just before 0) are the candidates.
    const offset = (i / PLACEMENTS) * windowMs;
    const last = offset + Math.floor((s.totalMs - offset) / windowMs) * windowMs;
    least = Math.min(least, Math.max(held(last), held(last - windowMs), held(offset - windowMs)));
  }
  return least;
}
