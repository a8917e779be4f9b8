// The HTML report (reports/load-<tier>.html): requests per second over time against the plan's
// limit with where 429s began, a latency histogram per endpoint, the phase tables and the
// thresholds. One self-contained file: inline SVG and CSS, no scripts, nothing fetched.
import type { EndpointStats, LoadSummary, PhaseResult, TimelinePoint } from '../model/summary.ts';
import type { EndpointComparison } from '../model/compare.ts';
import { onsetLine, runnerLines } from './table.ts';
import { verdictReasons } from '../model/reasons.ts';

const esc = (s: unknown) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const fmt = (x: number | undefined, digits = 1) => (x === undefined ? '–' : (+x.toFixed(digits)).toString());

/** Round tick values from 0 to at least `max`: steps of 1, 2 or 5 times a power of ten, about `count` of them. */
export function niceTicks(max: number, count = 6): number[] {
  if (!(max > 0)) return [0];
  const rough = max / Math.max(1, count - 1);
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((x) => x >= rough) ?? 10 * power;
  return Array.from({ length: Math.ceil(max / step - 1e-9) + 1 }, (_, i) => +(i * step).toPrecision(12));
}

/**
 * Requests per second by outcome, stacked, with the limit, the phase boundary and the onset. Each
 * answer is one bar part: 2xx, 429, or another failure (a timeline's `errors` leaves the 429s out,
 * even the steady phase's that the verdict counts as errors: load/node/recorder.ts).
 */
function rateChart(s: LoadSummary): string {
  if (!s.timeline?.points.length) return '<p class="note">No time series: k6 was run without the CLI (use <code>npm run load -- --engine k6</code> to get one).</p>';
  const { bucketMs, points } = s.timeline;
  const perSec = 1000 / bucketMs;
  const W = 860, H = 280, L = 50, B = 30, T = 10, R = 10;
  const totalMs = points.length * bucketMs;
  const other = (p: TimelinePoint) => p.errors;
  const yTicks = niceTicks(Math.max(s.plan.limitRps * s.config.rampTo, ...points.map((p) => Math.max(p.sent, p.ok + p.rateLimited + other(p)) * perSec)) * 1.05);
  const peak = yTicks[yTicks.length - 1];
  const x = (ms: number) => Math.round((L + ((W - L - R) * ms) / totalMs) * 10) / 10;
  const y = (r: number) => Math.round((H - B - ((H - B - T) * r) / peak) * 10) / 10;
  const bw = Math.max(1, x(bucketMs) - x(0) - 1);
  const bars = points.map((p) => {
    const parts: Array<[number, string]> = [[p.ok * perSec, 'ok'], [p.rateLimited * perSec, 'limited'], [other(p) * perSec, 'error']];
    let base = 0;
    return parts.filter(([v]) => v > 0).map(([v, cls]) => {
      const r = `<rect class="${cls}" x="${x(p.t).toFixed(1)}" y="${y(base + v).toFixed(1)}" width="${bw.toFixed(1)}" height="${(y(base) - y(base + v)).toFixed(1)}"/>`;
      base += v;
      return r;
    }).join('');
  }).join('');
  const sent = points.map((p, i) => `${i ? 'L' : 'M'}${x(p.t + bucketMs / 2).toFixed(1)},${y(p.sent * perSec).toFixed(1)}`).join('');
  const steady = s.phases.find((p) => p.name === 'steady');
  const marks: string[] = [
    `<line class="limit" x1="${L}" x2="${W - R}" y1="${y(s.plan.limitRps)}" y2="${y(s.plan.limitRps)}"/><text x="${W - R - 4}" y="${y(s.plan.limitRps) - 4}" text-anchor="end">plan limit ${fmt(s.plan.limitRps)} req/s</text>`,
  ];
  if (steady) marks.push(`<line class="phase" x1="${x(steady.durationMs)}" x2="${x(steady.durationMs)}" y1="${T}" y2="${H - B}"/><text x="${x(steady.durationMs) + 4}" y="${T + 12}">ramp →</text>`);
  if (s.onset.found && s.onset.atMs !== undefined) {
    marks.push(`<line class="onset" x1="${x(s.onset.atMs)}" x2="${x(s.onset.atMs)}" y1="${T}" y2="${H - B}"/><text x="${x(s.onset.atMs) - 4}" y="${T + 26}" text-anchor="end">first 429 (${fmt((s.onset.fractionOfLimit ?? 0) * 100, 0)}% of limit)</text>`);
  }
  // Round seconds on the time axis, within the run.
  const xTicks = niceTicks(totalMs / 1000, 7).filter((t) => t * 1000 <= totalMs + 1e-6);
  const axis = yTicks.map((t) => `<text x="${L - 6}" y="${y(t) + 4}" text-anchor="end">${fmt(t, 2)}</text><line class="grid" x1="${L}" x2="${W - R}" y1="${y(t)}" y2="${y(t)}"/>`).join('')
    + xTicks.map((t) => `<text x="${x(t * 1000)}" y="${H - B + 16}" text-anchor="middle">${fmt(t, 2)} s</text>`).join('');
  return `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="requests per second over time">${axis}${bars}<path class="sent" d="${sent}"/>${marks.join('')}</svg>
<p class="legend"><span class="ok">■</span> 2xx <span class="limited">■</span> 429 <span class="error">■</span> other failures <span class="sentkey">—</span> sent (scheduled load), per second, in ${bucketMs} ms buckets</p>`;
}

