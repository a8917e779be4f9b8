// The results of a run as data: checks (one per scenario test, plus one per operation for the
// checks made on every response), requirements with their aggregated outcome, endpoint coverage.
// Every report (terminal, JUnit, JSON, HTML) is rendered from this one structure.
import { REQUIREMENTS, requirementById, idsInTitle, type Level } from '../../contract/requirements.ts';
import type { Exchange } from '../../scenarios/support/exchange.ts';
import { curlOf } from '../../scenarios/support/exchange.ts';

/** pass; fail (a MUST broken, or a SHOULD under --strict); warn (a SHOULD broken); skip; not-run; error (a fault of the suite). */
export type Outcome = 'pass' | 'fail' | 'warn' | 'skip' | 'not-run' | 'error';

export interface Failure {
  requirementId: string;
  operationId?: string;
  title: string;
  expected?: string;
  received?: string;
  message: string;
  exchange?: Exchange;
  curl?: string;
}

export interface CheckResult {
  /** Stable id: area and title. */
  id: string;
  area: string;
  title: string;
  requirementIds: string[];
  level: Level;
  outcome: Outcome;
  /** Why it did not run, or what would enable it. */
  reason?: string;
  failure?: Failure;
  operations: string[];
  durationMs: number;
}

export interface RequirementResult {
  id: string;
  level: Level;
  area: string;
  title: string;
  clause: string;
  outcome: Outcome;
  checks: string[];
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
}

/** What the collector hands over for one finished scenario test. */
export interface RawTest {
  area: string;
  title: string;
  state: 'passed' | 'failed' | 'skipped' | 'pending';
  durationMs: number;
  errors: Array<{ message: string; name?: string; expected?: string; actual?: string }>;
  notRun?: string;
  skipNote?: string;
  /** The scenario file itself failed (did not load, or a hook outside any test threw). */
  suiteError?: boolean;
  exchanges: Exchange[];
}

const ORDER: Outcome[] = ['fail', 'error', 'warn', 'pass', 'skip', 'not-run'];
const worst = (outcomes: Outcome[]) => ORDER.find((o) => outcomes.includes(o)) ?? 'not-run';
const levelOf = (ids: string[]): Level => (ids.some((id) => requirementById.get(id)?.level === 'MUST') ? 'MUST' : 'SHOULD');
const broken = (level: Level, strict: boolean): Outcome => (level === 'MUST' || strict ? 'fail' : 'warn');

/** Checks made on every response (ENV-1..3, CONTRACT-1..2): one row per requirement and operation. */
const PER_RESPONSE = ['ENV-1', 'ENV-2', 'ENV-3', 'CONTRACT-1', 'CONTRACT-2'];

