// The terminal report: one table per phase (count, service-time p50, p95, p99, the response time's
// p99 where the engine knows it, errors, 429s per endpoint), where 429s began, the checks and the
// thresholds that failed. Plain strings, no colour codes, so it reads
// the same in a CI log, in k6's stdout (handleSummary) and in a README.
import { mostInWindow, type EndpointStats, type LoadSummary, type PhaseResult } from '../model/summary.ts';
import { incompleteReason, verdictReasons } from '../model/reasons.ts';

const pct = (x: number) => `${Math.round(x * 100)}%`;
const rps = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const ms = (x: number | undefined) => (x === undefined ? '-' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const secs = (x: number) => `${+(x / 1000).toFixed(1)} s`;

function row(cells: string[], widths: number[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
}

function phaseTable(p: PhaseResult, limitRps: number): string {
  const shareFrom = p.fromRps / limitRps;
  const shareTo = p.toRps / limitRps;
  const what = p.fromRps === p.toRps
    ? `${pct(shareFrom)} of the limit, ${rps(p.fromRps)} req/s for ${secs(p.durationMs)}`
    : `${pct(shareFrom)} → ${pct(shareTo)} of the limit, ${rps(p.fromRps)} → ${rps(p.toRps)} req/s over ${secs(p.durationMs)}`;
  const lag = (p.sendLag ? `, sends late by ${ms(p.sendLag.p99)} ms at p99 and ${ms(p.sendLag.max)} ms at most` : '') +
    (p.connectWait ? `, ${ms(p.connectWait.p99)} ms at p99 waiting for a connection` : '');
  const dropped = p.droppedIterations ? `, ${p.droppedIterations} dropped` : '';
  const header = `${p.name}: ${what} (${p.planned} planned, ${p.sent} sent${dropped}, ${rps(p.achievedRps)} req/s achieved${lag})`;
  const rows: EndpointStats[] = [...p.endpoints.filter((e) => e.count > 0).sort((a, b) => b.count - a.count), p.total];
  // The response time (from the scheduled send) only where the engine measured it: the Node runner.
  const resp = rows.some((e) => e.responseTime);
  const cells = rows.map((e) => [e.operationId, String(e.count), ms(e.latency?.p50), ms(e.latency?.p95), ms(e.latency?.p99),
    ...(resp ? [ms(e.responseTime?.p99)] : []), String(e.errors), String(e.rateLimited)]);
  const head = ['endpoint', 'count', 'p50 ms', 'p95 ms', 'p99 ms', ...(resp ? ['resp p99'] : []), 'errors', '429s'];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const lines = [header, row(head, widths), ...cells.slice(0, -1).map((c) => row(c, widths)), row(cells[cells.length - 1], widths)];
  return lines.join('\n');
}

/** The most requests sent in any span of one window (from the timeline), when the run has one. */
export const peakPerWindow = (s: LoadSummary): number | undefined => mostInWindow(s, (p) => p.sent)?.most;

export function onsetLine(s: LoadSummary): string {
  const o = s.onset;
  if (!o.found && s.incomplete) {
    // Of what was sent, never of the ramp's end the run did not reach.
    const peak = peakPerWindow(s);
    return `429s: none in the ${s.incomplete.sent} requests sent (of ${s.incomplete.planned} planned)` +
      (peak !== undefined ? `; at most ${peak} in any ${secs(s.plan.windowMs)} window, ${pct(peak / s.plan.rpm)} of the budget of ${s.plan.rpm}` : '');
  }
  if (!o.found) return `429s: none up to ${pct(s.config.rampTo)} of the limit`;
  const where = [o.operationId ? `first on ${o.operationId}` : '', o.atMs !== undefined ? `${secs(o.atMs)} into the run (${o.phase})` : ''].filter(Boolean).join(', ');
  const scheduled = o.rateFraction !== undefined ? `; scheduled rate then ${pct(o.rateFraction)}` : '';
  return `429s began at ${pct(o.fractionOfLimit ?? 0)} of the limit: ${o.offeredInWindow} requests offered in the ${secs(s.plan.windowMs)} window ` +
    `against a budget of ${s.plan.rpm}${scheduled}${where ? `; ${where}` : ''}`;
}

/** A split run's runners, each as it judged itself (the verdict below is the whole's). */
export function runnerLines(s: LoadSummary): string[] {
  if (!s.runners?.length) return [];
  return [
    `runners: ${s.runners.length} k6 process${s.runners.length > 1 ? 'es' : ''} of one archive; each judged the thresholds on its own samples, the verdict below is the whole run's:`,
    ...s.runners.map((r) => `  runner ${r.index}${r.segment ? ` (segment ${r.segment})` : ' (the whole test)'}: ${r.sent} requests, ` +
      `its own verdict ${r.verdict.toUpperCase()}${r.failed.length ? ` (${r.failed.join(', ')})` : ''}, k6 exit ${r.exitCode}` +
      (r.onsetPct !== undefined ? `, its first 429 at ${+r.onsetPct.toFixed(1)}% by its script` : '')),
  ];
}

export function renderTable(s: LoadSummary): string {
  const window = s.plan.windowMs === 60_000 ? 'minute' : `${secs(s.plan.windowMs)} window`;
  const lines = [
    `load: ${s.tier} tier, ${s.plan.rpm} requests per ${window} (${rps(s.plan.limitRps)} req/s), ${s.engine} engine, ${s.target.baseUrl}${s.target.embedded ? ' (embedded reference)' : ''}`,
    `(latency columns: service time, from the moment each request is written on a connection to its whole answer${s.engine === 'node' ? '; resp p99: response time, from its scheduled send (send lag + connection wait + service time)' : ''})`,
    '',
    ...s.phases.flatMap((p) => [phaseTable(p, s.plan.limitRps), '']),
    onsetLine(s),
  ];
  for (const c of s.checks ?? []) if (c.passes + c.fails) lines.push(`check '${c.name}': ${c.passes} passed, ${c.fails} failed`);
  const failed = s.thresholds.filter((t) => !t.ok);
  lines.push(`thresholds: ${s.thresholds.length - failed.length} passed, ${failed.length} failed`);
  for (const t of failed) lines.push(`  FAILED ${t.id}: ${t.expression}, measured ${t.actual === undefined ? '-' : +t.actual.toFixed(3)}`);
  if (s.aborted) lines.push(`aborted: ${s.aborted}`);
  for (const w of s.warnings) lines.push(`warning: ${w}`);
  lines.push(...runnerLines(s));
  const reasons = s.verdict === 'fail' ? verdictReasons(s) : [];
  if (reasons.length) lines.push('why it failed:', ...reasons.map((r) => `  - ${r}`));
  const none = incompleteReason(s);
  if (s.verdict === 'none' && none) lines.push('why there is no verdict:', `  - ${none}`);
  lines.push(`verdict: ${s.verdict === 'none' ? 'NONE (incomplete run)' : s.verdict.toUpperCase()}`);
  return lines.join('\n');
}
