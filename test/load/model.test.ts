// The load model on its own: tiers as SPEC.md states them, the mix as the contract defines its
// operations, the arrival schedule's arithmetic, configuration errors, threshold expressions.
import { describe, expect, it } from 'vitest';
import { operationById } from '../../contract/operations.ts';
import { PLAN_RPM as LOAD_PLAN_RPM } from '../../contract/plans.ts';
import { MIX, MIX_CYCLE, MIX_TOTAL_WEIGHT, requestAt } from '../../load/model/mix.ts';
import { envName, flagName, parseDuration, resolveConfig } from '../../load/model/config.ts';
import { buildSchedule, countAt, fixedWindowPeak, offeredInWindow, onsetResolution, rateAt, timeOfCount } from '../../load/model/schedule.ts';
import { noOnsetWarning } from '../../load/model/summary.ts';
import { defaultThresholds, expression, passes } from '../../load/model/thresholds.ts';
import { fixtureFrom } from '../../load/model/setup.ts';
import { seedData } from '../../load/data.ts';

describe('tiers', () => {
  it('are the plans of SPEC.md (contract/plans.ts, which the reference enforces too)', () => {
    expect(LOAD_PLAN_RPM).toEqual({ free: 100, starter: 500, pro: 2000 });
  });
});

describe('request mix', () => {
  it('names operations of the contract, with their method and path', () => {
    for (const e of MIX) {
      const op = operationById.get(e.operationId);
      expect(op, e.operationId).toBeDefined();
      expect({ method: e.method, path: e.path }).toEqual({ method: op!.method, path: op!.path });
    }
  });

  it('holds each operation exactly weight times per cycle', () => {
    expect(MIX_CYCLE).toHaveLength(MIX_TOTAL_WEIGHT);
    MIX.forEach((e, i) => expect(MIX_CYCLE.filter((x) => x === i), e.operationId).toHaveLength(e.weight));
  });

  it('builds requests from the seeded data and the setup ids', () => {
    const data = seedData(3);
    const fx = fixtureFrom(data, ['w-a', 'w-b', 'p-a', 'p-b']);
    const seen = new Map<string, Set<string>>();
    for (let k = 0; k < 2 * MIX_TOTAL_WEIGHT; k++) {
      const r = requestAt(k, data, fx);
      expect(r.path).not.toMatch(/[{}]|undefined/);
      seen.set(r.operationId, (seen.get(r.operationId) ?? new Set()).add(r.path + JSON.stringify(r.body ?? null)));
    }
    expect([...seen.keys()].sort()).toEqual(MIX.map((e) => e.operationId).sort());
    // Consecutive requests of one operation vary their data (both worlds, several bodies).
    expect(seen.get('chat')!.size).toBeGreaterThan(10);
    expect([...seen.get('getWorld')!].some((p) => p.includes('w-a')) && [...seen.get('getWorld')!].some((p) => p.includes('w-b'))).toBe(true);
  });
});

describe('configuration', () => {
  it('reads durations', () => {
    expect([parseDuration('120s'), parseDuration('2m'), parseDuration('1m30s'), parseDuration('500ms'), parseDuration('45'), parseDuration('1.5s')])
      .toEqual([120_000, 120_000, 90_000, 500, 45_000, 1500]);
    for (const bad of ['', 'abc', '10x', '-5s', 's', '5s5']) expect(parseDuration(bad), bad).toBeUndefined();
  });

  it('defaults to one real minute of steady load and one of ramp', () => {
    expect(resolveConfig({ tier: 'pro' })).toEqual({ tier: 'pro', rpm: 2000, windowMs: 60_000, steadyFraction: 0.8, rampTo: 1.5, steadyMs: 60_000, rampMs: 60_000, timeoutMs: 10_000 });
  });

  it('refuses what cannot run, in one line', () => {
    const bad: Array<[Parameters<typeof resolveConfig>[0], RegExp]> = [
      [{ tier: 'gold' }, /not one of/],
      [{ tier: 'enterprise' }, /--rpm/],
      [{ tier: 'free', rpm: 300 }, /enterprise/],
      [{ tier: 'free', duration: 'soon' }, /not a duration/],
      [{ tier: 'free', duration: '1s' }, /between/],
      [{ tier: 'free', steadyFraction: 1.2 }, /steady-fraction/],
      [{ tier: 'free', rampTo: 0.5 }, /ramp-to/],
      [{ tier: 'free', windowMs: 10 }, /window-ms/],
      [{ tier: 'free', timeoutMs: 0 }, /timeout-ms/],
    ];
    for (const [input, message] of bad) {
      expect(() => resolveConfig(input), JSON.stringify(input)).toThrow(message);
      try { resolveConfig(input); } catch (err) { expect((err as Error).message).not.toContain('\n'); }
    }
  });

  it('names options as the caller knows them: flags in the CLI, LOAD_* variables in k6', () => {
    expect(() => resolveConfig({ tier: 'enterprise' }, envName)).toThrow(/LOAD_RPM N/);
    expect(() => resolveConfig({ tier: 'free', rampTo: 0.5 }, envName)).toThrow(/LOAD_RAMP_TO must be above LOAD_STEADY_FRACTION/);
    expect(() => resolveConfig({ tier: 'free', timeoutMs: -1 }, envName)).toThrow(/^LOAD_TIMEOUT_MS/);
    expect(() => resolveConfig({ tier: 'free', rpm: 7 }, envName)).not.toThrow(/--/);
  });
});

