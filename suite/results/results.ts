// The results of a run as data: checks (one per scenario test, plus one per operation for the
// checks made on every response), requirements with their aggregated outcome, endpoint coverage.
// Every report (terminal, JUnit, JSON, HTML) is rendered from this one structure.
import { mainKeyLimits, type MainKeyPace } from './main-key-limits.ts';
import { PER_RESPONSE, REQUIREMENTS, requirement, type Level, type RequirementId } from '../../contract/requirements.ts';
import type { Failure } from '../data/failure.ts';
import { curlOf, type Exchange } from '../data/exchange.ts';
import { creationAmong, isCreation, plainest } from '../data/plain-exchange.ts';
import type { OpenApiReader } from '../../contract/openapi-reader.ts';
import { selects, type CheckFilter } from '../data/selection.ts';
import { applyKnownFailures, covers, type KnownFailure, type KnownFailureReport } from './known-failures.ts';

/**
 * pass; fail (a MUST broken, or a SHOULD under --strict); warn (a SHOULD broken); skip; not-run; error (a
 * fault of the suite). A requirement is also 'partial' (partly verified): some of its checks passed,
 * others did not run or were cut off, and none failed; a requirement passes only when every check of it
 * ran and passed.
 */
export type Outcome = 'pass' | 'fail' | 'warn' | 'partial' | 'skip' | 'not-run' | 'error';

export type { Failure };

export interface CheckResult {
  /** Stable id: area and title. */
  id: string;
  area: string;
  title: string;
  requirementIds: RequirementId[];
  level: Level;
  outcome: Outcome;
  /** Why it did not run, or what would enable it. */
  reason?: string;
  failure?: Failure;
  operations: string[];
  durationMs: number;
  /** A per-response row: how many responses of the operation the check looked at. */
  responses?: number;
  /** Its failure is charged to accepted known failures only (--known-failures). */
  known?: KnownFailure;
}

export interface RequirementResult {
  id: RequirementId;
  level: Level;
  area: string;
  title: string;
  clause: string;
  outcome: Outcome;
  checks: string[];
  /** Checks of it that did not run or skipped, and why: what keeps a 'partial' (or 'not-run') requirement from a pass. */
  unverified?: Array<{ check: string; outcome: Outcome; reason: string }>;
  /** Failing, and accepted by --known-failures: it does not fail the run. */
  known?: KnownFailure;
  /**
   * False when --only left it out: its checks did not run (or, checked on every response, it rode along
   * with what ran): what it did not verify says nothing of the run, though a failure it saw still counts.
   */
  selected?: false;
}

export interface CoverageRow { operationId: string; method: string; path: string; requests: number; outcomes: Partial<Record<Outcome, number>> }

export interface RunResult {
  tool: string;
  runId: string;
  startedAt: string;
  durationMs: number;
  target: { baseUrl: string; embedded: boolean };
  config: Record<string, unknown>;
  requirements: RequirementResult[];
  checks: CheckResult[];
  coverage: CoverageRow[];
  drift: string[];
  requestCount: number;
  summary: Record<Level, Record<Outcome, number>>;
  exitCode: 0 | 1 | 2;
  /** Whether a broken SHOULD failed the run (--strict): the outcomes above were judged so. */
  strict?: boolean;
  /** --require-verified: a MUST requirement of the run not fully verified (partial, not run, skipped) fails it. */
  requireVerified?: boolean;
  /** Why the run stopped before its end, if it did. */
  stopped?: string;
  /** Set when the run verified no MUST requirement (exit 2, never a pass): the areas it ran and what kept their checks from running. */
  nothingVerified?: string;
  /** What became of the entries of --known-failures, when given. */
  knownFailures?: KnownFailureReport;
  /** Answers the HTTP stack in front of the service gave to requests too large (or paths) for it: not judged (suite/data/stack-limits.ts). */
  refusedByStack?: { count: number; first: string };
  /** Set when the run never reached its checks (a preflight that failed, Ctrl-C before them): the cause. */
  notStarted?: string;
  /** Seed of the generated area (--seed), when it ran: the same seed and --generated repeat its requests. */
  seed?: number;
}

