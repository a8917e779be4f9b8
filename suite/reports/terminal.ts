// The text a person reads at the end of a run, and the one rendering of a failure used wherever text
// is shown (terminal, JUnit). Plain text first: it must read the same in a CI log, a file or a pipe.
// Colour only adds emphasis when the caller says the output is a terminal; no meaning rests on it.
import type { CheckResult, Outcome, RequirementResult, RunResult } from '../results/results.ts';
import { failureView, foldedWhy, MARK, nameOf, type ViewOptions } from './failure-view.ts';
import { count, LEVELS, OUTCOME_LABEL, OUTCOMES, total, verdict } from './verdict.ts';
import { firstLine, formatDuration, indent, plural, safe } from './text.ts';
import { groupByCause, type CauseGroup } from './causes.ts';
import { acceptanceOf, acceptanceYaml } from './accept.ts';
import { knownFailureLines } from './known.ts';

export interface TextOptions extends ViewOptions {
  /** ANSI colour: only when writing to a terminal that wants it (the CLI decides: isTTY, NO_COLOR). */
  color?: boolean;
}

export interface SummaryOptions extends TextOptions {
  /** Where writeReports put the files; the RunResult does not know it, the caller does. */
  paths?: { junit: string; json: string; html: string };
}

type Paint = (code: string, text: string) => string;
const painter = (color: boolean | undefined): Paint => (color ? (code, text) => `\u001b[${code}m${text}\u001b[0m` : (_code, text) => text);
const TONE: Record<Outcome, string> = { pass: '32', fail: '31', warn: '33', partial: '33', skip: '2', 'not-run': '2', error: '35' };

/** A labelled value: on the label's line when it is one line, below it, indented, when it is several. */
function labelled(label: string, value: string, paint: Paint, tone: string): string {
  return value.includes('\n') ? `${paint('1', label)}\n${indent(paint(tone, value), '  ')}` : `${paint('1', label)} ${paint(tone, value)}`;
}

