// Hand-built RunResults for the report tests: one of each outcome, and untrusted content where a
// deployment could put it. The run's key goes through the Exchange's own redaction (as the recorder
// does); a second key, LEAKED, did not: a deployment echoed a key the run never knew, and it reached
// a header, the body, the message and even the configuration. The reports must show neither.
import { requirementById, type RequirementId } from '../../../contract/requirements.ts';
import { curlOf, type Exchange } from '../../../suite/data/exchange.ts';
import { redactHeaders, redactKey as redactSecret, scrub } from '../../../suite/data/redact.ts';
import type { CheckResult, Outcome, RequirementResult, RunResult } from '../../../suite/results/results.ts';

export const SECRET = 'mk_test_S3cr3tRunKey0000';
export const LEAKED = 'mk_live_L34kedOtherTenant99';
/** What an untrusted deployment may send: markup, a terminal escape (clear screen), a NUL, a bell. */
export const HOSTILE = '<script>alert(1)</script>';
export const ESCAPE = '\u001b[2J';

const BASE = 'http://127.0.0.1:4010';

function exchange(x: { operationId: string; method: string; path: string; status: number; body: unknown; headers?: Record<string, string>; requestBody?: string }): Exchange {
  const responseBody = typeof x.body === 'string' ? x.body : JSON.stringify(x.body);
  return {
    operationId: x.operationId, method: x.method, url: `${BASE}${x.path}`,
    requestHeaders: redactHeaders({ 'X-API-Key': SECRET, accept: 'application/json', ...(x.requestBody ? { 'content-type': 'application/json' } : {}) }),
    requestBody: x.requestBody,
    status: x.status,
    responseHeaders: redactHeaders({ 'content-type': 'application/json; charset=utf-8', date: 'Mon, 01 Jan 2024 00:00:00 GMT', ...x.headers }),
    responseBody: scrub(responseBody, [SECRET]),
    durationMs: 12,
    checked: [],
    problems: {},
  };
}

function check(area: string, ids: RequirementId[], title: string, outcome: Outcome, extra: Partial<CheckResult> = {}): CheckResult {
  const level = ids.some((id) => requirementById.get(id)?.level === 'MUST') ? 'MUST' : 'SHOULD';
  return { id: `${area}: ${title}`, area, title, requirementIds: ids, level, outcome, operations: [], durationMs: 40, ...extra };
}

/** A MUST broken: the deployment accepts an invalid key and answers 200 with a hostile body. */
export function mustFail(): CheckResult {
  const x = exchange({
    operationId: 'listWorlds', method: 'GET', path: '/worlds?limit=1', status: 200,
    headers: { 'x-debug-key': LEAKED, 'set-cookie': `session=${SECRET}` },
    body: { result: { items: [{ id: 'w_1', name: HOSTILE, echo: SECRET, debug: LEAKED }] } },
  });
  return check('auth', ['AUTH-2'], 'answers 401 UNAUTHORIZED with an invalid key', 'fail', {
    operations: ['listWorlds'],
    failure: {
      requirementIds: ['AUTH-2'], culprit: 'target', operationId: 'listWorlds', title: 'answers 401 UNAUTHORIZED with an invalid key',
      expected: '401', received: '200',
      // vitest quotes the reply text in the message: untrusted, raw control characters included.
      message: `expected 401 UNAUTHORIZED, got 200 ${ESCAPE}\u0000\u0007 key ${LEAKED}`,
      exchange: x, curl: curlOf(x),
    },
  });
}

export function shouldWarn(): CheckResult {
  const x = exchange({
    operationId: 'getPersona', method: 'GET', path: '/personas/p_missing', status: 400,
    body: { error: { code: 'PERSONA_NOT_FOUND', message: 'no persona p_missing' } },
  });
  return check('errors', ['ERR-5'], 'PERSONA_NOT_FOUND comes with status 404', 'warn', {
    operations: ['getPersona'],
    failure: { requirementIds: ['ERR-5'], culprit: 'target', operationId: 'getPersona', title: 'PERSONA_NOT_FOUND comes with status 404', expected: '404', received: '400', message: 'expected 400 to be 404 // Object.is equality', exchange: x, curl: curlOf(x) },
  });
}

