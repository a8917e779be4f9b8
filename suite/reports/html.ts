// One HTML page for people: opened from a CI artifact or mailed around, so it is self-contained (inline
// CSS, no script, no external asset) and works offline. Much of what it shows comes from the deployment
// under test, so every value goes through esc(); the Content-Security-Policy forbids scripts and remote
// loads as a second line of defence should an escape ever be missed.
import type { CheckResult, Outcome, RunResult } from '../results/results.ts';
import { PER_RESPONSE } from '../../contract/requirements.ts';
import { failureView, foldedWhy, idsLabel, MARK, nameOf, type ViewOptions } from './failure-view.ts';
import { groupByCause, type CauseGroup } from './causes.ts';
import { knownFailureLines } from './known.ts';
import { count, LEVELS, OUTCOME_LABEL, OUTCOMES, total, verdict } from './verdict.ts';
import { firstLine, formatDuration, plural, safe } from './text.ts';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes for text and quoted attribute values alike; keys redacted and controls made visible first. */
export const esc = (value: unknown): string => safe(String(value ?? '')).replace(/[&<>"']/g, (c) => ENTITIES[c]);

const badge = (o: Outcome) => `<span class="badge ${o}">${OUTCOME_LABEL[o]}</span>`;
/** Anchors are derived from positions, never from untrusted text, so they need no escaping rules of their own. */
const checkAnchor = (index: number) => `check-${index}`;

const CSS = `
:root { font-family: system-ui, sans-serif; color: #1d1d1f; background: #fff; }
body { margin: 0 auto; max-width: 72rem; padding: 1rem 1.5rem 3rem; line-height: 1.4; }
h1 { font-size: 1.4rem; margin: .2rem 0; } h2 { font-size: 1.15rem; margin-top: 2rem; border-bottom: 1px solid #ddd; }
.verdict { padding: .8rem 1rem; border-radius: 6px; font-weight: 600; font-size: 1.1rem; }
.verdict.pass { background: #e6f4ea; border-left: 6px solid #1e8e3e; } .verdict.fail { background: #fce8e6; border-left: 6px solid #d93025; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .1rem 1rem; } dl.facts dt { font-weight: 600; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; margin: .5rem 0; }
th, td { border: 1px solid #ddd; padding: .3rem .5rem; text-align: left; vertical-align: top; }
th { background: #f5f5f7; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.area th { background: #eef; text-transform: uppercase; letter-spacing: .05em; }
.badge { display: inline-block; padding: 0 .45rem; border-radius: 4px; font-size: .8rem; font-weight: 600; white-space: nowrap; }
.badge.pass { background: #e6f4ea; color: #137333; } .badge.fail { background: #fce8e6; color: #a50e0e; }
.badge.warn { background: #fef7e0; color: #8a5a00; } .badge.error { background: #f3e8fd; color: #681da8; }
.badge.skip, .badge.not-run { background: #f1f3f4; color: #5f6368; } .badge.partial { background: #fef7e0; color: #5f6368; }
q, blockquote { color: #444; font-style: italic; } ul.checks { margin: 0; padding-left: 1.1rem; }
pre { background: #f6f8fa; padding: .6rem; overflow-x: auto; white-space: pre-wrap; word-break: break-word; font-size: .82rem; }
.failure { border: 1px solid #ddd; border-left: 6px solid #d93025; border-radius: 6px; padding: .5rem 1rem; margin: 1rem 0; }
.failure.warn { border-left-color: #f9ab00; } .failure.error { border-left-color: #9334e6; }
.failure h3 { font-size: 1rem; margin: .3rem 0; } .label { font-weight: 600; }
.failure, .matrix td { overflow-wrap: anywhere; }
.matrix td.id { white-space: nowrap; overflow-wrap: normal; }
.muted { color: #5f6368; }
.cause { margin: 1rem 0 2rem; } .cause > .also, .cause > details { margin-left: 1.2rem; }
details > summary { cursor: pointer; font-weight: 600; } ul.folded { list-style: none; padding-left: .5rem; }
ul.known { list-style: none; padding-left: 0; } .known .bad { color: #a50e0e; } .known .fixed { color: #137333; }
@media print { .failure { break-inside: avoid; } }
`;

function renderFailureHtml(check: CheckResult, index: number, options: ViewOptions = {}): string {
  const v = failureView(check, options);
  const parts = [`<h3>${esc(v.mark)} ${esc(v.heading)}</h3>`];
  if (v.expected !== undefined) parts.push(`<div class="label">Expected</div><pre>${esc(v.expected)}</pre>`);
  if (v.received !== undefined) parts.push(`<div class="label">Received</div><pre>${esc(v.received)}</pre>`);
  if (v.message) parts.push(`<pre>${esc(v.message)}</pre>`);
  if (v.response) {
    const r = v.response;
    const headers = r.headers.map(([k, val]) => `${k}: ${val}`).join('\n');
    parts.push(`<div class="label">Response: ${esc(r.request)} → ${esc(r.status)} <span class="muted">(${esc(formatDuration(r.durationMs))})</span></div>`,
      `<pre>${esc(headers ? `${headers}\n\n${r.body}` : r.body)}</pre>`);
  } else if (check.failure) {
    parts.push('<p class="muted">Response: none recorded for this check.</p>');
  }
  if (v.curl) parts.push(`<div class="label">Reproduce with:</div><pre>${v.setup ? `${esc(`# ${v.setup.note}\n${v.setup.curl ? `${v.setup.curl}\n` : ''}`)}` : ''}${esc(v.curl)}</pre>`);
  return `<section class="failure ${check.outcome}" id="${checkAnchor(index)}">\n${parts.join('\n')}\n</section>`;
}

/** A cause in full, the other operations it broke on, and the checks it broke folded under it. */
function renderGroupHtml(g: CauseGroup, index: ReadonlyMap<CheckResult, number>, options: ViewOptions): string {
  const [first, ...others] = g.rows;
  const parts = [renderFailureHtml(first, index.get(first)!, options)];
  if (others.length) parts.push(`<p class="also"><span class="label">Also on:</span> ${others.map((r) => esc(`${r.operations[0] ?? r.title}${r.responses === undefined ? '' : ` (${plural(r.responses, 'response')})`}`)).join(', ')}</p>`);
  if (g.consequences.length) {
    const lines = g.consequences.map((c) => `<li><a href="#check-${index.get(c)}">${esc(`${MARK[c.outcome]} ${nameOf(c)}`)}</a> <span class="muted">(${esc(c.area)})${c.failure ? `: ${esc(firstLine(foldedWhy(c), 160))}` : ''}</span></li>`);
    parts.push(`<p class="also"><span class="label">Checks it broke (${g.consequences.length}):</span> each failed on an answer that had already broken ${esc(g.requirementId)}</p>`,
      `<ul class="folded also">${lines.join('')}</ul>`,
      `<details><summary>Their failures in full (${g.consequences.length})</summary>`, ...g.consequences.map((c) => renderFailureHtml(c, index.get(c)!, options)), '</details>');
  }
  return `<div class="cause">\n${parts.join('\n')}\n</div>`;
}

function countsTable(result: RunResult): string {
  const head = `<tr><th>Requirements</th>${OUTCOMES.map((o) => `<th>${badge(o)}</th>`).join('')}<th>total</th></tr>`;
  const rows = LEVELS.map((level) => `<tr><th>${level}</th>${OUTCOMES.map((o) => `<td class="num">${count(result, level, o)}</td>`).join('')}<td class="num">${total(result, level)}</td></tr>`);
  return `<table class="counts">${head}${rows.join('')}</table>`;
}

function matrix(result: RunResult, anchors: Map<string, number>): string {
  // A reason many requirements share instead of a check (a stopped run, `--only`) is said once, above
  // the table, not in every row (a stopped run repeated it in 77).
  const reasonOf = (q: RunResult['requirements'][number]) => (q.checks.length === 1 && !anchors.has(q.checks[0]) ? q.checks[0] : undefined);
  const counts = new Map<string, number>();
  for (const q of result.requirements) { const r = reasonOf(q); if (r) counts.set(r, (counts.get(r) ?? 0) + 1); }
  const shared = new Set([...counts].filter(([, n]) => n >= 3).map(([r]) => r));
  const notes = [...shared].map((r) => `<p class="muted">${plural(counts.get(r)!, 'requirement')}: ${esc(r)} (— below)</p>`).join('\n');
  const areas = new Map<string, RunResult['requirements']>();
  for (const q of result.requirements) areas.set(q.area, [...(areas.get(q.area) ?? []), q]);
  const rows = [...areas].map(([area, list]) => [
    `<tr class="area"><th colspan="6">${esc(area)}</th></tr>`,
    ...list.map((q) => {
      const item = (id: string) => (anchors.has(id) ? `<li><a href="#${checkAnchor(anchors.get(id)!)}">${esc(id)}</a></li>` : `<li>${esc(id)}</li>`);
      let checks = shared.has(reasonOf(q) ?? '') ? ['<li class="muted">—</li>'] : q.checks.map(item);
      if (PER_RESPONSE.includes(q.id)) {
        // A requirement checked on every response has a row per operation: those that broke it are
        // linked, the others folded into one line (forty links a row made the page 14,000 px long).
        const rows = q.checks.map((id) => ({ id, check: anchors.has(id) ? result.checks[anchors.get(id)!] : undefined }));
        const broke = rows.filter((r) => r.check && r.check.outcome !== 'pass');
        const held = rows.filter((r) => r.check?.outcome === 'pass').map((r) => r.check!.operations[0] ?? r.id);
        checks = [...broke.map((r) => item(r.id)), ...rows.filter((r) => !r.check).map((r) => item(r.id))];
        if (held.length) checks.push(`<li><details><summary>holds on ${plural(held.length, 'operation')}</summary>${esc(held.join(', '))}</details></li>`);
      }
      return `<tr id="req-${esc(q.id)}"><td class="id">${esc(q.id)}</td><td>${esc(q.level)}</td><td>${esc(q.title)}</td><td>${badge(q.outcome)}</td><td><q>${esc(q.clause)}</q></td><td><ul class="checks">${checks.join('')}</ul></td></tr>`;
    }),
  ].join('\n'));
  return `${notes}<table class="matrix"><tr><th>id</th><th>level</th><th>requirement</th><th>outcome</th><th>clause of SPEC.md</th><th>checks</th></tr>\n${rows.join('\n')}\n</table>`;
}

function coverageTable(result: RunResult): string {
  const rows = result.coverage.map((c) => {
    const outcomes = OUTCOMES.filter((o) => c.outcomes[o]).map((o) => `${badge(o)} ${c.outcomes[o]}`).join(' ');
    return `<tr><td>${esc(c.operationId)}</td><td>${esc(c.method)}</td><td>${esc(c.path)}</td><td class="num">${c.requests}</td><td>${outcomes || '<span class="muted">not exercised</span>'}</td></tr>`;
  });
  return `<table class="coverage"><tr><th>operationId</th><th>method</th><th>path</th><th>requests</th><th>checks by outcome</th></tr>\n${rows.join('\n')}\n</table>`;
}

function notRunList(checks: CheckResult[]): string {
  const groups = new Map<string, CheckResult[]>();
  for (const c of checks) {
    const reason = c.reason ?? '(no reason recorded)';
    groups.set(reason, [...(groups.get(reason) ?? []), c]);
  }
  return [...groups].map(([reason, list]) =>
    `<h3>${esc(reason)} <span class="muted">(${list.length})</span></h3><ul>${list.map((c) => `<li>${badge(c.outcome)} ${esc(`[${idsLabel(c.requirementIds)}] ${c.title}`)} <span class="muted">(${esc(c.area)})</span></li>`).join('')}</ul>`,
  ).join('\n');
}

/** Each partly verified requirement (linked to its row of the matrix), with the checks of it that did not run and why. */
function partialList(list: RunResult['requirements']): string {
  return `<ul>${list.map((q) => `<li>${badge('partial')} <a href="#req-${esc(q.id)}">${esc(q.id)}</a> (${esc(q.level)}) ${esc(q.title)}<ul>${(q.unverified ?? []).map((u) => `<li>${badge(u.outcome)} ${esc(u.check)}: ${esc(u.reason)}</li>`).join('')}</ul></li>`).join('')}</ul>`;
}

function configTable(config: Record<string, unknown>): string {
  const rows = Object.entries(config).map(([k, v]) => `<tr><th>${esc(k)}</th><td><code>${esc(typeof v === 'string' ? v : JSON.stringify(v))}</code></td></tr>`);
  return rows.length ? `<table class="config">${rows.join('')}</table>` : '<p class="muted">none recorded</p>';
}

export function renderHtml(result: RunResult): string {
  const v = verdict(result);
  const anchors = new Map(result.checks.map((c, i) => [c.id, i] as const));
  const indexed = result.checks.map((c, i) => [c, i] as const);
  const options: ViewOptions = { kept: result.config.keep === true };
  const index = new Map(indexed);
  const section = (outcomes: Outcome[]) => indexed.filter(([c]) => outcomes.includes(c.outcome)).map(([c, i]) => renderFailureHtml(c, i, options));
  // Failures by cause, the cause first (as in the terminal); a SHOULD broken on the same answer goes with it.
  const groups = groupByCause(result.checks.filter((c) => (c.outcome === 'fail' || c.outcome === 'warn') && !c.known));
  const failing = groups.filter((g) => [...g.rows, ...g.consequences].some((c) => c.outcome === 'fail'));
  const failures = failing.map((g) => renderGroupHtml(g, index, options));
  const failedChecks = failing.reduce((n, g) => n + g.rows.length + g.consequences.length, 0);
  const brokenRequirements = result.requirements.filter((q) => q.outcome === 'fail' && !q.known).length;
  const errors = section(['error']);
  const warnings = groups.filter((g) => !failing.includes(g)).flatMap((g) => [...g.rows, ...g.consequences]).map((c) => renderFailureHtml(c, index.get(c)!, options));
  const known = knownFailureLines(result);
  const notRun = result.checks.filter((c) => c.outcome === 'not-run' || c.outcome === 'skip');
  const partial = result.requirements.filter((q) => q.outcome === 'partial');
  const target = `${result.target.baseUrl}${result.target.embedded ? ' (embedded reference)' : ''}`;

  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${esc(v.pass ? 'PASS' : 'FAIL')}: conformance of ${esc(result.target.baseUrl)}</title>
<style>${CSS}</style>
</head>
<body>
<header>
<h1>Simulation Service conformance</h1>
<p class="verdict ${v.pass ? 'pass' : 'fail'}">${esc(v.line)}</p>
<dl class="facts">
<dt>Target</dt><dd>${esc(target)}</dd>
<dt>Run</dt><dd>${esc(result.runId)}</dd>
${result.seed !== undefined ? `<dt>Seed</dt><dd>${result.seed} <span class="muted">(--seed ${result.seed} repeats the generated requests)</span></dd>` : ''}
<dt>Started</dt><dd>${esc(result.startedAt)}</dd>
<dt>Duration</dt><dd>${esc(formatDuration(result.durationMs))}</dd>
<dt>Requests</dt><dd>${result.requestCount}</dd>
<dt>Checks</dt><dd>${result.checks.length}</dd>
<dt>Tool</dt><dd>${esc(result.tool)}</dd>
</dl>
</header>
<main>
<h2>Summary</h2>
${countsTable(result)}
<h2>Failures: ${plural(brokenRequirements, 'requirement')} broken, in ${plural(failedChecks, 'check')}, from ${plural(failures.length, 'cause')}</h2>
${failures.join('\n') || '<p class="muted">none</p>'}
${known.length ? `<h2>Known failures (--known-failures)</h2>\n<ul class="known">${known.map((l) => `<li class="${l.tone}">${esc(l.text)}</li>`).join('')}</ul>` : ''}
${errors.length ? `<h2>Errors (${errors.length}): faults of the suite, not counted against the target</h2>\n${errors.join('\n')}` : ''}
<h2>Warnings (${warnings.length}): SHOULD requirements; --strict makes them fail</h2>
${warnings.join('\n') || '<p class="muted">none</p>'}
<h2>Requirement matrix</h2>
${matrix(result, anchors)}
${partial.length ? `<h2>Partly verified (${partial.length}): requirements some checks of which did not run</h2>\n${partialList(partial)}` : ''}
<h2>Not run and skipped (${notRun.length})</h2>
${notRunList(notRun) || '<p class="muted">none</p>'}
<h2>Endpoint coverage</h2>
${coverageTable(result)}
<h2>Drift between the served and the bundled contract (${result.drift.length})</h2>
${result.drift.length ? `<ul>${result.drift.map((d) => `<li>${esc(d)}</li>`).join('')}</ul>` : '<p class="muted">none</p>'}
<h2>Effective configuration</h2>
${configTable(result.config)}
</main>
</body>
</html>
`;
}
