// The verdict in one line, shared by the terminal and the HTML page so they never disagree. It follows
// the exit status the run computed (0 when every MUST holds) and then says how much was
// actually verified: "no MUST broken" is weaker than "all MUST hold" when checks did not run or erred.
import type { Level } from '../../contract/requirements.ts';
import { unselectedMust, unverifiedMust, type Outcome, type RequirementResult, type RunResult } from '../results/results.ts';
import { plural } from './text.ts';

/** The columns of every counts table, in the order a reader scans them. */
export const OUTCOMES: Outcome[] = ['pass', 'fail', 'warn', 'partial', 'skip', 'not-run', 'error'];
export const LEVELS: Level[] = ['MUST', 'SHOULD'];
export const OUTCOME_LABEL: Record<Outcome, string> = { pass: 'pass', fail: 'fail', warn: 'warn', partial: 'partly verified', skip: 'skip', 'not-run': 'not run', error: 'error' };

export const count = (result: RunResult, level: Level, outcome: Outcome) => result.summary[level]?.[outcome] ?? 0;
export const total = (result: RunResult, level: Level) => OUTCOMES.reduce((n, o) => n + count(result, level, o), 0);

export interface Verdict { pass: boolean; line: string }

/** Requirements of a level that fail the run: failing, and not accepted by --known-failures. */
const brokenOf = (result: RunResult, level: Level) => result.requirements.filter((q) => q.level === level && q.outcome === 'fail' && !q.known).length;

export function verdict(result: RunResult): Verdict {
  const warnings = result.requirements.filter((q) => q.outcome === 'warn' && !q.known).length;
  const accepted = result.knownFailures?.accepted.length ?? 0;
  const notes = [warnings ? plural(warnings, 'SHOULD warning') : '', accepted ? `${plural(accepted, 'known failure')} accepted` : ''].filter(Boolean);
  const tail = notes.length ? ` (${notes.join('; ')})` : '';
  if (result.notStarted) return { pass: false, line: `NOT RUN: ${result.notStarted}; no check ran, no verdict (exit 2)` };
  if (result.stopped) {
    const must = count(result, 'MUST', 'fail');
    return { pass: false, line: `INCOMPLETE: the run stopped before its end (${result.stopped}); ${must ? `${plural(must, 'MUST requirement')} broken so far, ` : ''}${count(result, 'MUST', 'pass')} of ${total(result, 'MUST')} MUST verified; no verdict (exit 2)${tail}` };
  }
  if (result.exitCode === 2 && result.nothingVerified && !result.checks.some((c) => c.outcome === 'error' && c.level === 'MUST')) {
    return { pass: false, line: `NOTHING VERIFIED: no MUST requirement was checked, so this is no pass (${result.nothingVerified}); no verdict (exit 2)${tail}` };
  }
  if (result.exitCode === 2) {
    const erred = result.checks.filter((c) => c.outcome === 'error' && c.level === 'MUST').length;
    return { pass: false, line: `INCOMPLETE: the suite itself failed in ${plural(erred, 'MUST check')} (see the errors above); no verdict (exit 2)${tail}` };
  }
  const unverified = unverifiedMust(result.requirements);
  if (result.exitCode !== 0) {
    const must = brokenOf(result, 'MUST');
    const should = brokenOf(result, 'SHOULD');
    const parts = [
      must ? `${plural(must, 'MUST requirement')} broken` : '',
      should ? `${plural(should, 'SHOULD requirement')} broken (--strict)` : '',
      result.requireVerified && unverified.length ? `${plural(unverified.length, 'MUST requirement')} not fully verified (--require-verified): ${unverifiedText(unverified)}` : '',
    ].filter(Boolean);
    // The exit status is the authority; if no requirement carries the failure, still say FAIL.
    return { pass: false, line: `FAIL: ${parts.join(', ') || 'a check failed'}${tail}` };
  }
  const all = total(result, 'MUST');
  const held = count(result, 'MUST', 'pass');
  if (held === all) return { pass: true, line: `PASS: all ${all} MUST requirements verified and hold${tail}` };
  const erred = count(result, 'MUST', 'error');
  const notSelected = unselectedMust(result.requirements).length;
  const open = [unverified.length ? unverifiedText(unverified) : '', erred ? `${erred} erred` : '', notSelected ? `${notSelected} not selected (--only)` : ''].filter(Boolean).join(', ');
  const knownMust = result.requirements.filter((q) => q.level === 'MUST' && q.known && q.outcome === 'fail').length;
  const broken = knownMust ? `no MUST requirement broken but ${knownMust === 1 ? 'the known one' : `the ${knownMust} known ones`}; ` : '';
  return { pass: true, line: `PASS: ${broken}${held} of ${all} MUST requirements verified and hold${open ? `; ${open}` : ''}${tail}` };
}

/** `2 partly verified (PERS-5, PROG-4), 1 not run (ISO-1)`: the MUST requirements a pass did not fully verify, by outcome. */
function unverifiedText(list: readonly RequirementResult[]): string {
  const label: Partial<Record<Outcome, string>> = { partial: 'partly verified', 'not-run': 'not run', skip: 'skipped' };
  return (['partial', 'not-run', 'skip'] as const).map((o) => {
    const ids = list.filter((q) => q.outcome === o).map((q) => q.id);
    return ids.length ? `${ids.length} ${label[o]} (${ids.length > 6 ? `${ids.slice(0, 6).join(', ')}, …` : ids.join(', ')})` : '';
  }).filter(Boolean).join(', ');
}
