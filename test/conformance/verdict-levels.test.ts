// A verdict that claims only what it verified, as data: a requirement passes only when every check of
// it ran and passed ("partial" otherwise, with what did not run and why); a check charges a narrower
// requirement (a SHOULD beside its MUST) without losing the MUST it verified; --require-verified fails
// a run whose MUST requirements were not all fully verified; a --strict run judged again as a user's
// run charges each failure at its level; a generated property cut off by its time limit is no pass.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bundledContract, loadDocuments } from '../../suite/checks/documents.ts';
import { buildResults, judged, judgedAt, unverifiedMust, type RawCheck } from '../../suite/results/results.ts';
import type { Exchange } from '../../suite/data/exchange.ts';
import { selectionOf } from '../../suite/data/selection.ts';
import { verdict } from '../../suite/reports/verdict.ts';
import { renderSummary } from '../../suite/reports/terminal.ts';
import { renderJUnit } from '../../suite/reports/junit.ts';
import { renderHtml } from '../../suite/reports/html.ts';
import { Budget, checkProperty } from '../../suite/generate/property.ts';
import { NotVerified, type Failure } from '../../suite/data/failure.ts';
import { caughtAt } from '../../suite/self-test/matrix.ts';

const { bundled } = await loadDocuments(bundledContract(), bundledContract());

const raw = (area: string, requirementIds: RawCheck['requirementIds'], title: string, state: RawCheck['state'], extra: Partial<RawCheck> = {}): RawCheck =>
  ({ area, title, requirementIds, state, durationMs: 5, exchanges: [], ...extra });
const targetFailure = (ids: Failure['requirementIds'], extra: Partial<Failure> = {}): Failure =>
  ({ requirementIds: ids, title: 'a blocked origin: 403 expected', expected: '403', received: '401', message: 'a blocked origin: 403 expected', culprit: 'target', ...extra });
const results = (checks: RawCheck[], options: { strict?: boolean; requireVerified?: boolean; areas?: string[] } = {}) => buildResults({
  checks, strict: options.strict ?? false, requireVerified: options.requireVerified, runId: 'r1', startedAt: new Date(),
  target: { baseUrl: 'http://127.0.0.1:1', embedded: false }, config: {}, areas: (options.areas ?? ['personas']) as never, bundled, drift: [],
});
const outcomeOf = (r: ReturnType<typeof results>, id: string) => r.requirements.find((q) => q.id === id)?.outcome;

/** PERS-5 as a persona tick that does nothing leaves it: its first check passes, the decay check skips. */
const DECAY_SKIPPED = 'the mood could not be moved from where it rests, so its decay cannot be observed';
const pers5 = () => [
  raw('personas', ['PERS-5'], 'answers {pendingEvents}', 'passed'),
  raw('personas', ['PERS-5'], 'decays the mood toward where it rests', 'skipped', { skipNote: DECAY_SKIPPED }),
];

