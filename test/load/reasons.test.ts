// The load report says why a run failed in plain words, first: under the HTML page's title and
// before the terminal's verdict, not only as `rate<=0` on the last row of the thresholds table.
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../load/model/config.ts';
import { buildSchedule } from '../../load/model/schedule.ts';
import { defaultThresholds, expression } from '../../load/model/thresholds.ts';
import { SUMMARY_SCHEMA, type LoadSummary, type ThresholdResult } from '../../load/model/summary.ts';
import { verdictReasons } from '../../load/model/reasons.ts';
import { renderHtml } from '../../load/report/html.ts';
import { renderTable } from '../../load/report/table.ts';

/** A free-tier summary whose thresholds all pass but those given, with the measured values given. */
function summary(failed: Record<string, number>): LoadSummary {
  const config = resolveConfig({ tier: 'free', windowMs: 60_000, duration: '30s' });
  const schedule = buildSchedule(config);
  const thresholds: ThresholdResult[] = defaultThresholds(config).map((t) => ({ id: t.id, expression: expression(t), ok: !(t.id in failed), ...(t.id in failed ? { actual: failed[t.id] } : {}) }));
  const total = (rateLimited: number) => ({ operationId: 'total', count: 50, ok: 50 - rateLimited, errors: 0, rateLimited, retryAfterMissing: 0 });
  return {
    schema: SUMMARY_SCHEMA, engine: 'node', tier: 'free', plan: { rpm: 100, windowMs: 60_000, limitRps: schedule.limitRps }, config,
    target: { baseUrl: 'http://127.0.0.1:1' }, startedAt: '2026-01-01T00:00:00.000Z', durationMs: 30_000, setup: { requests: 4, runTag: 't' },
    phases: schedule.phases.map((p, i) => ({ ...p, planned: 25, sent: 25, achievedRps: 1, endpoints: [], total: total(i ? 10 : 0) })),
    onset: { found: true, atMs: 16_000, phase: 'ramp', offeredInWindow: 42, fractionOfLimit: 0.42, resolution: 0.3, early: 10 },
    thresholds, checks: [], verdict: Object.keys(failed).length ? 'fail' : 'pass', warnings: [],
  };
}

describe('the verdict in words', () => {
  const early = summary({ '429s begin at the limit': 1, 'chat p95 (steady)': 612.4 });

  it('says why, one sentence per failed threshold, with the figures and no k6 expression', () => {
    const reasons = verdictReasons(early);
    expect(reasons).toHaveLength(2);
    expect(reasons.join(' ')).not.toContain('rate<=0');
    expect(reasons.find((r) => r.startsWith('chat:'))).toMatch(/95% of its answers in the steady phase took up to 612 ms, over the bound of 500 ms/);
    expect(reasons.find((r) => r.startsWith('429s'))).toMatch(/the first when 42% of the budget had been offered over the 60 s window \(10 of 10 429s came under 95%\).*wait one window and run again/);
    expect(verdictReasons(summary({}))).toEqual([]);
  });

  it('heads the HTML page: right under the title, before the chart and the tables', () => {
    const html = renderHtml(early);
    const title = html.indexOf('<h1>');
    const why = html.indexOf('Why it failed');
    expect(why).toBeGreaterThan(title);
    expect(why).toBeLessThan(html.indexOf('<h2>'));
    expect(html.slice(why, html.indexOf('<h2>'))).toContain('429s came before the plan&#39;s limit');
    expect(renderHtml(summary({}))).toMatch(/<\/h1>\n<p class="reasons pass">Every threshold passed\.<\/p>/);
  });

  it('comes before the verdict in the terminal', () => {
    const lines = renderTable(early).split('\n');
    const at = lines.indexOf('why it failed:');
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toMatch(/^ {2}- /);
    expect(lines.at(-1)).toBe('verdict: FAIL');
  });
});
