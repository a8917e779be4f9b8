// One report and one verdict from the runners of a split run, without k6: fixtures of what each
// runner leaves (its summary export, as k6 writes it, and its raw samples, `--out json`). The
// whole is judged on every runner's raw samples: a p95 that each runner's ten samples pass fails
// on the twenty of the whole (and the reverse), the rate offered is every runner's, and the first
// 429 is read from every runner's sends, as the limiter counted them. test/load/real-k6.test.ts
// runs the same cases with a real k6, when there is one.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { combineRunners, type RunnerOutput } from '../../load/k6-host/combine.ts';
import { resolveConfig } from '../../load/model/config.ts';
import { executionSplit } from '../../load/model/distributed.ts';
import type { K6SummaryData } from '../../load/k6/summary.ts';
import { renderTable } from '../../load/report/table.ts';
import { k6Points, type PointSample } from './k6-points.ts';

const dir = mkdtempSync(join(tmpdir(), 'load-combine-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// free, a 1 s window: 100 requests per window; steady 2 s at 80 req/s, ramp 2 s from 80 to 150.
const config = resolveConfig({ tier: 'free', windowMs: 1000, duration: '4s', p95Ms: 200 });
const T0 = Date.parse('2026-01-01T00:00:00Z');
const WC = 'worldContext p95 (steady)';

/**
 * Runner `index` of `of`: in the steady phase 40 requests a second of its own (the runners
 * interleaved), ten of them worldContext, the first of which takes `slowMs`; on the ramp 100 a
 * second, answered 429 when `limited(t)`. `ownP95` is the worldContext p95 k6 computed on this
 * runner's samples (in its summary export, with its verdict on the bound of 200 ms).
 */
function runner(index: number, of: number, o: { slowMs?: number; ownP95: number; limited?: (t: number) => boolean }): RunnerOutput {
  const offset = ((index - 1) * 25) / of;
  const samples: PointSample[] = [];
  let wc = 0;
  for (let t = offset; t < 2000; t += 25) {
    const isWc = samples.length % 8 === 0 && wc < 10;
    samples.push({ ms: t, phase: 'steady', endpoint: isWc ? 'worldContext' : 'getWorld', status: 200, latency: isWc && wc++ === 0 && o.slowMs ? o.slowMs : 2 });
  }
  for (let t = 2000 + offset / 2.5; t < 4000; t += 10) samples.push({ ms: t, phase: 'ramp', endpoint: 'getWorld', status: o.limited?.(t) ? 429 : 200, latency: 1 });
  const pointsFile = join(dir, `r${index}-of-${of}-${o.slowMs ?? 0}-${o.limited ? 'l' : ''}.ndjson`);
  writeFileSync(pointsFile, k6Points(T0, samples));
  const limited = samples.filter((s) => s.status === 429).length;
  const exported: K6SummaryData = {
    metrics: {
      'http_req_duration{endpoint:worldContext,phase:steady}': { values: { 'p(95)': o.ownP95, count: 10 }, thresholds: { 'p(95)<200': { ok: o.ownP95 < 200 } } },
      'http_req_failed{phase:steady}': { values: { passes: 0, fails: 80, rate: 0 } },
      'http_req_failed{phase:ramp}': { values: { passes: 0, fails: 200, rate: 0 } },
      retry_after_on_429: { values: { passes: limited, fails: 0, rate: limited ? 1 : 0 } },
    },
    root_group: { checks: [{ name: 'status is 2xx', passes: samples.length - limited, fails: 0 }] },
    setup_data: { runTag: `r${index}`, setupRequests: 4 * of },
  };
  return { index, segment: executionSplit(of)[index - 1].segment, exitCode: o.ownP95 < 200 ? 0 : 99, exported, pointsFile };
}

const ctx = { config, baseUrl: 'http://127.0.0.1:1', now: T0 + 4000 };

describe('a split run, combined', () => {
  it('fails a p95 on the whole that each runner passed on its own samples', async () => {
    // Each runner: nine answers of 2 ms and one of 290: k6 interpolates its p95 at rank 8.55 of 0–9, 2 + 0.55 × 288 = 160.4 ms.
    // The whole: eighteen of 2 ms and two of 290: rank 18.05 of 0–19 falls between the two slow ones: 290 ms.
    const s = await combineRunners([runner(1, 2, { slowMs: 290, ownP95: 160.4 }), runner(2, 2, { slowMs: 290, ownP95: 160.4 })], ctx);
    expect(s.runners!.map((r) => [r.verdict, r.exitCode])).toEqual([['pass', 0], ['pass', 0]]);
    expect(s.verdict).toBe('fail');
    expect(s.thresholds.filter((t) => !t.ok)).toEqual([expect.objectContaining({ id: WC, actual: 290 })]);
    expect(s.phases[0].endpoints.find((e) => e.operationId === 'worldContext')!.count).toBe(20);
    expect(s.warnings.join(' ')).toContain('runner 1, runner 2 alone would have said PASS');
    expect(renderTable(s)).toMatch(/runner 1 \(segment 0:1\/2\): \d+ requests, its own verdict PASS, k6 exit 0\n {2}runner 2 \(segment 1\/2:1\)/);
  });

  it('passes a p95 on the whole that one runner failed on its own samples', async () => {
    // Runner 1: nine of 2 ms and one of 600: 2 + 0.55 × 598 = 330.9 ms, over 200. Runner 2: ten of 2 ms.
    // The whole: nineteen of 2 ms and one of 600: rank 18.05 falls between the last fast one and the slow one: 2 + 0.05 × 598 = 31.9 ms.
    const s = await combineRunners([runner(1, 2, { slowMs: 600, ownP95: 330.9 }), runner(2, 2, { ownP95: 2 })], ctx);
    expect(s.runners!.map((r) => [r.verdict, r.failed, r.exitCode])).toEqual([['fail', [WC], 99], ['pass', [], 0]]);
    expect(s.verdict).toBe('pass');
    expect(s.thresholds.find((t) => t.id === WC)!.actual).toBeCloseTo(31.9, 6);
  });

  it('counts the rate offered and the first 429 from every runner\'s sends, as the limiter saw them', async () => {
    // A fixed 1 s window from the ramp's start: together the runners send 200 a second there, so
    // the limiter says no from the 101st request on (at 2.5 s), and from 3.5 s in the next window.
    const limited = (t: number) => (t >= 2500 && t < 3000) || t >= 3500;
    const both = await combineRunners([runner(1, 2, { ownP95: 2, limited }), runner(2, 2, { ownP95: 2, limited })], ctx);
    expect(both.phases.map((p) => p.sent)).toEqual([160, 400]);
    expect(both.phases[1].total.rateLimited).toBe(200);
    expect(both.onset).toMatchObject({ found: true, phase: 'ramp', early: 0 });
    expect(both.onset.fractionOfLimit!).toBeGreaterThanOrEqual(1);
    expect(both.setup.requests).toBe(8);
    expect(both.checks).toEqual([{ name: 'status is 2xx', passes: 360, fails: 0 }]);
    expect(both.verdict).toBe('pass');
    // One runner's samples alone see half of what the limiter counted: the same 429s would read early.
    const alone = await combineRunners([runner(1, 2, { ownP95: 2, limited })], ctx);
    expect(alone.onset.fractionOfLimit!).toBeLessThan(0.95);
    expect(alone.onset.early).toBeGreaterThan(0);
    // And half the runners sent half the plan: no verdict (load/model/complete.ts).
    expect(alone.verdict).toBe('none');
    expect(alone.incomplete).toMatchObject({ planned: 390, sent: 280 });
  });
});
