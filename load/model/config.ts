// A load run's parameters, resolved once and shared by both engines (the CLI and the k6 script
// both build it, from flags or from __ENV). Everything else (schedule, thresholds) derives from it.
import { MINUTE_MS, PLAN_RPM, PLANS, isPlan, type Plan } from '../../contract/plans.ts';

export interface LoadConfig {
  tier: Plan;
  /** The plan's budget: requests per rate-limit window (per minute on a real deployment). */
  rpm: number;
  /**
   * The rate-limit window the budget is counted in. SPEC.md says per minute; the embedded
   * reference can count in a shorter window (tests, demos): the budget stays `rpm` per window,
   * so every rate of the model scales by MINUTE_MS / windowMs.
   */
  windowMs: number;
  /** Steady phase, as a share of the limit (latency is measured here, under the limit). */
  steadyFraction: number;
  /** The ramp climbs linearly from steadyFraction to rampTo (past 1: past the limit). */
  rampTo: number;
  steadyMs: number;
  rampMs: number;
  /** Latency thresholds overriding the per-endpoint defaults, in ms (all endpoints). */
  p95Ms?: number;
  p99Ms?: number;
  /** Timeout of each request, ms. */
  timeoutMs: number;
}

export interface ConfigInput {
  tier: string;
  rpm?: number;
  windowMs?: number;
  /** Total of both phases, split evenly: '120s', '2m', '1m30s', '500ms' or plain seconds. */
  duration?: string | number;
  steadyFraction?: number;
  rampTo?: number;
  p95Ms?: number;
  p99Ms?: number;
  timeoutMs?: number;
}

/** How the caller names an option in messages: the CLI's flags by default, LOAD_* variables in k6. */
export type OptionName = (option: string) => string;
export const flagName: OptionName = (option) => `--${option}`;
export const envName: OptionName = (option) => `LOAD_${option.toUpperCase().replace(/-/g, '_')}`;

/** A default run is one window of steady load and one of ramp: a real minute each. */
export const DEFAULT_DURATION_MS = 2 * MINUTE_MS;
export const DEFAULT_STEADY_FRACTION = 0.8;
export const DEFAULT_RAMP_TO = 1.5;
/** Long enough to see something, short enough that a typo cannot hammer a deployment for hours. */
export const MIN_DURATION_MS = 2_000;
export const MAX_DURATION_MS = 60 * MINUTE_MS;
export const DEFAULT_TIMEOUT_MS = 10_000;

/** '90s' → 90000; '1m30s' → 90000; '500ms' → 500; '45' → 45000. Undefined when unreadable. */
export function parseDuration(value: string | number): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? value * 1000 : undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  // Validated whole first, then summed: no sticky regexes, which older k6 runtimes lack.
  if (!/^(\d+(\.\d+)?(ms|h|m|s))+$/.test(text)) return undefined;
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;
  let total = 0;
  for (const m of text.match(/\d+(?:\.\d+)?(?:ms|h|m|s)/g) ?? []) {
    const [, n, u] = /^(\d+(?:\.\d+)?)(ms|h|m|s)$/.exec(m)!;
    total += Number(n) * unit[u as keyof typeof unit];
  }
  return total > 0 ? total : undefined;
}

/** Checks and completes the input; the message of the Error thrown is one line for the user, naming options as `name` does. */
export function resolveConfig(input: ConfigInput, name: OptionName = flagName): LoadConfig {
  if (!isPlan(input.tier)) throw new Error(`tier '${input.tier}' is not one of ${PLANS.join(', ')}`);
  const tier = input.tier;
  let rpm: number;
  if (tier === 'enterprise') {
    if (input.rpm === undefined) throw new Error(`the enterprise tier needs its negotiated limit: ${name('rpm')} N (requests per minute)`);
    rpm = input.rpm;
  } else {
    if (input.rpm !== undefined && input.rpm !== PLAN_RPM[tier]) {
      throw new Error(`${name('rpm')} is for the enterprise tier; the ${tier} plan is ${PLAN_RPM[tier]} requests per minute`);
    }
    rpm = PLAN_RPM[tier];
  }
  if (!Number.isInteger(rpm) || rpm < 1) throw new Error(`${name('rpm')} must be a whole number ≥ 1, got '${rpm}'`);
  const windowMs = input.windowMs ?? MINUTE_MS;
  if (!Number.isFinite(windowMs) || windowMs < 100) throw new Error(`${name('window-ms')} must be ≥ 100, got '${windowMs}'`);
  const durationMs = input.duration === undefined ? DEFAULT_DURATION_MS : parseDuration(input.duration);
  if (durationMs === undefined) throw new Error(`${name('duration')} '${input.duration}' is not a duration (e.g. 120s, 2m, 1m30s)`);
  if (durationMs < MIN_DURATION_MS || durationMs > MAX_DURATION_MS) throw new Error(`${name('duration')} must be between 2s and 60m, got '${input.duration}'`);
  const steadyFraction = input.steadyFraction ?? DEFAULT_STEADY_FRACTION;
  const rampTo = input.rampTo ?? DEFAULT_RAMP_TO;
  if (!(steadyFraction > 0 && steadyFraction <= 1)) throw new Error(`${name('steady-fraction')} must be in (0, 1], got '${steadyFraction}'`);
  if (!(rampTo > steadyFraction && rampTo <= 5)) throw new Error(`${name('ramp-to')} must be above ${name('steady-fraction')} and at most 5, got '${rampTo}'`);
  for (const [option, v] of [['p95-ms', input.p95Ms], ['p99-ms', input.p99Ms]] as const) {
    if (v !== undefined && !(v > 0)) throw new Error(`${name(option)} must be > 0, got '${v}'`);
  }
  const timeoutMs = input.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!(Number.isFinite(timeoutMs) && timeoutMs >= 1)) throw new Error(`${name('timeout-ms')} must be ≥ 1, got '${timeoutMs}'`);
  const steadyMs = Math.round(durationMs / 2);
  return {
    tier, rpm, windowMs, steadyFraction, rampTo, steadyMs, rampMs: durationMs - steadyMs,
    ...(input.p95Ms !== undefined ? { p95Ms: input.p95Ms } : {}),
    ...(input.p99Ms !== undefined ? { p99Ms: input.p99Ms } : {}),
    timeoutMs,
  };
}

/** The limit as a rate: the per-window budget spread over the window. */
export const limitRps = (c: Pick<LoadConfig, 'rpm' | 'windowMs'>): number => c.rpm / (c.windowMs / 1000);