/** What the collector hands over for one finished check (or one failed setup). */
export interface RawCheck {
  area: string;
  title: string;
  requirementIds: RequirementId[];
  state: 'passed' | 'failed' | 'skipped';
  durationMs: number;
  failure?: Failure;
  /** Why it did not run (a missing prerequisite, a failed setup, the deadline). */
  notRun?: string;
  /** A skip the check chose (the target lacks an optional feature), with its note. */
  skipNote?: string;
  /** A note the test runner gave a check that did not run (e.g. a cancelled run). */
  runnerNote?: string;
  exchanges: Exchange[];
}

/** The operation an answer belongs to, as the per-response rows name it. */
const operationKey = (x: Pick<Exchange, 'operationId' | 'method'>) => x.operationId ?? `${x.method} (not an operation)`;
/** The id of a per-response row: the requirement and the operation of the answer. */
export const perResponseCheckId = (requirementId: RequirementId, x: Pick<Exchange, 'operationId' | 'method'>) => `${requirementId} ${operationKey(x)}`;

const ORDER: Outcome[] = ['fail', 'error', 'warn', 'partial', 'pass', 'skip', 'not-run'];
/**
 * A requirement's outcome from what its checks said: broken (or a fault of the suite) when one of them
 * says so; a pass only when every one ran and passed; partly verified when some passed and others did
 * not run; else skipped or not run.
 */
export function judged(outcomes: Outcome[]): Outcome {
  const bad = (['fail', 'error', 'warn'] as const).find((o) => outcomes.includes(o));
  if (bad) return bad;
  if (outcomes.length && outcomes.every((o) => o === 'pass')) return 'pass';
  if (outcomes.includes('pass') || outcomes.includes('partial')) return 'partial';
  return outcomes.includes('skip') ? 'skip' : 'not-run';
}
/** The placeholder of a requirement that --only left out: it is neither verified nor required. */
export const NOT_SELECTED = 'not selected (--only)';
const UNVERIFIED: readonly Outcome[] = ['partial', 'not-run', 'skip'];
/** MUST requirements of the run (selected) not fully verified: what --require-verified refuses. */
export const unverifiedMust = (requirements: readonly RequirementResult[]) =>
  requirements.filter((q) => q.level === 'MUST' && UNVERIFIED.includes(q.outcome) && q.selected !== false);
/** MUST requirements --only left out and this run did not verify (a per-response one that saw no answer of its kind, among them). */
export const unselectedMust = (requirements: readonly RequirementResult[]) =>
  requirements.filter((q) => q.level === 'MUST' && UNVERIFIED.includes(q.outcome) && q.selected === false);
const levelOf = (ids: readonly RequirementId[]): Level => (ids.some((id) => requirement(id).level === 'MUST') ? 'MUST' : 'SHOULD');
const broken = (level: Level, strict: boolean): Outcome => (level === 'MUST' || strict ? 'fail' : 'warn');
/** The outcome of a target's failure charged to these requirements: fail, or warn for SHOULDs only (without --strict). */
export const brokenOutcome = (ids: readonly RequirementId[], strict: boolean): Outcome => broken(levelOf(ids), strict);