export function renderFailure(check: CheckResult, options: TextOptions = {}): string {
  const paint = painter(options.color);
  const v = failureView(check, options);
  const lines: string[] = [paint(`1;${TONE[v.outcome]}`, `${v.mark} ${v.heading}`)];
  const body: string[] = [];
  if (v.expected !== undefined) body.push(labelled('Expected:', v.expected, paint, '32'));
  if (v.received !== undefined) body.push(labelled('Received:', v.received, paint, '31'));
  if (v.message) body.push(v.message);
  if (v.response) {
    const r = v.response;
    body.push(`${paint('1', 'Response:')} ${r.request} → ${paint('1', r.status)} (${formatDuration(r.durationMs)})`);
    body.push(indent([...r.headers.map(([k, val]) => paint('2', `${k}: ${val}`)), r.body].join('\n'), '  '));
  } else if (check.failure) {
    body.push(paint('2', 'Response: none recorded for this check'));
  }
  // The curl stays uncoloured so it can be copied as is.
  if (v.curl) body.push(`${paint('1', 'Reproduce with:')}\n${v.setup ? `  # ${v.setup.note}\n${v.setup.curl ? `  ${v.setup.curl}\n` : ''}` : ''}  ${v.curl}`);
  lines.push(indent(body.join('\n'), '  '));
  return lines.join('\n');
}

/** One line for a check folded under its cause: what it is, and the first line of its failure. */
function renderFolded(check: CheckResult, paint: Paint): string {
  const why = check.failure ? `: ${firstLine(safe(foldedWhy(check)), 120)}` : '';
  return paint(TONE[check.outcome], `    ${MARK[check.outcome]} ${nameOf(check)} (${check.area})`) + paint('2', why);
}

/** A cause in full (its first row), the other operations it broke on, and the checks it broke, one line each. */
function renderGroup(g: CauseGroup, options: TextOptions, paint: Paint): string {
  const [first, ...others] = g.rows;
  const lines = [renderFailure(first, options)];
  if (others.length) lines.push(`  ${paint('1', 'Also on:')} ${others.map((r) => `${safe(r.operations[0] ?? r.title)}${r.responses === undefined ? '' : ` (${plural(r.responses, 'response')})`}`).join(', ')}`);
  if (g.consequences.length) {
    lines.push(`  ${paint('1', `Checks it broke (${g.consequences.length}):`)} ${paint('2', `each failed on an answer that had already broken ${g.requirementId}; the cause is above`)}`);
    lines.push(...g.consequences.map((c) => renderFolded(c, paint)));
  }
  return lines.join('\n');
}

/** Most entries offered for one cause: past that, accepting it is no small exception. */
const MOST_OFFERED = 8;

/** The known-failure entries that would accept the cause's failures, to paste (suite/reports/accept.ts). */
function acceptLines(g: CauseGroup, startedAt: string, paint: Paint): string {
  const entries = acceptanceOf([...g.rows, ...g.consequences].filter((c) => c.outcome === 'fail'));
  if (!entries.length) return '';
  if (entries.length > MOST_OFFERED) return `\n  ${paint('1', 'To accept it for a while:')} ${paint('2', `${entries.length} entries of --known-failures (by requirement, operation and member); results.json lists the failures`)}`;
  return `\n  ${paint('1', `To accept it for a while, in the --known-failures file (${plural(entries.length, 'entry', 'entries')}):`)}\n${indent(acceptanceYaml(entries, startedAt), '    ')}`;
}

/** A warning in two lines: what and why. The full rendering is in the HTML and JUnit reports. */
function renderWarning(check: CheckResult, paint: Paint): string {
  const f = check.failure;
  const expected = f?.expected === undefined ? '' : firstLine(safe(f.expected), 80);
  const received = f?.received === undefined ? '' : firstLine(safe(f.received), 80);
  const why = expected && received ? `expected ${expected}, received ${received}` : firstLine(safe(f?.message ?? f?.received ?? check.reason ?? ''));
  return `  ${paint(TONE.warn, `${MARK.warn} ${nameOf(check)} (${check.area})`)}${why ? `\n      ${why}` : ''}`;
}

/**
 * Not-run checks grouped by what would enable them ("needs --second-key"), so one flag answers a group.
 * Checks whose setup failed are counted by area only: the setup is among the failures, their cause.
 */
function renderNotRun(checks: CheckResult[], paint: Paint): string {
  const groups = new Map<string, CheckResult[]>();
  for (const c of checks) {
    const reason = safe(c.reason ?? '(no reason recorded)');
    groups.set(reason, [...(groups.get(reason) ?? []), c]);
  }
  return [...groups].map(([reason, list]) => {
    if (reason.startsWith('setup failed')) {
      const areas = [...new Set(list.map((c) => c.area))];
      return `  ${reason} (${list.length}): ${paint('2', `the checks of ${areas.join(', ')}; the setups are among the failures above`)}`;
    }
    return [`  ${reason} (${list.length}):`, ...list.map((c) => paint('2', `    ${MARK[c.outcome]} ${nameOf(c)} (${c.area})`))].join('\n');
  }).join('\n');
}

/** Each partly verified requirement, with the checks of it that did not run and why. */
function renderPartial(list: RequirementResult[], paint: Paint): string {
  return list.map((q) => [
    `  ${paint(TONE.partial, `${MARK.partial} ${q.id} (${q.level})`)} ${safe(q.title)}`,
    ...(q.unverified ?? []).map((u) => paint('2', `    ${MARK[u.outcome]} ${safe(u.check)}: ${safe(u.reason)}`)),
  ].join('\n')).join('\n');
}

/**
 * Requirements that no check of this run covered. The model marks them with a placeholder in `checks`
 * ('area not selected (--only)', 'no check ran'); the latter, in a selected area, is a coverage gap
 * of the suite, so it lists every id, while a deselected area is only counted.
 */
function renderUncovered(result: RunResult, paint: Paint): string {
  const ran = new Set(result.checks.map((c) => c.id));
  const groups = new Map<string, string[]>();
  for (const q of result.requirements) {
    if (q.outcome !== 'not-run' || q.checks.some((id) => ran.has(id))) continue;
    const why = safe(q.checks[0] ?? 'no check ran');
    groups.set(why, [...(groups.get(why) ?? []), q.id]);
  }
  return [...groups].map(([why, ids]) => {
    const shown = why.includes('--only') && ids.length > 8 ? `${ids.slice(0, 8).join(', ')}, …` : ids.join(', ');
    return `  ${why}: ${plural(ids.length, 'requirement')}\n${paint('2', `    ${shown}`)}`;
  }).join('\n');
}

function renderTable(result: RunResult, paint: Paint): string {
  const head = ['Requirements', ...OUTCOMES.map((o) => OUTCOME_LABEL[o]), 'total'];
  const rows = LEVELS.map((level) => [level, ...OUTCOMES.map((o) => String(count(result, level, o))), String(total(result, level))]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const pad = (cell: string, i: number) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]));
  // Pad first, paint after, so escape codes never upset the alignment; colour only a non-zero fail, warn or error.
  const tone = (cell: string, i: number) => {
    const outcome = OUTCOMES[i - 1];
    return outcome && cell.trim() !== '0' && (outcome === 'fail' || outcome === 'warn' || outcome === 'error') ? paint(TONE[outcome], cell) : cell;
  };
  return [paint('1', head.map(pad).join('  ')), ...rows.map((r) => r.map((c, i) => tone(pad(c, i), i)).join('  '))].join('\n');
}