function histogram(op: string, h: { boundsMs: number[]; counts: number[] }): string {
  const W = 270, H = 120, B = 28, T = 16;
  const max = Math.max(1, ...h.counts);
  const n = h.counts.length;
  const bw = (W - 10) / n;
  const labels = [...h.boundsMs.map((b) => `<${b}`), `≥${h.boundsMs[h.boundsMs.length - 1]}`];
  const bars = h.counts.map((c, i) => {
    const hh = ((H - B - T) * c) / max;
    return `<rect class="ok" x="${(5 + i * bw).toFixed(1)}" y="${(H - B - hh).toFixed(1)}" width="${(bw - 1).toFixed(1)}" height="${hh.toFixed(1)}"><title>${esc(labels[i])} ms: ${c}</title></rect>`
      + (i % 2 === 0 ? `<text x="${(5 + i * bw + bw / 2).toFixed(1)}" y="${H - B + 12}" text-anchor="middle" class="small">${esc(labels[i])}</text>` : '');
  }).join('');
  return `<figure><svg viewBox="0 0 ${W} ${H}" role="img" aria-label="latency histogram of ${esc(op)}"><text x="5" y="12">${esc(op)}</text>${bars}<text x="${W / 2}" y="${H - 2}" text-anchor="middle" class="small">service time, ms (steady phase)</text></svg></figure>`;
}

/**
 * The baseline's and this run's service times of one endpoint on the same log-spaced bins, each
 * as a share of its own samples (the runs may differ in size): grey outline the baseline, blue
 * bars this run, with both p50s and p95s marked.
 */