export function buildResults(input: {
  checks: RawCheck[]; strayExchanges?: Exchange[]; strict: boolean; runId: string; startedAt: Date; target: RunResult['target'];
  config: Record<string, unknown>; areas: readonly string[]; bundled: OpenApiReader; drift: string[];
  /** `--only` named requirements: the others of their areas were not selected. */
  only?: CheckFilter;
  knownFailures?: readonly KnownFailure[];
  /** Why the run stopped before its end (deadline, Ctrl-C), if it did. */
  stopped?: string;
  /** Seed of the generated area, when it ran. */
  seed?: number;
  /** The main key's limit and pace: RATE-6 counts its unprovoked 429s (main-key-limits.ts). */
  mainKey?: MainKeyPace;
  /** --require-verified: a MUST not fully verified fails the run. */
  requireVerified?: boolean;
}): RunResult {
  const checks: CheckResult[] = [];
  const exchanges: Exchange[] = [...(input.strayExchanges ?? [])];
  /** What each check says of each requirement it covers. */
  const verdicts = new Map<RequirementId, Array<{ check: string; outcome: Outcome; reason?: string }>>();
  const say = (id: RequirementId, check: string, outcome: Outcome, reason?: string) => { if (!verdicts.has(id)) verdicts.set(id, []); verdicts.get(id)!.push({ check, outcome, reason }); };

  // One row per check: a check reported twice counts by its last report (CI tracks tests by name).
  const last = new Map(input.checks.map((t) => [`${t.area}: ${t.title}`, t] as const));
  for (const t of last.values()) {
    exchanges.push(...t.exchanges);
    const id = `${t.area}: ${t.title}`;
    const charged = t.failure?.requirementIds.length ? t.failure.requirementIds : t.requirementIds;
    let outcome: Outcome;
    let reason: string | undefined;
    if (t.state === 'skipped') {
      // A skip is the check's own choice, with its note (the target lacks an optional feature); a
      // skip nobody explained is never shown as one.
      outcome = t.notRun || !t.skipNote ? 'not-run' : 'skip';
      reason = t.notRun ?? t.skipNote ?? (input.stopped ? input.stopped : t.runnerNote ?? 'did not run, for no recorded reason');
    } else if (t.state === 'passed') outcome = 'pass';
    else outcome = t.failure?.culprit === 'target' ? broken(levelOf(charged), input.strict) : 'error';
    if (!t.requirementIds.length && !t.failure) {
      outcome = 'error';
      reason = 'the check names no requirement (write it with check() from suite/scenario/check.ts)';
    }
    for (const q of t.requirementIds) {
      // A failure breaks the requirements it is charged to; the others of the check hold when the check
      // verified them before it failed (a narrower assertion deferred to its end: expectAlso), else the
      // check stopped before them.
      const stoppedBefore = !charged.includes(q) && !t.failure?.held?.includes(q);
      const mine = outcome === 'fail' || outcome === 'warn' ? (charged.includes(q) ? broken(requirement(q).level, input.strict) : stoppedBefore ? 'not-run' : 'pass') : outcome;
      say(q, id, mine, mine === 'not-run' && stoppedBefore && t.failure ? `the check stopped at a failure of ${charged.join(', ')} before verifying it` : reason);
    }
    checks.push({
      id, area: t.area, title: t.title, requirementIds: t.requirementIds, level: t.requirementIds.length ? levelOf(t.requirementIds) : 'MUST', outcome, reason,
      failure: t.failure, operations: [...new Set(t.exchanges.map((x) => x.operationId).filter((x): x is string => !!x))], durationMs: t.durationMs,
    });
  }

  // The generated area's requests are shown only when no plainer one shows the same failure.
  const generated = new Set([...last.values()].filter((t) => t.area === 'generated').flatMap((t) => t.exchanges));
  const creations = exchanges.filter(isCreation);
  const today = new Date().toISOString().slice(0, 10);
  const live = (input.knownFailures ?? []).filter((e) => e.expires >= today);
  // Per-response checks, one row per requirement × operation whose responses the check looked at.
  for (const requirementId of PER_RESPONSE) {
    const q = requirement(requirementId);
    const byOp = new Map<string, Exchange[]>();
    const cannot = new Map<string, string>();
    for (const x of exchanges) {
      const key = operationKey(x);
      if (x.notChecked?.[requirementId]) cannot.set(key, x.notChecked[requirementId]!);
      if (!x.checked?.includes(requirementId)) continue;
      if (!byOp.has(key)) byOp.set(key, []);
      byOp.get(key)!.push(x);
    }
    for (const [operationId, list] of [...byOp].sort(([a], [b]) => a.localeCompare(b))) {
      // The answer shown is the plainest of those whose problems an accepted known failure does not all
      // cover (one broken field accepted on an operation must not hide another broken on a later answer).
      const uncovered = (x: Exchange) => x.problems[requirementId]!.some((p) => !live.some((e) => covers(e, requirementId, operationId, p)));
      const showing = list.filter((x) => x.problems[requirementId]?.length);
      const open = showing.filter(uncovered);
      const bad = plainest(open.length ? open : showing, generated, (x) => creationAmong(creations, x)?.exchange);
      const made = bad && creationAmong(creations, bad);
      const id = `${requirementId} ${operationId}`;
      const outcome = bad ? broken(q.level, input.strict) : 'pass';
      say(requirementId, id, outcome);
      checks.push({
        // The title names no count or id of the run: CI tracks a test by its name (JUnit).
        id, area: q.area, title: `${q.title} (${operationId})`, responses: list.length,
        requirementIds: [requirementId], level: q.level, outcome, operations: [operationId], durationMs: 0,
        failure: bad ? {
          requirementIds: [requirementId], operationId, title: q.title, message: bad.problems[requirementId]!.join('; '),
          expected: q.title, received: bad.problems[requirementId]!.join('\n'), exchange: bad, curl: curlOf(bad), culprit: 'target',
          ...(made ? { setup: { id: made.id, curl: curlOf(made.exchange) } } : {}),
        } : undefined,
      });
    }
    // Operations whose answers the check could not look at (never a pass): not run, with the reason.
    for (const [operationId, reason] of [...cannot].filter(([op]) => !byOp.has(op)).sort(([a], [b]) => a.localeCompare(b))) {
      const id = `${requirementId} ${operationId}`;
      say(requirementId, id, 'not-run', reason);
      checks.push({ id, area: q.area, title: `${q.title} (${operationId})`, requirementIds: [requirementId], level: q.level, outcome: 'not-run', reason, operations: [operationId], durationMs: 0 });
    }
  }

  // RATE-6 over every exchange of the run, when the rate-limit area (or RATE-6) was selected and the run was not cut short.
  if ((input.only ? selects(input.only, ['RATE-6']) : input.areas.includes('rate-limit')) && !input.stopped) {
    const row = mainKeyLimits(exchanges, input.mainKey, broken('SHOULD', input.strict));
    say('RATE-6', row.id, row.outcome);
    checks.push(row);
  }

  const requirements: RequirementResult[] = REQUIREMENTS.map((q) => {
    const said = verdicts.get(q.id) ?? [];
    // A requirement checked on every response rides along with whatever runs; with --only it is
    // selected only when named (`--only errors --only ENV-2`): a run of PERS-2 alone may see no error
    // answer, and ENV-2 not verified then says nothing of it.
    const selected = input.only ? selects(input.only, [q.id]) : PER_RESPONSE.includes(q.id) || input.areas.includes(q.area);
    const unverified = said.filter((v) => v.outcome === 'skip' || v.outcome === 'not-run').map((v) => ({ check: v.check, outcome: v.outcome, reason: v.reason ?? 'did not run' }));
    return {
      id: q.id, level: q.level, area: q.area, title: q.title, clause: q.clause,
      outcome: said.length ? judged(said.map((v) => v.outcome)) : 'not-run',
      checks: said.length ? [...new Set(said.map((v) => v.check))] : [!selected ? NOT_SELECTED : input.stopped ? `not run: ${input.stopped}` : PER_RESPONSE.includes(q.id) ? 'no response was checked' : 'no check ran'],
      ...(unverified.length ? { unverified } : {}),
      ...(selected ? {} : { selected: false as const }),
    };
  });

  const coverage: CoverageRow[] = [];
  for (const { operationId, method, path } of input.bundled.operations()) {
    const related = checks.filter((c) => c.operations.includes(operationId));
    const outcomes: Partial<Record<Outcome, number>> = {};
    for (const c of related) outcomes[c.outcome] = (outcomes[c.outcome] ?? 0) + 1;
    coverage.push({ operationId, method: method.toUpperCase(), path, requests: exchanges.filter((x) => x.operationId === operationId).length, outcomes });
  }

  // A run stopped before its end (deadline, Ctrl-C) has no verdict: 2, whatever it saw so far.
  // A run that verified no MUST requirement has none either: "nothing broken" is not a pass when
  // nothing was looked at (areas chosen, flags missing); 2, with why.
  const known = input.knownFailures && applyKnownFailures(input.knownFailures, requirements, checks, today);
  const nothingVerified = requirements.some((q) => q.level === 'MUST' && (q.outcome === 'pass' || q.outcome === 'partial')) ? undefined : whyNothingVerified(checks, input.areas);
  const stopped = input.stopped;
  return {
    tool: 'simulation-conformance', runId: input.runId, startedAt: input.startedAt.toISOString(),
    durationMs: Date.now() - input.startedAt.getTime(), target: input.target, config: input.config,
    requirements, checks, coverage, drift: input.drift, requestCount: exchanges.length, summary: summaryOf(requirements),
    exitCode: exitCodeOf({ requirements, stopped, nothingVerified, requireVerified: input.requireVerified }),
    strict: input.strict, ...(input.requireVerified ? { requireVerified: true } : {}), stopped, nothingVerified,
    ...refusals(exchanges),
    ...(input.seed !== undefined ? { seed: input.seed } : {}),
    ...(known ? { knownFailures: known } : {}),
  };
}