export function buildResults(input: {
  tests: RawTest[]; strict: boolean; runId: string; startedAt: Date; target: RunResult['target'];
  config: Record<string, unknown>; areas: string[]; bundledDocument: Record<string, any>; drift: string[];
}): RunResult {
  const checks: CheckResult[] = [];
  const exchanges: Exchange[] = [];
  for (const t of input.tests) {
    exchanges.push(...t.exchanges);
    const requirementIds = idsInTitle(t.title);
    // A file that could not run leaves its MUST checks unverified: counted as a MUST error.
    const level = t.suiteError ? 'MUST' : levelOf(requirementIds);
    const title = t.title.replace(/^\[[^\]]*\]\s*/, '');
    let outcome: Outcome;
    let reason: string | undefined;
    let failure: Failure | undefined;
    if (t.state === 'skipped' || t.state === 'pending') {
      outcome = t.notRun ? 'not-run' : 'skip';
      reason = t.notRun ? `needs ${t.notRun}` : t.skipNote;
    } else if (t.state === 'passed') outcome = 'pass';
    else {
      const err = t.errors[0] ?? { message: 'failed without an error' };
      // An assertion is a verdict on the target; anything else thrown is a fault of the suite.
      const isAssertion = !t.suiteError && /AssertionError|ExpectationError/i.test(err.name ?? '') || err.expected !== undefined || /^expected /i.test(err.message)
        || /^request .* failed:/.test(err.message);
      outcome = isAssertion ? broken(level, input.strict) : 'error';
      // The most telling exchange: the first whose response failed a per-response check, else the last.
      const exchange = t.exchanges.find((x) => Object.keys(x.problems).length > 0) ?? t.exchanges[t.exchanges.length - 1];
      failure = {
        requirementId: requirementIds[0] ?? '', operationId: exchange?.operationId, title, message: err.message,
        expected: err.expected, received: err.actual, exchange, curl: exchange ? curlOf(exchange) : undefined,
      };
    }
    if (!requirementIds.length && outcome !== 'error' && !t.suiteError) {
      outcome = 'error';
      reason = 'the check names no requirement id in its title';
    }
    checks.push({
      id: `${t.area}: ${title}`, area: t.area, title, requirementIds, level, outcome, reason, failure,
      operations: [...new Set(t.exchanges.map((x) => x.operationId).filter((x): x is string => !!x))], durationMs: t.durationMs,
    });
  }

  // Per-response checks, one row per requirement × operation that the run exercised.
  for (const requirementId of PER_RESPONSE) {
    const level = requirementById.get(requirementId)!.level;
    const byOp = new Map<string, Exchange[]>();
    for (const x of exchanges) {
      const key = x.operationId ?? `${x.method} (not an operation)`;
      if (!byOp.has(key)) byOp.set(key, []);
      byOp.get(key)!.push(x);
    }
    for (const [operationId, list] of [...byOp].sort(([a], [b]) => a.localeCompare(b))) {
      const bad = list.find((x) => x.problems[requirementId]?.length);
      checks.push({
        id: `${requirementId} ${operationId}`, area: requirementById.get(requirementId)!.area,
        title: `${requirementById.get(requirementId)!.title} (${operationId}, ${list.length} response${list.length === 1 ? '' : 's'})`,
        requirementIds: [requirementId], level, outcome: bad ? broken(level, input.strict) : 'pass', operations: [operationId], durationMs: 0,
        failure: bad ? {
          requirementId, operationId, title: requirementById.get(requirementId)!.title, message: bad.problems[requirementId].join('; '),
          expected: requirementById.get(requirementId)!.title, received: bad.problems[requirementId].join('\n'), exchange: bad, curl: curlOf(bad),
        } : undefined,
      });
    }
  }

  const requirements: RequirementResult[] = REQUIREMENTS.map((q) => {
    const covering = checks.filter((c) => c.requirementIds.includes(q.id));
    const selected = input.areas.includes(q.area) || PER_RESPONSE.includes(q.id);
    return {
      id: q.id, level: q.level, area: q.area, title: q.title, clause: q.clause,
      outcome: covering.length ? worst(covering.map((c) => c.outcome)) : 'not-run',
      checks: covering.length ? covering.map((c) => c.id) : [selected ? 'no check ran' : 'area not selected (--only)'],
    };
  });

  const coverage: CoverageRow[] = [];
  for (const [path, item] of Object.entries<any>(input.bundledDocument.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      const related = checks.filter((c) => c.operations.includes(op.operationId));
      const outcomes: Partial<Record<Outcome, number>> = {};
      for (const c of related) outcomes[c.outcome] = (outcomes[c.outcome] ?? 0) + 1;
      coverage.push({ operationId: op.operationId, method: method.toUpperCase(), path, requests: exchanges.filter((x) => x.operationId === op.operationId).length, outcomes });
    }
  }

  const summary = { MUST: {}, SHOULD: {} } as RunResult['summary'];
  for (const level of ['MUST', 'SHOULD'] as Level[]) {
    for (const o of ORDER) summary[level][o] = requirements.filter((q) => q.level === level && q.outcome === o).length;
  }
  // A broken MUST (or SHOULD with --strict) is 1; a fault of the suite on a MUST check means the
  // verdict is unknown: 2, never a pass.
  const exitCode = checks.some((c) => c.outcome === 'fail') ? 1 : checks.some((c) => c.outcome === 'error' && c.level === 'MUST') ? 2 : 0;
  return {
    tool: 'simulation-conformance', runId: input.runId, startedAt: input.startedAt.toISOString(),
    durationMs: Date.now() - input.startedAt.getTime(), target: input.target, config: input.config,
    requirements, checks, coverage, drift: input.drift, requestCount: exchanges.length, summary, exitCode,
  };
}
