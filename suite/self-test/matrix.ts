// The faults' family (faults.ts): the correct deployment checked over every area twice (directly and
// through a pass-through proxy: both clean, same verdict for every check), then every fault of the
// catalogue behind its own proxy, checked over the areas it concerns (the checks of the requirements
// it names: checksOf) with --strict (a broken SHOULD counts) by the one runner (runner.ts). A fault
// is caught when the run fails (exit 1) on each of its
// expected requirements (one of them for "any MUST"), at the level a user's run (without --strict)
// charges it: a fault that expects a MUST must fail a MUST; one caught by SHOULDs alone warns, and is
// said to. What else it failed is shown ("also failed"). `npm test` and `--self-test` both run this.
import { AREAS, PER_RESPONSE, requirement, type Level, type RequirementId, type SelectableArea } from '../../contract/requirements.ts';
import { judgedAt, type Outcome, type RunResult } from '../results/results.ts';
import { FAULTS, type Fault } from './faults.ts';
import { startBench } from './bench.ts';
import { markedFailed, runFamily, type Family, type FamilyResult, type RunFamilyOptions, type Verdict } from './runner.ts';

export interface FaultVerdict extends Verdict {
  expected: RequirementId[];
  expectedLabel?: string;
  /** The expected requirements among the failed. */
  caughtBy: RequirementId[];
  /** Requirements failed beyond the expected ones: a fault that fails another requirement than it claims shows here. */
  alsoFailed: RequirementId[];
  /**
   * The level at which a user's run charges the catch: MUST (the run fails), SHOULD (it warns and may
   * pass: only --strict fails it). Undefined when not caught.
   */
  caughtAs?: Level;
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

export interface MatrixResult extends FamilyResult<FaultVerdict> {
  clean: CleanRun[];
  /** Checks whose verdict differed between the two correct runs. */
  unstable: string[];
}

export interface MatrixOptions extends RunFamilyOptions {
  faults?: Fault[];
  /** Skip the two correct runs (for trying faults alone). */
  skipCleanRuns?: boolean;
  /** The areas of the correct runs (default: every area, the generated one included; --self-test --only narrows them). */
  cleanAreas?: readonly SelectableArea[];
}

const order = <T extends string>(ids: Iterable<T>): T[] => {
  const set = new Set(ids);
  return [...set].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
};

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
function schedule(faults: readonly Fault[]): Fault[] {
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

/**
 * The checks a fault's run makes: its `only`, else the checks of its expected requirements (those
 * checked on every answer, ENV-* and CONTRACT-*, ride along), so that a catch is made by the checks
 * the fault names and the run sends about half the requests (measured: 185.8 → 119.9 CPU-s over 111
 * faults, each caught by the same requirements). Controls, "any MUST" faults, faults naming only
 * per-answer requirements and rate-limit faults (whose checks share one measurement) run their areas whole.
 */
export function checksOf(f: Pick<Fault, 'only' | 'expected' | 'expectedLabel' | 'areas'>): RequirementId[] | undefined {
  if (f.only?.length) return f.only;
  if (!f.expected.length || f.expectedLabel || f.areas.includes('rate-limit')) return undefined;
  const named = f.expected.filter((id) => !PER_RESPONSE.includes(id));
  return named.length ? named : undefined;
}

const shorten = (ids: string[], max = 6) => (ids.length > max ? `${ids.slice(0, max).join(', ')}, … (+${ids.length - max})` : ids.join(', '));

export const faultFamily = (faults: readonly Fault[]): Family<Fault, FaultVerdict> => ({
  name: 'faults', entry: 'fault', column: 'expected', entries: faults, schedule,
  hooks: (fault) => fault,
  plan: (fault) => ({ timeoutMs: fault.timeoutMs, generated: fault.generated, only: checksOf(fault) }),
  judge(fault, v, runs) {
    Object.assign(v, { expected: fault.expected, expectedLabel: fault.expectedLabel, caughtBy: [], alsoFailed: [] });
    const result = runs[0]?.result;
    if (!result) return;
    v.caughtBy = v.failed.filter((id) => fault.expected.includes(id));
    v.alsoFailed = v.failed.filter((id) => !fault.expected.includes(id));
    v.caughtAs = caughtAt(fault, v.caughtBy, judgedAt(result, false)).caughtAs;
    const each = fault.expectedLabel ? v.caughtBy.length > 0 : v.caughtBy.length === fault.expected.length;
    v.ok = fault.expected.length
      ? result.exitCode === 1 && each && v.caughtAs !== undefined
      : result.exitCode === 0 && v.userExitCode === 0 && !v.failed.length && !v.suiteErrors.length;
  },
  line: (v) => (v.expected.length
    ? v.ok ? `caught by ${v.caughtBy.join(', ')}${v.caughtAs === 'SHOULD' ? ' (SHOULD: a run without --strict warns)' : ''}${v.alsoFailed.length ? `; also failed: ${shorten(v.alsoFailed)}` : ''}`
      : `NOT caught (failed: ${v.failed.join(', ') || 'nothing'}${v.expectedLabel ? '' : `; expected, each: ${v.expected.join(', ')}`}; exit ${v.exitCode}, without --strict ${v.userExitCode})`
    : v.ok ? 'passed, as a correct deployment must' : `FAILED though correct (failed: ${v.failed.join(', ') || 'nothing'}; exit ${v.exitCode})`),
  cells: (v) => [v.expectedLabel ?? (v.expected.length ? v.expected.join(', ') : '(control: must pass)'), v.failed.length > 6 ? shorten(v.failed) : markedFailed(v, v.expected)],
  total: (vs, ms) => [`${vs.every((v) => v.ok) ? '✓' : '✗'} ${vs.filter((v) => v.ok).length} of ${vs.length} faulty deployments caught on each expected requirement (controls: passed) in ${(ms / 1000).toFixed(0)} s`],
});

export async function runMatrix(options: MatrixOptions): Promise<MatrixResult> {
  const print = options.print ?? (() => undefined);
  const bench = await startBench(options.workDir, options.timeoutMs);
  try {
    const clean: CleanRun[] = [];
    for (const [label, via] of options.skipCleanRuns ? [] : [['correct deployment, direct', false], ['correct deployment, through a pass-through proxy', true]] as const) {
      const t0 = Date.now();
      const runOptions = { areas: options.cleanAreas ?? AREAS, label };
      const result = via ? await bench.behindProxy({}, (t) => bench.run(t, runOptions), true) : await bench.run(bench.target, runOptions);
      const outcomes: Record<string, Outcome> = {};
      for (const c of result.checks) outcomes[c.id] = c.outcome;
      const bad = result.checks.filter((c) => ['fail', 'error', 'warn', 'not-run'].includes(c.outcome)).map((c) => `${c.id}: ${c.outcome}${c.failure ? ` (${c.failure.message.split('\n')[0].slice(0, 160)})` : ''}`);
      const requirements: CleanRun['requirements'] = {};
      for (const q of result.requirements) requirements[q.id] = q.outcome;
      const entry: CleanRun = { label, exitCode: result.exitCode, bad, outcomes, requirements, checks: result.checks.length, durationMs: Date.now() - t0, clean: result.exitCode === 0 && !bad.length };
      clean.push(entry);
      print(`  ${entry.clean ? '✓' : '✗'} ${label}: ${entry.checks} checks, ${entry.clean ? 'all pass' : `${bad.length} not passing`} (${(entry.durationMs / 1000).toFixed(1)} s)`);
    }
    const unstable: string[] = [];
    if (clean.length === 2) {
      const [a, b] = clean;
      for (const id of order([...Object.keys(a.outcomes), ...Object.keys(b.outcomes)])) {
        if (a.outcomes[id] !== b.outcomes[id]) unstable.push(`${id}: ${a.outcomes[id] ?? 'absent'} then ${b.outcomes[id] ?? 'absent'}`);
      }
    }
    const m = await runFamily(faultFamily(options.faults ?? FAULTS), { ...options, bench });
    const cleanLines = clean.map((c) => `${c.clean ? '✓' : '✗'} ${c.label}: ${c.checks} checks, ${c.clean ? 'every one passed or skipped' : `not passing: ${c.bad.slice(0, 5).join('; ')}${c.bad.length > 5 ? ` … (+${c.bad.length - 5})` : ''}`}`);
    if (clean.length === 2) cleanLines.push(`${unstable.length ? '✗' : '✓'} the two correct runs agree on every check${unstable.length ? `: not on ${unstable.slice(0, 5).join('; ')}` : ''}`);
    m.family.total.unshift(...cleanLines);
    return { ...m, clean, unstable, ok: m.ok && clean.every((c) => c.clean) && !unstable.length };
  } finally {
    await bench.target.close();
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