/** How many requirements of each level ended in each outcome. */
function summaryOf(requirements: readonly RequirementResult[]): RunResult['summary'] {
  const summary = { MUST: {}, SHOULD: {} } as RunResult['summary'];
  for (const level of ['MUST', 'SHOULD'] as Level[]) {
    for (const o of ORDER) summary[level][o] = requirements.filter((q) => q.level === level && q.outcome === o).length;
  }
  return summary;
}

/**
 * The exit status. A run stopped before its end: 2. A broken MUST (or SHOULD with --strict) not
 * accepted by --known-failures: 1. A fault of the suite on a MUST check, or nothing verified: the
 * verdict is unknown, 2, never a pass. With --require-verified, a MUST not fully verified: 1.
 */
function exitCodeOf(r: { requirements: readonly RequirementResult[]; stopped?: string; nothingVerified?: string; requireVerified?: boolean }): RunResult['exitCode'] {
  if (r.stopped) return 2;
  if (r.requirements.some((q) => q.outcome === 'fail' && !q.known)) return 1;
  if (r.requirements.some((q) => q.outcome === 'error' && q.level === 'MUST') || r.nothingVerified) return 2;
  return r.requireVerified && unverifiedMust(r.requirements).length ? 1 : 0;
}

/**
 * The same run judged at other levels (a run made with --strict, as a user's run without it charges
 * it, or the other way): each failure charged to SHOULDs only fails or warns by `strict`, as
 * buildResults would have judged it; the summary and the exit status follow. No request is sent again.
 */