function distributions(e: EndpointComparison, before: number[], after: number[]): string {
  const W = 420, H = 150, L = 6, R = 6, T = 18, B = 30, BINS = 24;
  const all = [...before, ...after].filter((x) => x > 0);
  if (!all.length) return '';
  const lo = Math.log10(Math.min(...all)), hi = Math.log10(Math.max(...all)) + 1e-9;
  const bin = (x: number) => Math.min(BINS - 1, Math.max(0, Math.floor(((Math.log10(Math.max(x, 1e-9)) - lo) / (hi - lo || 1)) * BINS)));
  const share = (xs: number[]) => { const c = new Array(BINS).fill(0); for (const x of xs) c[bin(x)]++; return c.map((n) => n / Math.max(1, xs.length)); };
  const a = share(before), b = share(after);
  const top = Math.max(...a, ...b, 1e-9);
  const bw = (W - L - R) / BINS;
  const y = (v: number) => H - B - ((H - B - T) * v) / top;
  const bars = b.map((v, i) => `<rect class="ok" x="${(L + i * bw).toFixed(1)}" y="${y(v).toFixed(1)}" width="${(bw - 1).toFixed(1)}" height="${(H - B - y(v)).toFixed(1)}"/>`).join('');
  const outline = 'M' + a.map((v, i) => `${(L + i * bw).toFixed(1)},${y(v).toFixed(1)}H${(L + (i + 1) * bw).toFixed(1)}`).join('V');
  const xOf = (ms: number) => L + ((Math.log10(Math.max(ms, 1e-9)) - lo) / (hi - lo || 1)) * (W - L - R);
  const mark = (ms: number | undefined, cls: string, label: string) => (ms === undefined ? '' : `<line class="${cls}" x1="${xOf(ms).toFixed(1)}" x2="${xOf(ms).toFixed(1)}" y1="${T}" y2="${H - B}"><title>${esc(label)} ${fmt(ms, 2)} ms</title></line>`);
  const ticks = [lo, (lo + hi) / 2, hi].map((l, i) => `<text x="${(L + (i / 2) * (W - L - R)).toFixed(1)}" y="${H - B + 14}" text-anchor="${['start', 'middle', 'end'][i]}" class="small">${fmt(10 ** l, 2)} ms</text>`).join('');
  const verdictText = e.verdict === 'too few samples' ? 'too few samples' : `${e.verdict}: p50 ${fmt(e.p50!.baseline, 2)} → ${fmt(e.p50!.current, 2)} ms, p95 ${fmt(e.p95!.baseline, 2)} → ${fmt(e.p95!.current, 2)} ms`;
  return `<figure class="wide"><svg viewBox="0 0 ${W} ${H}" role="img" aria-label="service time of ${esc(e.operationId)}, baseline and this run">` +
    `<text x="${L}" y="12">${esc(e.operationId)}: <tspan class="${e.verdict === 'worse' ? 'fail' : ''}">${esc(verdictText)}</tspan></text>${bars}<path class="baseline" d="${outline}"/>` +
    `${mark(e.p50?.baseline, 'base-mark', 'baseline p50')}${mark(e.p95?.baseline, 'base-mark', 'baseline p95')}${mark(e.p50?.current, 'cur-mark', 'this run p50')}${mark(e.p95?.current, 'cur-mark', 'this run p95')}` +
    `${ticks}<text x="${W / 2}" y="${H - 2}" text-anchor="middle" class="small">service time (log scale), share of each run's samples</text></svg></figure>`;
}

function comparisonSection(s: LoadSummary, baseline?: LoadSummary): string {
  const c = s.comparison;
  if (!c) return '';
  if (c.notCompared) return `<h2>Against the baseline${c.baseline.file ? ` ${esc(c.baseline.file)}` : ''}: not compared</h2>\n<p>${esc(c.notCompared)}.</p>`;
  // The baseline's samples are its own file's (this run's JSON keeps this run's only).
  const before = baseline?.samples?.endpoints ?? {};
  const after = s.samples?.endpoints ?? {};
  const rows = c.endpoints.map((e) => `<tr class="${e.verdict === 'worse' ? 'fail' : 'pass'}"><td>${esc(e.operationId)}</td><td>${e.baselineCount}</td><td>${e.currentCount}</td>` +
    `<td>${e.p50 ? `${fmt(e.p50.baseline, 2)} → ${fmt(e.p50.current, 2)} [${fmt(e.p50.low, 2)}, ${fmt(e.p50.high, 2)}]` : '–'}</td>` +
    `<td>${e.p95 ? `${fmt(e.p95.baseline, 2)} → ${fmt(e.p95.current, 2)} [${fmt(e.p95.low, 2)}, ${fmt(e.p95.high, 2)}]` : '–'}</td><td>${esc(e.verdict)}</td></tr>`).join('');
  const figures = c.endpoints.map((e) => distributions(e, before[e.operationId]?.ms ?? [], after[e.operationId]?.ms ?? [])).join('');
  return `<h2>Against the baseline${c.baseline.file ? ` ${esc(c.baseline.file)}` : ''}: <span class="${c.regression ? 'fail' : 'pass'}">${c.regression ? 'SLOWER' : 'not slower'}</span></h2>
<p>Baseline: ${esc(c.baseline.engine)} engine, ${esc(c.baseline.tier)} tier, started ${esc(c.baseline.startedAt)}. Steady phase, service time per endpoint. ${esc(c.method)}.</p>
<table><thead><tr><th>endpoint</th><th>n baseline</th><th>n this run</th><th>p50 ms [interval of the difference]</th><th>p95 ms [interval of the difference]</th><th>verdict</th></tr></thead><tbody>${rows}</tbody></table>
<p class="legend"><span class="sentkey">▭</span> baseline <span class="ok">■</span> this run; dashed lines the baseline's p50 and p95, solid this run's</p>
${figures}`;
}

