// JUnit XML for CI systems (GitLab, Jenkins, GitHub test reporters). One <testsuite> per area, one
// <testcase> per check named "[REQ-ID] title" so a CI search by requirement id finds it. The outcome
// mapping follows what CI does with each element:
//   fail    → <failure>: breaks the build (a MUST, or a SHOULD under --strict);
//   warn    → passed, with the warning in <system-out>: a SHOULD must not break CI without --strict;
//   skip, not-run → <skipped message="needs --second-key">;
//   partial (a requirement judged on every response, some of whose operations were not checked) → <skipped>;
//   --require-verified adds one testcase, failed when a MUST requirement was not fully verified;
//   error   → <error>: a fault of the suite, which CI shows apart from failures;
//   a failure accepted by --known-failures → <skipped message="known failure …">, the failure in <system-out>.
// The failure text is renderFailure's, uncoloured, so a CI log reads like the terminal. A testcase's
// name never carries a count or an id of the run, and two runs list the same testcases: CI tracks
// tests across runs by their names. So a requirement judged on every response (ENV-*, CONTRACT-*) is
// one testcase, whatever operations the run happened to reach (the generated area's seed moves
// them); its failure lists the operations that broke it.
import { PER_RESPONSE } from '../../contract/requirements.ts';
import { unverifiedMust, type CheckResult, type RequirementResult, type RunResult } from '../results/results.ts';
import { OUTCOME_LABEL } from './verdict.ts';
import { nameOf } from './failure-view.ts';
import { renderFailure as renderText, type TextOptions } from './terminal.ts';
import { firstLine, safe } from './text.ts';
import { knownLabel } from '../results/known-failures.ts';