describe('schedule', () => {
  const config = resolveConfig({ tier: 'free', windowMs: 1000, duration: '10s' });
  const s = buildSchedule(config);

  it('scales the per-window budget to a rate: 100 per 1 s window is 100 req/s', () => {
    expect(s.limitRps).toBe(100);
    expect(rateAt(s, 0)).toBeCloseTo(80);
    expect(rateAt(s, 5000)).toBeCloseTo(80);
    expect(rateAt(s, 9999)).toBeCloseTo(150, 0);
    expect(buildSchedule(resolveConfig({ tier: 'free' })).limitRps).toBeCloseTo(100 / 60);
  });

  it('places request k where the integral of the rate reaches k', () => {
    // 80 × 5 s steady, then (80 + 150) / 2 × 5 s ramp.
    expect(s.total).toBe(400 + 575);
    for (const k of [0, 1, 79, 399, 400, 401, 700, s.total - 1]) expect(countAt(s, timeOfCount(s, k)!)).toBeCloseTo(k, 6);
    expect(timeOfCount(s, 0)).toBe(0);
    expect(timeOfCount(s, 400)).toBeCloseTo(5000, 6);
    expect(timeOfCount(s, s.total)).toBeUndefined();
    for (let k = 1; k < s.total; k++) expect(timeOfCount(s, k)!).toBeGreaterThan(timeOfCount(s, k - 1)!);
  });

  it('counts the load offered over the trailing window, setup included at the start', () => {
    expect(offeredInWindow(s, 3000, 1000)).toBeCloseTo(80);
    expect(offeredInWindow(s, 500, 1000, 4)).toBeCloseTo(44);
    // The ramp climbs 14 req/s each second: from 136 to 150 over the last window.
    expect(offeredInWindow(s, 10_000, 1000)).toBeCloseTo((136 + 150) / 2, 6);
    expect(onsetResolution(config)).toBeCloseTo(0.14);
  });
});

describe('a run that sees no 429', () => {
  // The default pro run: 60 s steady at 1600/min (26.67 req/s), then 60 s climbing 0.3889 req/s
  // each second to 50 req/s. Fixed 60 s windows that begin φ s into the steady phase hold
  // 1600 + 0.19444·φ² (the one that reaches into the ramp) and 2300 − 26.67·φ − 0.19444·φ²
  // (the rest of the ramp): the larger of the two is least at φ = 20.26 s, 1679.8 requests.
  const pro = resolveConfig({ tier: 'pro' });

  it('knows what a fixed-window limiter must have counted, wherever its windows begin', () => {
    expect(fixedWindowPeak(buildSchedule(pro), pro.windowMs, 4)).toBeCloseTo(1679.8, 0);
    // Four minutes: the last two windows of the ramp split at their best 13.6 s from a window's
    // start, holding 1950 + 11.67·13.6 = 2109 requests.
    const four = resolveConfig({ tier: 'pro', duration: '4m' });
    expect(fixedWindowPeak(buildSchedule(four), four.windowMs, 4)).toBeCloseTo(2109, -1);
  });

  it('does not say a correct fixed-window limiter is missing, and says how long a run would find it', () => {
    const w = noOnsetWarning(pro, 4, flagName);
    expect(w).not.toContain('did not limit');
    expect(w).toContain('none holds more than 1680 requests of this run (84% of the budget of 2000)');
    const longer = /(--duration) (\S+) makes its 429 certain/.exec(w)!;
    expect(longer).not.toBeNull();
    // The run it proposes does fill a window however they are placed, and 10 s less does not.
    const ms = parseDuration(longer[2])!;
    const at = (d: number) => { const c = resolveConfig({ tier: 'pro', duration: `${d}ms` }); return fixedWindowPeak(buildSchedule(c), c.windowMs, 4); };
    expect(at(ms)).toBeGreaterThan(2000);
    expect(at(ms - 10_000)).toBeLessThanOrEqual(2000);
    expect(noOnsetWarning(pro, 4, envName)).toContain('LOAD_DURATION');
  });

  it('says the deployment did not limit when every placement of a window held more than the budget', () => {
    expect(noOnsetWarning(resolveConfig({ tier: 'pro', duration: '4m' }), 4, flagName)).toContain('the deployment did not limit this key');
    // A ramp that ends under the limit can never show it, and proposes nothing.
    expect(noOnsetWarning(resolveConfig({ tier: 'pro', rampTo: 0.9 }), 4, flagName)).not.toMatch(/did not limit|makes its 429 certain/);
  });
});

describe('thresholds', () => {
  it('are per endpoint for latency and errors, plus the rate-limit checks', () => {
    const t = defaultThresholds(resolveConfig({ tier: 'pro', p95Ms: 42 }));
    for (const e of MIX) {
      expect(t.filter((x) => x.operationId === e.operationId).map((x) => `${x.kind}:${x.stat ?? ''}:${x.phase}`).sort())
        .toEqual(['errorRate::steady', 'latency:p95:steady', 'latency:p99:steady']);
    }
    expect(t.filter((x) => x.kind === 'latency' && x.stat === 'p95').every((x) => x.bound === 42)).toBe(true);
    expect(t.filter((x) => x.abortOnFail)).toHaveLength(1);
    expect(t.map((x) => x.kind)).toEqual(expect.arrayContaining(['retryAfter', 'onset']));
  });

  it('speak k6 and decide the same way', () => {
    const [p95] = defaultThresholds(resolveConfig({ tier: 'pro', p95Ms: 500 }));
    expect(expression(p95)).toBe('p(95)<500');
    expect([passes(p95, 499.9), passes(p95, 500), passes(p95, undefined)]).toEqual([true, false, true]);
    const onset = defaultThresholds(resolveConfig({ tier: 'pro' })).find((x) => x.kind === 'onset')!;
    // The share of 429s that came before the limit: none may.
    expect(expression(onset)).toBe('rate<=0');
    expect([passes(onset, 0), passes(onset, 0.01), passes(onset, undefined)]).toEqual([true, false, true]);
  });
});