describe('a requirement passes only when every check of it ran and passed', () => {
  it('judges pass with a skip or a not-run as partly verified, never as a pass', () => {
    expect(judged(['pass', 'skip'])).toBe('partial');
    expect(judged(['pass', 'not-run'])).toBe('partial');
    expect(judged(['pass', 'pass'])).toBe('pass');
    expect(judged(['pass', 'warn', 'skip'])).toBe('warn');
    expect(judged(['skip', 'not-run'])).toBe('skip');
    expect(judged(['not-run'])).toBe('not-run');
  });

  it('PERS-5 with its decay check skipped is partial, naming the check and why, and the run still passes', () => {
    const r = results(pers5());
    const q = r.requirements.find((x) => x.id === 'PERS-5')!;
    expect(q.outcome).toBe('partial');
    expect(q.unverified).toEqual([{ check: 'personas: decays the mood toward where it rests', outcome: 'skip', reason: DECAY_SKIPPED }]);
    expect(r.exitCode).toBe(0);
    expect(r.summary.MUST.partial).toBe(1);
    expect(verdict(r).line).toMatch(/^PASS: \d+ of \d+ MUST requirements verified and hold; 1 partly verified \(PERS-5\)/);
  });

  it('shows the partly verified requirement, its check and the reason in the terminal, JUnit and HTML', () => {
    const r = results(pers5());
    const text = renderSummary(r);
    expect(text).toContain('Partly verified (1)');
    expect(text).toContain(`◐ PERS-5 (MUST)`);
    expect(text).toContain(`- personas: decays the mood toward where it rests: ${DECAY_SKIPPED}`);
    expect(renderHtml(r)).toMatch(/Partly verified \(1\)[\s\S]*PERS-5[\s\S]*decays the mood toward where it rests: the mood could not be moved/);
    expect(renderJUnit(r)).toContain(`<skipped message="skipped: ${DECAY_SKIPPED}"/>`);
  });

  it('--require-verified fails the run (exit 1) on a MUST partly verified or not run, naming them', () => {
    const r = results(pers5(), { requireVerified: true });
    expect(r.exitCode).toBe(1);
    expect(verdict(r).line).toMatch(/^FAIL: \d+ MUST requirements? not fully verified \(--require-verified\): 1 partly verified \(PERS-5\)/);
    const junit = renderJUnit(r);
    expect(junit).toMatch(/<testcase name="\[run\] every MUST requirement fully verified \(--require-verified\)"[^>]*>\s*<failure /);
    expect(junit).toContain('PERS-5 partly verified: personas: decays the mood toward where it rests (the mood could not be moved');
    // Requirements that --only left out are neither verified nor required.
    const only = buildResults({
      checks: [raw('personas', ['PERS-5'], 'answers {pendingEvents}', 'passed')], strict: false, requireVerified: true, runId: 'r1', startedAt: new Date(),
      target: { baseUrl: 'http://127.0.0.1:1', embedded: false }, config: {}, areas: ['personas'], only: { wholeAreas: [], requirementIds: ['PERS-5'] }, bundled, drift: [],
    });
    expect(outcomeOf(only, 'PERS-5')).toBe('pass');
    expect(unverifiedMust(only.requirements).map((q) => q.id)).not.toContain('PERS-1');
  });
});

describe('--only with --require-verified: what was not selected does not decide, what was is required', () => {
  /** An answer of PATCH /personas/{id}, a 2xx: ENV-1 and CONTRACT-1 looked at it; ENV-2 (error answers) had nothing to look at. */
  const answer = (problems: Exchange['problems'] = {}): Exchange => ({
    operationId: 'updatePersona', method: 'PATCH', url: 'http://127.0.0.1:1/personas/p1', requestHeaders: {}, status: 200, responseHeaders: {},
    responseBody: '{"result":{"ok":true}}', durationMs: 1, checked: ['ENV-1', 'CONTRACT-1'], problems,
  });
  const run = (only: string[], exchanges: Exchange[]) => buildResults({
    checks: [raw('personas', ['PERS-2'], 'answers {ok: true}', 'passed', { exchanges })], strict: false, requireVerified: true, runId: 'r1', startedAt: new Date(),
    target: { baseUrl: 'http://127.0.0.1:1', embedded: false }, config: {}, areas: ['personas'], only: selectionOf(only), bundled, drift: [],
  });
  const q = (r: ReturnType<typeof run>, id: string) => r.requirements.find((x) => x.id === id)!;

  it('--only PERS-2: ENV-2, which saw no error answer, is not selected and does not fail the run; PERS-2 and what did look are verified', () => {
    const r = run(['PERS-2'], [answer()]);
    expect([q(r, 'ENV-2').outcome, q(r, 'ENV-2').selected, q(r, 'ENV-2').checks]).toEqual(['not-run', false, ['not selected (--only)']]);
    expect([q(r, 'PERS-2').outcome, q(r, 'ENV-1').outcome]).toEqual(['pass', 'pass']);
    expect(unverifiedMust(r.requirements)).toEqual([]);
    expect(r.exitCode).toBe(0);
    expect(verdict(r).line).toMatch(/^PASS: \d+ of \d+ MUST requirements verified and hold; \d+ not selected \(--only\)$/);
  });

  it('--only PERS-2,ENV-2: ENV-2 is selected, and not verified without an error answer: exit 1 naming it', () => {
    const r = run(['PERS-2', 'ENV-2'], [answer()]);
    expect([q(r, 'ENV-2').outcome, q(r, 'ENV-2').selected]).toEqual(['not-run', undefined]);
    expect(unverifiedMust(r.requirements).map((x) => x.id)).toEqual(['ENV-2']);
    expect(r.exitCode).toBe(1);
    expect(verdict(r).line).toMatch(/^FAIL: 1 MUST requirement not fully verified \(--require-verified\): 1 not run \(ENV-2\)$/);
  });

  it('a per-response requirement --only did not name still fails the run on a broken answer it saw', () => {
    const r = run(['PERS-2'], [answer({ 'CONTRACT-1': ['/result/ok must be boolean'] })]);
    expect([q(r, 'CONTRACT-1').outcome, r.exitCode]).toEqual(['fail', 1]);
  });
});