/** Characters XML 1.0 forbids even as references (C0 controls but tab/LF/CR, lone surrogates, U+FFFE/U+FFFF): dropped. */
const INVALID_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function xmlText(value: string): string {
  return value.replace(INVALID_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Attribute values also escape quotes, and line breaks as references, which parsers would otherwise fold to spaces. */
export function xmlAttr(value: string): string {
  return xmlText(value).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** A testcase: a check, or a per-response requirement standing for its rows (`rows`, one per operation). */
interface Case { check: CheckResult; rows?: CheckResult[] }

/** The checks as testcases, the rows of each per-response requirement folded into one, in the checks' order. */
function casesOf(result: RunResult): Case[] {
  const cases: Case[] = [];
  const folded = new Map<string, CheckResult[]>();
  for (const c of result.checks) {
    const id = c.requirementIds.length === 1 && PER_RESPONSE.includes(c.requirementIds[0]) && (c.area === 'envelope' || c.area === 'contract') ? c.requirementIds[0] : undefined;
    if (id) folded.set(id, [...(folded.get(id) ?? []), c]);
    else cases.push({ check: c });
  }
  // Every per-response requirement is a testcase, checked or not: the same list in every run.
  for (const q of result.requirements.filter((r) => PER_RESPONSE.includes(r.id))) {
    const rows = folded.get(q.id) ?? [];
    // Rows a known failure accepts are not the requirement's failure, unless it is accepted whole.
    const broken = rows.filter((r) => (r.outcome === 'fail' || r.outcome === 'warn') && (q.known || !r.known));
    const checked = rows.filter((r) => r.responses !== undefined).map((r) => `${r.operations[0]} (${r.responses})`);
    cases.push({
      rows: broken,
      check: {
        id: q.id, area: q.area, title: q.title, requirementIds: [q.id], level: q.level, outcome: q.outcome, known: q.known,
        reason: q.outcome === 'not-run' ? rows.find((r) => r.reason)?.reason ?? 'no response was checked'
          : `answers checked, by operation: ${checked.join(', ')}${q.outcome === 'partial' ? `; not checked: ${unverifiedOf(q)}` : ''}`,
        failure: broken[0]?.failure, operations: rows.flatMap((r) => r.operations), durationMs: 0,
      },
    });
  }
  return cases;
}

function testcase({ check, rows }: Case, options: TextOptions): string {
  const open = `    <testcase name="${xmlAttr(nameOf(check))}" classname="${xmlAttr(check.area)}" time="${seconds(check.durationMs)}"`;
  const broke = rows?.length ? ` (on ${rows.map((r) => r.operations[0]).join(', ')})` : '';
  const why = () => firstLine(safe(check.failure?.message ?? check.reason ?? check.outcome)) + broke;
  // A per-response requirement's text: each operation's failure, as the terminal shows it.
  const renderFailure = (c: CheckResult) => (rows?.length ? rows.map((r) => renderText(r, options)).join('\n\n') : renderText(c, options));
  if (check.known) {
    const k = check.known;
    return `${open}>\n      <skipped message="${xmlAttr(`known failure of ${knownLabel(k)}, accepted until ${k.expires}: ${safe(k.reason)}`)}"/>\n      <system-out>${xmlText(renderFailure(check))}</system-out>\n    </testcase>`;
  }
  switch (check.outcome) {
    case 'pass':
      return rows ? `${open}>\n      <system-out>${xmlText(check.reason ?? '')}</system-out>\n    </testcase>` : `${open}/>`;
    case 'fail':
      return `${open}>\n      <failure message="${xmlAttr(why())}" type="${xmlAttr(`${check.level} ${(check.failure?.requirementIds ?? check.requirementIds).join(' ')}`.trim())}">${xmlText(renderFailure(check))}</failure>\n    </testcase>`;
    case 'warn':
      return `${open}>\n      <system-out>${xmlText(`SHOULD warning (passes without --strict):\n${renderFailure(check)}`)}</system-out>\n    </testcase>`;
    case 'partial':
      return `${open}>\n      <skipped message="${xmlAttr(`partly verified: ${safe(check.reason ?? '')}`)}"/>\n    </testcase>`;
    case 'skip':
    case 'not-run':
      return `${open}>\n      <skipped message="${xmlAttr(`${check.outcome === 'not-run' ? 'not run' : 'skipped'}: ${safe(check.reason ?? 'no reason recorded')}`)}"/>\n    </testcase>`;
    case 'error':
      return `${open}>\n      <error message="${xmlAttr(why())}" type="suite error">${xmlText(renderFailure(check))}</error>\n    </testcase>`;
  }
}

/**
 * The run itself, as one failed testcase, when it did not run to its end: a CI that counts failures
 * must not read a stopped run (its unfinished checks skipped) or a run that never started as green.
 */
function runCase(result: RunResult): Case | undefined {
  const why = result.notStarted ? `the run did not start: ${result.notStarted}` : result.stopped ? `the run stopped before its end: ${result.stopped}` : undefined;
  if (!why) return undefined;
  const notRun = result.checks.filter((c) => c.outcome === 'not-run').length;
  const message = result.notStarted ? why : `${why}; ${notRun} of ${result.checks.length} checks not run`;
  return {
    check: {
      id: 'run', area: 'run', title: result.notStarted ? 'the target could be checked' : 'the run ran to its end', requirementIds: [], level: 'MUST',
      outcome: 'fail', operations: [], durationMs: result.durationMs,
      failure: { requirementIds: [], title: message, message, culprit: 'target' },
    },
  };
}

/** The checks of a requirement that did not run, and why (`GEN-1 generated requests: cut off after 3 of 40 runs`). */
const unverifiedOf = (q: RequirementResult) => (q.unverified ?? []).map((u) => `${u.check} (${u.reason})`).join('; ');

/**
 * With --require-verified, one testcase whatever the run found (the same name in every run): failed
 * when a MUST requirement was not fully verified, naming each with the checks that did not run.
 */
function verifiedCase(result: RunResult): Case | undefined {
  if (!result.requireVerified || result.notStarted) return undefined;
  const open = unverifiedMust(result.requirements);
  const title = `${open.length} MUST requirement(s) not fully verified`;
  const message = [title, ...open.map((q) => `${q.id} ${OUTCOME_LABEL[q.outcome]}: ${unverifiedOf(q) || q.checks.join('; ')}`)].join('\n');
  return {
    check: {
      id: 'run', area: 'run', title: 'every MUST requirement fully verified (--require-verified)', requirementIds: [], level: 'MUST',
      outcome: open.length ? 'fail' : 'pass', operations: [], durationMs: 0,
      failure: open.length ? { requirementIds: [], title, message, culprit: 'target' } : undefined,
    },
  };
}

export function renderJUnit(result: RunResult): string {
  const areas = new Map<string, Case[]>();
  const run = runCase(result);
  const verified = verifiedCase(result);
  for (const c of [...(run ? [run] : []), ...(verified ? [verified] : []), ...casesOf(result)]) areas.set(c.check.area, [...(areas.get(c.check.area) ?? []), c]);
  const tally = (cases: Case[], list = cases.map((c) => c.check)) => ({
    tests: list.length,
    failures: list.filter((c) => c.outcome === 'fail' && !c.known).length,
    errors: list.filter((c) => c.outcome === 'error').length,
    skipped: list.filter((c) => c.outcome === 'skip' || c.outcome === 'not-run' || c.outcome === 'partial' || c.known).length,
    time: seconds(list.reduce((ms, c) => ms + c.durationMs, 0)),
  });
  const attrs = (t: ReturnType<typeof tally>) => `tests="${t.tests}" failures="${t.failures}" errors="${t.errors}" skipped="${t.skipped}" time="${t.time}"`;
  // Properties repeat in each suite: the schema puts them there, and CI tools show them per suite.
  const properties = [
    ['runId', result.runId], ['target', safe(result.target.baseUrl)], ['embedded', String(result.target.embedded)], ['tool', result.tool],
    ...(result.seed !== undefined ? [['seed', String(result.seed)]] : []),
  ].map(([name, value]) => `      <property name="${xmlAttr(name)}" value="${xmlAttr(value)}"/>`).join('\n');
  const suites = [...areas].map(([area, list]) => [
    `  <testsuite name="${xmlAttr(area)}" ${attrs(tally(list))} timestamp="${xmlAttr(result.startedAt)}">`,
    `    <properties>\n${properties}\n    </properties>`,
    ...list.map((c) => testcase(c, { kept: result.config.keep === true })),
    '  </testsuite>',
  ].join('\n'));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlAttr(result.tool)}" ${attrs({ ...tally([...areas.values()].flat()), time: seconds(result.durationMs) })}>`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