function phaseTable(p: PhaseResult): string {
  const rows: EndpointStats[] = [...p.endpoints.filter((e) => e.count > 0).sort((a, b) => b.count - a.count), p.total];
  const cells = rows.map((e) => `<tr${e.operationId === 'total' ? ' class="total"' : ''}><td>${esc(e.operationId)}</td><td>${e.count}</td><td>${fmt(e.latency?.p50, 2)}</td><td>${fmt(e.latency?.p95, 2)}</td><td>${fmt(e.latency?.p99, 2)}</td><td>${e.errors}</td><td>${e.rateLimited}</td></tr>`).join('');
  const lag = (p.sendLag ? `; sends late by ${fmt(p.sendLag.p99, 1)} ms at p99` : '') + (p.connectWait ? `, ${fmt(p.connectWait.p99, 1)} ms at p99 waiting for a connection` : '');
  return `<h3>${esc(p.name)}: ${fmt(p.fromRps)}${p.fromRps !== p.toRps ? ` → ${fmt(p.toRps)}` : ''} req/s, ${fmt(p.durationMs / 1000)} s (${fmt(p.achievedRps, 1)} req/s achieved${lag})</h3>
<table><thead><tr><th>endpoint</th><th>count</th><th>p50 ms</th><th>p95 ms</th><th>p99 ms</th><th>errors</th><th>429s</th></tr></thead><tbody>${cells}</tbody></table>`;
}

/** Why the verdict is what it is, in words, right under the title (the thresholds table stays below). */
function reasonsBlock(s: LoadSummary): string {
  const reasons = verdictReasons(s);
  if (s.verdict === 'none') return `<div class="reasons fail"><strong>No verdict:</strong><ul>${reasons.map((r) => `<li>${esc(r)}</li>`).join('')}</ul></div>`;
  if (!reasons.length) return `<p class="reasons pass">Every threshold passed${s.comparison && !s.comparison.notCompared ? ', and no endpoint is slower than the baseline' : ''}.</p>`;
  return `<div class="reasons fail"><strong>Why it failed:</strong><ul>${reasons.map((r) => `<li>${esc(r)}</li>`).join('')}</ul></div>`;
}

