// The fault matrix: one embedded reference for everything, the correct deployment checked over every
// area twice (directly and through a pass-through proxy: both clean, same verdict for every check),
// then every fault of the catalogue behind its own proxy, checked over the areas it concerns with
// --strict (a broken SHOULD counts). A fault is caught when the run fails (exit 1) and at least one
// of its expected requirements has a failed check, at the level a user's run (without --strict)
// charges it: the same run judged again without --strict (judgedAt), no request sent twice. A fault
// that expects a MUST must fail a MUST; one caught by SHOULDs alone warns, and is said to.
// `npm test` and `--self-test` both run this.
import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { resolveTarget, type Target } from '../run/target.ts';
import { createSession } from '../run/session.ts';
import { keepScenarioRunner } from '../run/vitest.ts';
import { cleanup } from '../run/ledger.ts';
import { AREAS, requirement, type Level, type RequirementId, type SelectableArea } from '../../contract/requirements.ts';
import { EMBEDDED_RATE_WINDOW_MS } from '../../contract/plans.ts';
import { judgedAt, type Outcome, type RunResult } from '../results/results.ts';
import { FAULTS, type Fault } from './faults.ts';
import { servedDocument, startFaultProxy, type FaultHooks, type FaultKeys, type FaultProxy } from './proxy.ts';
import { APPLIED } from './hooks.ts';
import { VARIANTS, type Variant } from './variants.ts';

const DEFAULT_TIMEOUT_MS = 5_000;
const DEADLINE_MS = 120_000;
/** The generated area's budget and seed in the matrix: small, and fixed, so that both correct runs send the same requests. */
const GENERATED = 120;
const SEED = 1;
/** The correct runs check every area, the generated one included. */
const CLEAN_AREAS = AREAS;

export interface FaultVerdict {
  id: string;
  description: string;
  areas: string[];
  expected: string[];
  expectedLabel?: string;
  exitCode: number;
  /** Requirements with a failed check, in catalogue order. */
  failed: RequirementId[];
  /** The expected requirements among them. */
  caughtBy: RequirementId[];
  /** Exit status of the same run as a user's run (without --strict) judges it. */
  userExitCode: number;
  /**
   * The level at which a user's run charges the catch: MUST (the run fails), SHOULD (it warns and may
   * pass: only --strict fails it). Undefined when not caught.
   */
  caughtAs?: Level;
  /** Caught (a control: passed cleanly). */
  caught: boolean;
  /** Checks that ended in a fault of the suite itself (outcome error): a check too weak to give a verdict. */
  suiteErrors: string[];
  requests: number;
  durationMs: number;
  /** The run could not be made (proxy, document, session). */
  error?: string;
}

export interface CleanRun {
  label: string;
  exitCode: number;
  /** Checks that did not pass or skip: fail, error, warn, not-run. */
  bad: string[];
  outcomes: Record<string, Outcome>;
  /** Outcome of every requirement of the catalogue in that run. */
  requirements: Partial<Record<RequirementId, Outcome>>;
  checks: number;
  durationMs: number;
  clean: boolean;
}

export interface MatrixResult {
  clean: CleanRun[];
  /** Checks whose verdict differed between the two correct runs. */
  unstable: string[];
  faults: FaultVerdict[];
  ok: boolean;
  durationMs: number;
}

export interface MatrixOptions {
  /** Where the runs keep their ledgers of created resources (removed after cleanup). */
  workDir: string;
  faults?: Fault[];
  /** One progress line per run. */
  print?: (line: string) => void;
  timeoutMs?: number;
  /** Skip the two correct runs (for trying faults alone). */
  skipCleanRuns?: boolean;
  /** The areas of the correct runs (default: every area; --self-test --only narrows them). */
  cleanAreas?: readonly SelectableArea[];
}

const order = <T extends string>(ids: Iterable<T>): T[] => {
  const set = new Set(ids);
  return [...set].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
};

/**
 * The catalogue in `count` shards of about equal size, for matrices run side by side (npm test runs
 * one file a shard, each with its own reference). Faults are kept together by their first expected
 * requirement (a control alone), so that each requirement is proven inside one shard: its home, the
 * shard of the first fault that expects it (`homeShard`). Deterministic for a given catalogue.
 */