describe('a check charges each requirement at its own level', () => {
  const blocked = (held?: Failure['requirementIds']) =>
    raw('auth', ['AUTH-4', 'AUTH-7'], 'refuses a restricted key from another origin', 'failed', { failure: targetFailure(['AUTH-7'], held ? { held } : {}) });

  it('a failure of the SHOULD alone, after the MUST was verified: the MUST holds, the SHOULD warns, exit 0', () => {
    const r = results([blocked(['AUTH-4']), raw('auth', ['AUTH-4'], 'near misses', 'passed')], { areas: ['auth'] });
    expect([outcomeOf(r, 'AUTH-4'), outcomeOf(r, 'AUTH-7'), r.exitCode]).toEqual(['pass', 'warn', 0]);
    expect(r.checks[0].outcome).toBe('warn');
  });

  it('a failure that stopped the check before its other requirement leaves that one not verified by it', () => {
    const r = results([blocked(), raw('auth', ['AUTH-4'], 'near misses', 'passed')], { areas: ['auth'] });
    expect(outcomeOf(r, 'AUTH-4')).toBe('partial');
    expect(r.requirements.find((q) => q.id === 'AUTH-4')!.unverified![0].reason).toBe('the check stopped at a failure of AUTH-7 before verifying it');
  });
});

describe('a --strict run judged as a user runs it', () => {
  it('a SHOULD failure fails the strict run and warns in the same run judged without --strict', () => {
    const strict = results([raw('auth', ['AUTH-7'], 'answers 403', 'failed', { failure: targetFailure(['AUTH-7']) }), raw('auth', ['AUTH-4'], 'refuses', 'passed')], { strict: true, areas: ['auth'] });
    expect([outcomeOf(strict, 'AUTH-7'), strict.exitCode]).toEqual(['fail', 1]);
    const user = judgedAt(strict, false);
    expect([outcomeOf(user, 'AUTH-7'), user.checks[0].outcome, user.summary.SHOULD.warn, user.exitCode]).toEqual(['warn', 'warn', 1, 0]);
    expect(judgedAt(user, true).exitCode).toBe(1);
  });

  it('a fault that expects a MUST is not caught by a SHOULD warning; one that expects SHOULDs only is caught as a SHOULD', () => {
    const strict = results([raw('openapi', ['OAS-2'], 'describes every operation', 'failed', { failure: targetFailure(['OAS-2']) }), raw('openapi', ['OAS-1'], 'valid', 'passed')], { strict: true, areas: ['openapi'] });
    const user = judgedAt(strict, false);
    expect(caughtAt({ expected: ['OAS-2', 'CONTRACT-2'] }, ['OAS-2'], user)).toEqual({});
    expect(caughtAt({ expected: ['OAS-2'] }, ['OAS-2'], user)).toEqual({ caughtAs: 'SHOULD' });
    const must = judgedAt(results([raw('openapi', ['OAS-1'], 'valid', 'failed', { failure: targetFailure(['OAS-1']) })], { strict: true, areas: ['openapi'] }), false);
    expect(caughtAt({ expected: ['OAS-1'] }, ['OAS-1'], must)).toEqual({ caughtAs: 'MUST' });
  });
});

describe('a generated property cut off by its time limit', () => {
  it('is not verified: NotVerified says after how many of its runs', async () => {
    const slow = checkProperty({
      arbitrary: fc.integer(), seed: 1, budget: new Budget(1_000), requestsPerRun: 1, timeLimitMs: 50,
      run: async () => { await new Promise((r) => setTimeout(r, 30)); }, describe: String, repeat: 'npm run conformance',
    });
    await expect(slow).rejects.toBeInstanceOf(NotVerified);
    await expect(slow).rejects.toThrow(/^cut off after \d+ of 1000 runs by its time limit/);
  });

  it('a property that ran every run passes', async () => {
    const done = await checkProperty({
      arbitrary: fc.integer(), seed: 1, budget: new Budget(20), requestsPerRun: 1, timeLimitMs: 60_000,
      run: async () => undefined, describe: String, repeat: 'npm run conformance',
    });
    expect(done.runs).toBe(20);
  });
});