/** The page; with the baseline run when this one was compared with it (`--baseline`). */
export function renderHtml(s: LoadSummary, o: { baseline?: LoadSummary } = {}): string {
  const hist = Object.entries(s.histograms ?? {}).sort(([a], [b]) => a.localeCompare(b)).map(([op, h]) => histogram(op, h)).join('');
  const checks = (s.checks ?? []).map((c) => `<tr class="${c.fails ? 'fail' : 'pass'}"><td>${esc(c.name)}</td><td>${c.passes}</td><td>${c.fails}</td></tr>`).join('');
  const thresholds = s.thresholds.map((t) => `<tr class="${t.ok ? 'pass' : 'fail'}"><td>${t.ok ? 'pass' : 'FAIL'}</td><td>${esc(t.id)}</td><td><code>${esc(t.expression)}</code></td><td>${t.actual === undefined ? '–' : fmt(t.actual, 3)}</td></tr>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Load ${esc(s.tier)}: ${esc(s.verdict)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:900px;color:#222}
h1 .pass{color:#1a7f37}h1 .fail{color:#cf222e}h1 .none{color:#9a6700}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{padding:2px 10px;text-align:right;border-bottom:1px solid #eee}
td:first-child,th:first-child{text-align:left}tr.total td{font-weight:600;border-top:1px solid #999}
tr.fail td{color:#cf222e;font-weight:600}
svg{width:100%;height:auto;font-size:11px}svg text{fill:#444}.small{font-size:9px}
rect.ok{fill:#4c9be8}rect.limited{fill:#f0a030}rect.error{fill:#cf222e}path.sent{fill:none;stroke:#222;stroke-width:1.2}
line.limit{stroke:#cf222e;stroke-dasharray:6 3}line.phase{stroke:#888;stroke-dasharray:2 3}line.onset{stroke:#f0a030;stroke-width:2}line.grid{stroke:#eee}
.legend .ok{color:#4c9be8}.legend .limited{color:#f0a030}.legend .error{color:#cf222e}
figure{display:inline-block;width:32%;margin:0}.note{color:#666}figure.wide{width:49%}
path.baseline{fill:none;stroke:#777;stroke-width:1.5}line.base-mark{stroke:#777;stroke-dasharray:3 2}line.cur-mark{stroke:#1f5fa8}
h2 .pass{color:#1a7f37}h2 .fail,tspan.fail{color:#cf222e;fill:#cf222e}
.reasons.fail{border-left:4px solid #cf222e;padding:.3em 1em;background:#fff5f5}.reasons ul{margin:.3em 0}
</style></head><body>
<h1>Load test, ${esc(s.tier)} tier: <span class="${s.verdict}">${s.verdict === 'none' ? 'NO VERDICT (incomplete run)' : esc(s.verdict.toUpperCase())}</span></h1>
${reasonsBlock(s)}
<p>${esc(s.engine)} engine against ${esc(s.target.baseUrl)}${s.target.embedded ? ' (embedded reference)' : ''}, started ${esc(s.startedAt)}.
Plan: ${s.plan.rpm} requests per ${fmt(s.plan.windowMs / 1000)} s window (${fmt(s.plan.limitRps, 2)} req/s). Steady at ${Math.round(s.config.steadyFraction * 100)}% of the limit, then a ramp to ${Math.round(s.config.rampTo * 100)}%.</p>
${s.aborted ? `<p class="fail"><strong>Aborted:</strong> ${esc(s.aborted)}</p>` : ''}
<h2>Requests per second, and where 429s began</h2>
${rateChart(s)}
<p><strong>${esc(onsetLine(s))}</strong>.${s.onset.found ? ` The onset is the load offered over the rate-limit window that ended with the first 429, against the plan's budget for a window: a limiter counting in fixed windows says no only once a window's budget is spent, so the scheduled rate at that moment can be further past the limit (the ramp climbs ${Math.round(s.onset.resolution * 100)}% of the limit per window).` : ''}</p>
<h2>Service time per endpoint (steady phase: from the moment each request is written on a connection to its whole answer)</h2>
${hist || '<p class="note">No histograms in this summary.</p>'}
${comparisonSection(s, o.baseline)}
<h2>Per endpoint</h2>
${s.phases.map(phaseTable).join('\n')}
${s.runners?.length ? `<h2>Runners</h2>\n<p>${runnerLines(s).map(esc).join('<br>')}</p>` : ''}
<h2>Checks</h2>
<table><thead><tr><th>check</th><th>passed</th><th>failed</th></tr></thead><tbody>${checks}</tbody></table>
<h2>Thresholds</h2>
<table><thead><tr><th>result</th><th>threshold</th><th>expression</th><th>measured</th></tr></thead><tbody>${thresholds}</tbody></table>
${s.warnings.length ? `<h2>Warnings</h2><ul>${s.warnings.map((w) => `<li>${esc(w)}</li>`).join('')}</ul>` : ''}
</body></html>
`;
}