export function judgedAt(result: RunResult, strict: boolean): RunResult {
  const recharge = (outcome: Outcome, ids: readonly RequirementId[]) => (outcome === 'fail' || outcome === 'warn' ? brokenOutcome(ids, strict) : outcome);
  const checks = result.checks.map((c) => {
    const charged = c.failure?.requirementIds.length ? c.failure.requirementIds : c.requirementIds;
    return { ...c, outcome: recharge(c.outcome, charged) };
  });
  const requirements = result.requirements.map((q) => ({ ...q, outcome: recharge(q.outcome, [q.id]) }));
  const exitCode = exitCodeOf({ requirements, stopped: result.stopped, nothingVerified: result.nothingVerified, requireVerified: result.requireVerified });
  return { ...result, strict, checks, requirements, summary: summaryOf(requirements), exitCode };
}

/** The areas a run ran, and what kept their checks from verifying anything (grouped by reason: one flag answers a group). */
function whyNothingVerified(checks: CheckResult[], areas: readonly string[]): string {
  const reasons = new Map<string, number>();
  for (const c of checks) {
    if (c.outcome === 'pass' || c.level !== 'MUST') continue;
    const reason = c.reason ?? (c.outcome === 'error' ? 'a fault of the suite' : c.outcome);
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  const why = [...reasons].map(([reason, n]) => `${reason} (${n} check${n === 1 ? '' : 's'})`);
  return `areas run: ${areas.join(', ') || 'none'}; ${why.length ? `their MUST checks did not verify: ${why.join('; ')}` : 'they hold no MUST check that ran'}`;
}

/** How many answers (or ended connections) came from the HTTP stack refusing a request, and the first of them. */
function refusals(exchanges: Exchange[]): Pick<RunResult, 'refusedByStack'> {
  const refused = exchanges.filter((x) => x.refusedByStack);
  return refused.length ? { refusedByStack: { count: refused.length, first: `${refused[0].method} ${refused[0].operationId ?? ''}: ${refused[0].refusedByStack}`.replace(/ {2}/g, ' ') } } : {};
}