export function renderSummary(result: RunResult, options: SummaryOptions = {}): string {
  options = { kept: result.config.keep === true, ...options };
  const paint = painter(options.color);
  const by = (o: Outcome) => result.checks.filter((c) => c.outcome === o);
  const out: string[] = [];
  const section = (title: string, text: string) => out.push(`${paint('1', title)}\n\n${text}`);

  // Failures by cause, the cause first; a SHOULD broken on an answer a failure broke goes with it.
  const groups = groupByCause(result.checks.filter((c) => (c.outcome === 'fail' || c.outcome === 'warn') && !c.known));
  const failing = groups.filter((g) => [...g.rows, ...g.consequences].some((c) => c.outcome === 'fail'));
  if (failing.length) {
    const checks = failing.reduce((n, g) => n + g.rows.length + g.consequences.length, 0);
    const broken = result.requirements.filter((q) => q.outcome === 'fail' && !q.known).length;
    section(`Failures: ${plural(broken, 'requirement')} broken, in ${plural(checks, 'check')}, from ${plural(failing.length, 'cause')}`, failing.map((g) => renderGroup(g, options, paint) + acceptLines(g, result.startedAt, paint)).join('\n\n'));
  }
  const errors = by('error');
  if (errors.length) {
    section(`Errors (${errors.length}): faults of the suite, not counted against the target`, errors.map((c) => renderFailure(c, options)).join('\n\n'));
  }
  const warnings = groups.filter((g) => !failing.includes(g)).flatMap((g) => [...g.rows, ...g.consequences]);
  if (warnings.length) section(`Warnings (${warnings.length}): SHOULD requirements; --strict makes them fail`, warnings.map((c) => renderWarning(c, paint)).join('\n'));
  const known = knownFailureLines(result);
  if (known.length) section('Known failures (--known-failures)', known.map((l) => `  ${paint(l.tone === 'bad' ? TONE.fail : l.tone === 'fixed' ? TONE.pass : TONE.skip, l.text)}`).join('\n'));
  const notRun = by('not-run');
  if (notRun.length) section(`Not run (${notRun.length}), by what would enable them`, renderNotRun(notRun, paint));
  const partial = result.requirements.filter((q) => q.outcome === 'partial');
  if (partial.length) section(`Partly verified (${partial.length}): requirements some checks of which did not run; no pass (--require-verified fails a MUST among them)`, renderPartial(partial, paint));
  const uncovered = renderUncovered(result, paint);
  if (uncovered) section('Requirements no check verified in this run', uncovered);
  const skipped = by('skip');
  if (skipped.length) section(`Skipped (${skipped.length}): the target lacks an optional feature`, renderNotRun(skipped, paint));

  const target = `${safe(result.target.baseUrl)}${result.target.embedded ? ' (embedded reference)' : ''}`;
  const facts = [
    renderTable(result, paint),
    '',
    `Checks:   ${result.checks.length}, ${plural(result.requestCount, 'request')} in ${formatDuration(result.durationMs)}`,
    `Target:   ${target}`,
    `Run:      ${safe(result.runId)}`,
    ...(result.seed !== undefined ? [`Seed:     ${result.seed} (--seed ${result.seed} repeats the generated requests)`] : []),
  ];
  // Not the service's answers, so not judged; said once, so that a user knows the stack refused some.
  if (result.refusedByStack) facts.push(`Stack:    ${plural(result.refusedByStack.count, 'answer')} refused by the HTTP stack before the service, not judged; the first: ${safe(result.refusedByStack.first)}`);
  if (options.paths) {
    const p = options.paths;
    facts.push(`Reports:  ${p.html}`, `          ${p.junit}`, `          ${p.json}`);
  }
  out.push(facts.join('\n'));
  const v = verdict(result);
  out.push(paint(v.pass ? '1;32' : '1;31', v.line));
  return out.join('\n\n');
}