export const pass = () => check('worlds', ['WORLD-1'], 'creates a world and answers with its id', 'pass', { operations: ['createWorld'] });
export const notRun = (ids: RequirementId[], title: string, reason: string, area = 'isolation') => check(area, ids, title, 'not-run', { reason });
export const suiteError = () => check('simulation', ['SIM-1'], 'advances the clock by the requested ticks', 'error', {
  failure: { requirementIds: ['SIM-1'], culprit: 'suite', title: 'advances the clock by the requested ticks', message: "TypeError: Cannot read properties of undefined (reading 'id')" },
});
export const skipped = () => check('rate-limit', ['RATE-4'], 'accepts about the plan limit before the first 429', 'skip', { reason: 'enterprise plan: no fixed limit to compare with' });

function requirement(id: RequirementId, outcome: Outcome, checks: string[]): RequirementResult {
  const q = requirementById.get(id)!;
  return { id, level: q.level, area: q.area, title: q.title, clause: q.clause, outcome, checks };
}

const zero = (): Record<Outcome, number> => ({ pass: 0, fail: 0, warn: 0, partial: 0, skip: 0, 'not-run': 0, error: 0 });

function run(checks: CheckResult[], requirements: RequirementResult[], exitCode: 0 | 1): RunResult {
  // The summary is what buildResults computes: requirements counted by level and outcome.
  const summary = { MUST: zero(), SHOULD: zero() };
  for (const q of requirements) summary[q.level][q.outcome]++;
  return {
    tool: 'simulation-conformance', runId: 'r20240101-abc123', startedAt: '2024-01-01T00:00:00.000Z', durationMs: 41_234,
    target: { baseUrl: BASE, embedded: false },
    config: { 'base-url': BASE, 'api-key': redactSecret(SECRET), 'second-key': undefined, strict: false, note: `pasted by mistake: ${LEAKED}`, areas: ['auth', 'worlds'] },
    requirements, checks,
    coverage: [
      { operationId: 'listWorlds', method: 'GET', path: '/worlds', requests: 1, outcomes: { fail: 1 } },
      { operationId: 'createWorld', method: 'POST', path: '/worlds', requests: 3, outcomes: { pass: 1 } },
      { operationId: 'getPersona', method: 'GET', path: '/personas/{id}', requests: 1, outcomes: { warn: 1 } },
      { operationId: 'interact', method: 'POST', path: '/worlds/{id}/interact', requests: 0, outcomes: {} },
    ],
    drift: ['GET /worlds: the served document declares a 418 response <teapot> that the bundled contract lacks'],
    requestCount: 5, summary, exitCode,
  };
}

/** A failing run with every outcome: pass, MUST fail, SHOULD warn, not run (two reasons), error, skip. */
export function failingRun(): RunResult {
  const checks = [
    pass(), mustFail(), shouldWarn(),
    notRun(['ISO-1'], "another tenant's world is answered 404 WORLD_NOT_FOUND", 'needs --second-key'),
    notRun(['ISO-2'], "another tenant's worlds are never listed", 'needs --second-key'),
    notRun(['SIM-8'], 'interact answers with the persona reply', 'needs --allow-billable', 'simulation'),
    suiteError(), skipped(),
  ];
  const of = (id: RequirementId) => checks.filter((c) => c.requirementIds.includes(id)).map((c) => c.id);
  return run(checks, [
    requirement('WORLD-1', 'pass', of('WORLD-1')), requirement('AUTH-2', 'fail', of('AUTH-2')), requirement('ERR-5', 'warn', of('ERR-5')),
    requirement('ISO-1', 'not-run', of('ISO-1')), requirement('ISO-2', 'not-run', of('ISO-2')), requirement('SIM-8', 'not-run', of('SIM-8')),
    requirement('SIM-1', 'error', of('SIM-1')), requirement('RATE-4', 'skip', of('RATE-4')),
  ], 1);
}

/** A passing run: every MUST holds, one SHOULD warning, one SHOULD not run. */
export function passingRun(): RunResult {
  const fixed = { ...mustFail(), outcome: 'pass' as const, failure: undefined };
  const checks = [pass(), fixed, shouldWarn(), notRun(['SIM-8'], 'interact answers with the persona reply', 'needs --allow-billable', 'simulation')];
  return run(checks, [
    requirement('WORLD-1', 'pass', [checks[0].id]), requirement('AUTH-2', 'pass', [checks[1].id]),
    requirement('ERR-5', 'warn', [checks[2].id]), requirement('SIM-8', 'not-run', [checks[3].id]),
  ], 0);
}

export { requirement, run, check, exchange };