/** What a fault's run costs, roughly, in runs of an ordinary fault (about 0.9 s on 2 quiet cores): a rate-limit run waits out windows (about 7 s). */
export const faultCost = (f: Fault) => (f.areas.includes('rate-limit') ? 8 : 1);
/** The correct runs (every area, twice: about 65 s), in the same units: the first shard carries them (faults.test.ts). */
export const CLEAN_RUNS_COST = 70;

/**
 * The catalogue in `count` shards of about equal cost, the first starting with the correct runs. A
 * group of faults expecting the same requirement first stays in one shard (its home, homeShard).
 */
export function faultShards(faults: readonly Fault[], count: number): Fault[][] {
  const groups = new Map<string, Fault[]>();
  for (const f of faults) {
    const key = f.expected[0] ?? `control:${f.id}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  const shards: Fault[][] = Array.from({ length: count }, () => []);
  const costs: number[] = shards.map((_, i) => (i === 0 ? CLEAN_RUNS_COST : 0));
  const cost = (group: readonly Fault[]) => group.reduce((n, f) => n + faultCost(f), 0);
  // The costliest groups first, each to the cheapest shard so far.
  for (const group of [...groups.values()].sort((a, b) => cost(b) - cost(a))) {
    const cheapest = costs.indexOf(Math.min(...costs));
    shards[cheapest].push(...group);
    costs[cheapest] += cost(group);
  }
  const rank = new Map(faults.map((f, i) => [f, i]));
  return shards.map((shard) => shard.sort((a, b) => rank.get(a)! - rank.get(b)!));
}

/**
 * The shard in which a requirement must be proven: the one holding the faults that expect it first
 * (one group, one shard), or else that of the first fault expecting it at all. -1: no fault expects it.
 */
export function homeShard(shards: readonly Fault[][], requirement: RequirementId): number {
  const proving = (f: Fault) => !f.expectedLabel && f.expected.includes(requirement);
  const led = shards.findIndex((shard) => shard.some((f) => proving(f) && f.expected[0] === requirement));
  if (led >= 0) return led;
  const first = FAULTS.find((f) => proving(f) && shards.some((shard) => shard.includes(f)));
  return first ? shards.findIndex((shard) => shard.includes(first)) : -1;
}

/** Interleaves the faults that spend the rate-limit key with the others, so that its window has passed before the next one. */
function schedule(faults: Fault[]): Fault[] {
  const limited = faults.filter((f) => f.areas.includes('rate-limit'));
  const others = faults.filter((f) => !f.areas.includes('rate-limit'));
  if (!limited.length) return others;
  const gap = Math.max(1, Math.floor(others.length / limited.length));
  const out: Fault[] = [];
  for (let i = 0; i < others.length || limited.length; i++) {
    if (i % gap === 0 && limited.length) out.push(limited.shift()!);
    if (i < others.length) out.push(others[i]);
  }
  return out;
}

/** The embedded reference every run of a matrix shares, and how a run is made against it. */
export interface Bench {
  target: Target;
  keys: FaultKeys;
  /**
   * One conformance run; what it created is then soft-deleted at `cleanupUrl` (default: directly at
   * the reference, past any fault; a legal variant cleans through its own proxy, whose ids it knows).
   */
  run(t: Target, areas: readonly SelectableArea[], runTimeoutMs: number, label: string, generated?: number, cleanupUrl?: string, deadlineMs?: number, seed?: number, only?: readonly RequirementId[]): Promise<RunResult>;
  /**
   * A proxy with these hooks in front of the reference, and the target it makes: the reference's keys,
   * the proxy's URL and the document the proxy serves. With `preflight`, the target is resolved as
   * for any --base-url (reachable, a valid document, the key accepted). `basePath`: where the proxy
   * mounts the deployment (a document dialect's `/api`); the target's base URL ends with it.
   */
  behindProxy<T>(hooks: FaultHooks, use: (t: Target, proxy: FaultProxy) => Promise<T>, preflight?: boolean, basePath?: string): Promise<T>;
}

export async function startBench(workDir: string, timeoutMs: number): Promise<Bench> {
  const target = await resolveTarget({ rateLimitWindowMs: EMBEDDED_RATE_WINDOW_MS });
  // One Vitest for every run of the matrix, closed with the reference.
  const release = keepScenarioRunner();
  const closeReference = target.close;
  target.close = async () => { await release(); await closeReference(); };
  const keys: FaultKeys = { mainKey: target.apiKey, ...target.extraKeys };
  let rateKeyFreeAt = 0;

  /** One conformance run; what it created is soft-deleted directly at the reference, past any fault. */
  async function run(t: Target, areas: readonly SelectableArea[], runTimeoutMs: number, label: string, generated = GENERATED, cleanupUrl = target.baseUrl, deadlineMs = DEADLINE_MS, seed = SEED, only?: readonly RequirementId[]): Promise<RunResult> {
    if (areas.includes('rate-limit')) {
      const left = rateKeyFreeAt - Date.now();
      if (left > 0) await sleep(left);
    }
    const session = createSession(t, {
      areas: [...areas], only: only?.length ? { wholeAreas: [], requirementIds: [...only] } : undefined, strict: true, keep: true, timeoutMs: runTimeoutMs, deadlineAt: Date.now() + deadlineMs, workDir,
      plan: 'enterprise', rpm: 0, rateLimitPlan: 'free', allowBillable: true, generated, seed, shownConfig: { selfTest: label }, print: () => undefined,
    });
    let result: RunResult | undefined;
    try {
      return (result = await session.run());
    } finally {
      // A run whose RATE-3 check passed waited out its 429 and left the key fresh (one request into a
      // new window); any other may have left it exhausted: the next such run waits for the window.
      const rested = result?.checks.some((c) => c.requirementIds.includes('RATE-3') && c.outcome === 'pass');
      if (areas.includes('rate-limit') && !rested) rateKeyFreeAt = Date.now() + EMBEDDED_RATE_WINDOW_MS + 200;
      await cleanup({ baseUrl: cleanupUrl, apiKey: target.apiKey, ledgerFile: session.config.ledgerFile, timeoutMs, until: Date.now() + 30_000 }).catch(() => undefined);
      rmSync(session.config.ledgerFile, { force: true });
      rmSync(session.config.stopFile, { force: true });
    }
  }

  async function behindProxy<T>(hooks: FaultHooks, use: (t: Target, proxy: FaultProxy) => Promise<T>, preflight = false, basePath = ''): Promise<T> {
    const proxy = await startFaultProxy(target.baseUrl, hooks, { keys, timeoutMs: 30_000 });
    const baseUrl = proxy.url + basePath;
    try {
      const resolved = preflight ? await resolveTarget({ baseUrl, apiKey: target.apiKey, timeoutMs }) : undefined;
      const document = resolved?.document ?? await servedDocument(baseUrl, timeoutMs);
      return await use({ ...target, baseUrl, embedded: false, document, documentProblem: resolved?.documentProblem, close: async () => undefined }, proxy);
    } finally {
      await proxy.close();
    }
  }
  return { target, keys, run, behindProxy };
}

export async function runMatrix(options: MatrixOptions): Promise<MatrixResult> {
  const started = Date.now();
  const print = options.print ?? (() => undefined);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const faults = options.faults ?? FAULTS;
  const { target, run, behindProxy } = await startBench(options.workDir, timeoutMs);

  try {
    const clean: CleanRun[] = [];
    if (!options.skipCleanRuns) {
      for (const [label, via] of [['correct deployment, direct', false], ['correct deployment, through a pass-through proxy', true]] as const) {
        const t0 = Date.now();
        const areas = options.cleanAreas ?? CLEAN_AREAS;
        const result = via ? await behindProxy({}, (t) => run(t, areas, timeoutMs, label), true) : await run(target, areas, timeoutMs, label);
        const outcomes: Record<string, Outcome> = {};
        for (const c of result.checks) outcomes[c.id] = c.outcome;
        const bad = result.checks.filter((c) => ['fail', 'error', 'warn', 'not-run'].includes(c.outcome)).map((c) => `${c.id}: ${c.outcome}${c.failure ? ` (${c.failure.message.split('\n')[0].slice(0, 160)})` : ''}`);
        const requirements: CleanRun['requirements'] = {};
        for (const q of result.requirements) requirements[q.id] = q.outcome;
        const entry: CleanRun = { label, exitCode: result.exitCode, bad, outcomes, requirements, checks: result.checks.length, durationMs: Date.now() - t0, clean: result.exitCode === 0 && !bad.length };
        clean.push(entry);
        print(`  ${entry.clean ? '✓' : '✗'} ${label}: ${entry.checks} checks, ${entry.clean ? 'all pass' : `${bad.length} not passing`} (${(entry.durationMs / 1000).toFixed(1)} s)`);
      }
    }
    const unstable: string[] = [];
    if (clean.length === 2) {
      const [a, b] = clean;
      for (const id of order([...Object.keys(a.outcomes), ...Object.keys(b.outcomes)])) {
        if (a.outcomes[id] !== b.outcomes[id]) unstable.push(`${id}: ${a.outcomes[id] ?? 'absent'} then ${b.outcomes[id] ?? 'absent'}`);
      }
    }

    const verdicts = new Map<string, FaultVerdict>();
    const runs = schedule(faults);
    for (const [n, fault] of runs.entries()) {
      const t0 = Date.now();
      const verdict: FaultVerdict = {
        id: fault.id, description: fault.description, areas: fault.areas, expected: fault.expected, expectedLabel: fault.expectedLabel,
        exitCode: 2, userExitCode: 2, failed: [], caughtBy: [], caught: false, suiteErrors: [], requests: 0, durationMs: 0,
      };
      try {
        const result = await behindProxy(fault, (t) => run(t, fault.areas, fault.timeoutMs ?? timeoutMs, fault.id, fault.generated, undefined, undefined, undefined, fault.only));
        verdict.exitCode = result.exitCode;
        verdict.requests = result.requestCount;
        verdict.failed = result.requirements.filter((q) => q.outcome === 'fail').map((q) => q.id);
        verdict.suiteErrors = result.checks.filter((c) => c.outcome === 'error').map((c) => `${c.id}: ${c.failure?.message.split('\n')[0].slice(0, 160) ?? c.reason ?? ''}`);
        verdict.caughtBy = verdict.failed.filter((id) => fault.expected.includes(id));
        const user = judgedAt(result, false);
        verdict.userExitCode = user.exitCode;
        Object.assign(verdict, caughtAt(fault, verdict.caughtBy, user));
        verdict.caught = fault.expected.length
          ? result.exitCode === 1 && verdict.caughtAs !== undefined
          : result.exitCode === 0 && user.exitCode === 0 && !verdict.failed.length && !verdict.suiteErrors.length;
      } catch (err) {
        verdict.error = (err as Error).message;
      }
      verdict.durationMs = Date.now() - t0;
      verdicts.set(fault.id, verdict);
      const what = fault.expected.length
        ? verdict.caught ? `caught by ${verdict.caughtBy.join(', ')}${verdict.caughtAs === 'SHOULD' ? ' (SHOULD: a run without --strict warns)' : ''}`
          : `NOT caught (failed: ${verdict.failed.join(', ') || 'nothing'}; exit ${verdict.exitCode}, without --strict ${verdict.userExitCode}${verdict.error ? `; ${verdict.error}` : ''})`
        : verdict.caught ? 'passed, as a correct deployment must' : `FAILED though correct (failed: ${verdict.failed.join(', ') || 'nothing'}; exit ${verdict.exitCode})`;
      print(`  [${String(n + 1).padStart(String(runs.length).length)}/${runs.length}] ${verdict.caught ? '✓' : '✗'} ${fault.id}: ${what} (${(verdict.durationMs / 1000).toFixed(1)} s)`);
    }
    const ordered = faults.map((f) => verdicts.get(f.id)!);
    return {
      clean, unstable, faults: ordered,
      ok: ordered.every((v) => v.caught) && clean.every((c) => c.clean) && !unstable.length,
      durationMs: Date.now() - started,
    };
  } finally {
    await target.close();
  }
}

/**
 * The level at which a user's run (without --strict) charges a fault's catch. A fault that expects a
 * MUST is caught only when one of its expected MUSTs fails there (the run exits 1): a SHOULD warning
 * is not that catch. A fault that expects SHOULDs only is caught as a SHOULD: one of them warns.
 */
export function caughtAt(fault: Pick<Fault, 'expected'>, caughtBy: readonly RequirementId[], user: RunResult): { caughtAs?: Level } {
  const outcome = (id: RequirementId) => user.requirements.find((q) => q.id === id)?.outcome;
  const must = caughtBy.filter((id) => requirement(id).level === 'MUST' && outcome(id) === 'fail');
  if (must.length && user.exitCode === 1) return { caughtAs: 'MUST' };
  const expectsMust = fault.expected.some((id) => requirement(id).level === 'MUST');
  if (!expectsMust && caughtBy.some((id) => outcome(id) === 'warn')) return { caughtAs: 'SHOULD' };
  return {};
}

/** The matrix as a table: fault → expected → failed (caught by) → verdict; then the correct runs. */
export function renderMatrix(m: MatrixResult): string {
  const shorten = (ids: string[], max = 6) => (ids.length > max ? `${ids.slice(0, max).join(', ')}, … (+${ids.length - max})` : ids.join(', '));
  const rows = m.faults.map((v) => {
    const expected = v.expectedLabel ?? (v.expected.length ? v.expected.join(', ') : '(control: must pass)');
    const failed = v.error ? `run failed: ${v.error}` : v.failed.length ? shorten(v.failed.map((id) => (v.caughtBy.includes(id) ? `${id}*` : id))) : '—';
    return [v.id, expected, failed, v.caught ? `✓${v.caughtAs === 'SHOULD' ? ' (SHOULD)' : ''}` : '✗'];
  });
  const head = ['fault', 'expected', 'failed (* = expected)', ''];
  const widths = head.map((h, i) => Math.min(i === 2 ? 60 : 48, Math.max(h.length, ...rows.map((r) => r[i].length))));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ').trimEnd();
  const out = [line(head), line(widths.map((w) => '-'.repeat(w)))];
  for (const r of rows) out.push(line(r));
  out.push('');
  for (const c of m.clean) {
    out.push(`${c.clean ? '✓' : '✗'} ${c.label}: ${c.checks} checks, ${c.clean ? 'every one passed or skipped' : `not passing: ${c.bad.slice(0, 5).join('; ')}${c.bad.length > 5 ? ` … (+${c.bad.length - 5})` : ''}`}`);
  }
  if (m.clean.length === 2) out.push(`${m.unstable.length ? '✗' : '✓'} the two correct runs agree on every check${m.unstable.length ? `: not on ${m.unstable.slice(0, 5).join('; ')}` : ''}`);
  const caught = m.faults.filter((v) => v.caught).length;
  out.push(`${m.ok ? '✓' : '✗'} ${caught} of ${m.faults.length} faulty deployments caught on an expected requirement (controls: passed) in ${(m.durationMs / 1000).toFixed(0)} s`);
  return out.join('\n');
}


// ---- Legal variants: the mirror of the faults ----

export interface VariantVerdict {
  id: string;
  description: string;
  areas: string[];
  allowedWarnings: string[];
  exitCode: number;
  /** Requirements failed or warned, in catalogue order. */
  failed: RequirementId[];
  /** Those not allowed by the variant: each is a check narrower than SPEC.md. */
  unexpected: RequirementId[];
  /** What the checks behind `unexpected` said (first line each), for whoever widens them. */
  messages: string[];
  suiteErrors: string[];
  /** Answers the variant's choice made: 0 means the run never saw it, and proves nothing. */
  applied: number;
  /** Exit status of the same run as a user's run (without --strict) judges it: a legal variant passes, 0. */
  userExitCode: number;
  /** Why the choice may not show today (the variant's `quietWhy`). */
  quietWhy?: string;
  passed: boolean;
  requests: number;
  durationMs: number;
  error?: string;
}

export interface VariantMatrixResult {
  variants: VariantVerdict[];
  ok: boolean;
  durationMs: number;
}

/**
 * Every legal variant behind its own proxy, checked with --strict over the areas its choice concerns.
 * A variant passes when nothing fails or warns but the SHOULDs it allows, no check errs, its choice
 * showed in at least one answer, and the same run judged as a user's (without --strict) exits 0.
 */
export async function runVariants(options: Omit<MatrixOptions, 'faults' | 'skipCleanRuns'> & { variants?: Variant[] }): Promise<VariantMatrixResult> {
  const started = Date.now();
  const print = options.print ?? (() => undefined);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const variants = options.variants ?? VARIANTS;
  const { target, run, behindProxy } = await startBench(options.workDir, timeoutMs);
  try {
    const verdicts: VariantVerdict[] = [];
    for (const [n, variant] of variants.entries()) {
      const t0 = Date.now();
      const verdict: VariantVerdict = {
        id: variant.id, description: variant.description, areas: variant.areas, allowedWarnings: variant.allowedWarnings,
        exitCode: 2, userExitCode: 2, failed: [], unexpected: [], messages: [], suiteErrors: [], applied: 0, quietWhy: variant.quietWhy, passed: false, requests: 0, durationMs: 0,
      };
      // Every request passes the request hook: that is where the proxy's memory (the applied count) is seen.
      let state: Map<string, unknown> | undefined;
      const hooks: FaultHooks = {
        ...variant,
        request: async (req, ctx) => { state = ctx.state; await variant.request?.(req, ctx); },
      };
      try {
        const result = await behindProxy(hooks, (t, proxy) => run(t, variant.areas, timeoutMs, variant.id, GENERATED, proxy.url), true);
        verdict.exitCode = result.exitCode;
        verdict.requests = result.requestCount;
        verdict.failed = result.requirements.filter((q) => q.outcome === 'fail' || q.outcome === 'warn').map((q) => q.id);
        verdict.unexpected = verdict.failed.filter((id) => !variant.allowedWarnings.includes(id));
        verdict.messages = result.checks
          .filter((c) => (c.outcome === 'fail' || c.outcome === 'warn') && c.requirementIds.some((id) => verdict.unexpected.includes(id)))
          .map((c) => `${c.id}: ${(c.failure?.message ?? c.reason ?? '').split('\n').filter(Boolean).slice(0, 3).join(' | ').slice(0, 300)}`);
        verdict.suiteErrors = result.checks.filter((c) => c.outcome === 'error').map((c) => `${c.id}: ${c.failure?.message.split('\n')[0].slice(0, 160) ?? c.reason ?? ''}`);
        verdict.applied = (state?.get(APPLIED) as number | undefined) ?? 0;
        // A user's run of a legal deployment passes: the SHOULDs it may break only warn there.
        verdict.userExitCode = judgedAt(result, false).exitCode;
        verdict.passed = result.exitCode !== 2 && !verdict.unexpected.length && !verdict.suiteErrors.length && (verdict.applied > 0 || !!variant.quietWhy)
          && (result.exitCode === 0 || verdict.failed.length > 0) && verdict.userExitCode === 0;
      } catch (err) {
        verdict.error = (err as Error).message;
      }
      verdict.durationMs = Date.now() - t0;
      verdicts.push(verdict);
      const what = verdict.passed
        ? `passed${verdict.failed.length ? ` (allowed: ${verdict.failed.join(', ')})` : ''}, ${verdict.applied ? `its choice made ${verdict.applied} answers` : `its choice did not show: ${variant.quietWhy}`}`
        : verdict.error ? `run failed: ${verdict.error}`
          : verdict.applied === 0 ? `its choice never showed (0 answers): proves nothing${verdict.unexpected.length ? `; failed ${verdict.unexpected.join(', ')}` : ''}`
            : `FAILED though legal: ${verdict.unexpected.join(', ') || `exit ${verdict.exitCode}, without --strict ${verdict.userExitCode}`}${verdict.suiteErrors.length ? `; suite errors: ${verdict.suiteErrors.length}` : ''}`;
      print(`  [${String(n + 1).padStart(String(variants.length).length)}/${variants.length}] ${verdict.passed ? '✓' : '✗'} ${variant.id}: ${what} (${(verdict.durationMs / 1000).toFixed(1)} s)`);
      if (!verdict.passed) for (const m of verdict.messages.slice(0, 4)) print(`        ${m}`);
    }
    return { variants: verdicts, ok: verdicts.every((v) => v.passed), durationMs: Date.now() - started };
  } finally {
    await target.close();
  }
}

/** The variant matrix as a table: variant → areas → failed or warned (allowed marked) → verdict. */
export function renderVariants(m: VariantMatrixResult): string {
  const rows = m.variants.map((v) => {
    const failed = v.error ? `run failed: ${v.error}` : v.failed.length ? v.failed.map((id) => (v.allowedWarnings.includes(id) ? `${id} (allowed)` : id)).join(', ') : '—';
    return [v.id, v.areas.join(','), `${failed}${v.applied ? '' : v.quietWhy ? ' [choice did not show]' : ' [choice never showed]'}`, v.passed ? '✓' : '✗'];
  });
  const head = ['variant', 'areas', 'failed or warned', ''];
  const widths = head.map((h, i) => Math.min(i === 2 ? 60 : 48, Math.max(h.length, ...rows.map((r) => r[i].length))));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ').trimEnd();
  const out = [line(head), line(widths.map((w) => '-'.repeat(w)))];
  for (const r of rows) out.push(line(r));
  out.push('');
  const passed = m.variants.filter((v) => v.passed).length;
  out.push(`${m.ok ? '✓' : '✗'} ${passed} of ${m.variants.length} legal variants passed (--strict: only the SHOULDs a variant names may fail; without --strict: exit 0) in ${(m.durationMs / 1000).toFixed(0)} s`);
  return out.join('\n');
}
