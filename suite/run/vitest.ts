// Runs the scenario files with vitest's programmatic API: one file per area, one after another in
// one worker (so the client's pacing holds for the whole run; the rate-limit area, which spends a key
// of its own, in a second lane beside it), the run's configuration provided to the files, vitest's
// own output replaced by the collector's progress lines.
import { createVitest, startVitest, type Reporter, type SerializedError, type TestCase, type TestModule, type Vitest } from 'vitest/node';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { Collector } from './collector.ts';
import type { SuiteConfig } from '../data/config.ts';
import { endKeptThread, keptThreadPool } from './kept-thread.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export function scenarioFile(area: string): string {
  return `scenarios/${area}.test.ts`;
}

export interface RunOptions {
  print: (line: string) => void;
  /** Aborted when the run must stop (deadline, Ctrl-C): checks not yet started are cancelled. */
  stopping: AbortSignal;
  /** How long, once stopping, to wait for the running check to end before giving up on it. */
  graceMs: number;
  /** --strict: the progress marks a broken SHOULD as failed, not warned. */
  strict?: boolean;
}

/** A Vitest kept between runs (the self-test's matrices): its server, config and transforms are made once. */
interface Runner { vitest: Vitest; relay: Relay }
let kept: Promise<Runner> | undefined;

/** Forwards vitest's reports to the collector of the run under way (one at a time). */
class Relay implements Reporter {
  current?: Collector;
  onTestCaseResult(test: TestCase): void { this.current?.onTestCaseResult(test); }
  onTestModuleEnd(module: TestModule): void { this.current?.onTestModuleEnd(module); }
  onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<SerializedError>): void { this.current?.onTestRunEnd(modules, errors); }
}

const OPTIONS = {
  watch: false,
  config: false as const,
  root: ROOT,
  setupFiles: ['suite/scenario/setup.ts'],
  // One file after another in one worker: the client's pacing holds for the whole run.
  fileParallelism: false,
  // The areas of a lane share that worker and its modules: the documents are loaded and their
  // validators compiled once a run, not once an area (each area's file is still imported afresh).
  isolate: false,
  maxWorkers: 1,
  // Each lane's worker is a thread of the command, not a process of its own: a process would hold a
  // second copy of Node and its start-up (about 50 MB each), and the tree must fit a small CI
  // container (docs/benchmarks.md, "Memory"). A check that never yields is still ended with its
  // worker (a thread is terminated as a process was). A thread also skips a process's start and its
  // loaders: the self-test's hundred-odd runs cost a third less CPU so (12 faults: 32.7 CPU-s, 49.8
  // with processes).
  pool: 'threads' as const,
  // The run's verdict comes from the collected results, not from vitest's exit code.
  passWithNoTests: true,
  // Nothing is written beside the scenarios: an installed package's folder may be read-only.
  cache: false as const,
};
/**
 * The young generation of the isolates made from now on (the scenario workers' threads) at 2 MB a
 * semi-space instead of V8's 16: their answers are short-lived and a smaller nursery is collected
 * sooner, about 25 MB less per worker at the same CPU time (docs/benchmarks.md, "Memory"). V8 reads
 * the flag when it makes an isolate, so the command's own heap, already made, is not touched; vitest
 * gives its threads no resource limits of their own to set instead.
 */
function smallNursery(): void {
  setFlagsFromString('--max-semi-space-size=2');
}
const timeoutOf = (config: SuiteConfig) => config.timeoutMs * 4 + 130_000;

/**
 * Keeps one Vitest for the runs that follow, until the returned function closes it. A run then costs
 * its checks, not vitest's start (a vite server, the config, the transforms of every file): the
 * self-test makes over a hundred runs in one process.
 */
export function keepScenarioRunner(): () => Promise<void> {
  smallNursery();
  kept ??= (async () => {
    const relay = new Relay();
    const vitest = await createVitest('test', { ...OPTIONS, pool: keptThreadPool, run: true, reporters: [relay], include: ['scenarios/*.test.ts'] }, { logLevel: 'error' });
    await vitest.standalone();
    return { vitest, relay };
  })();
  const mine = kept;
  return async () => {
    if (kept !== mine) return;
    kept = undefined;
    await (await mine).vitest.close();
    await endKeptThread();
  };
}

/**
 * The checks the scenario files register under this configuration, without running a check or a
 * setup (nothing is sent): vitest imports the files and reads what they declare.
 */
export async function collectChecks(config: SuiteConfig, areas: readonly string[]): Promise<TestCase[]> {
  const files = areas.map(scenarioFile).filter((f) => existsSync(ROOT + f));
  smallNursery();
  // Read while a stopped run cleans up too (suite/run/unfinished.ts): Vitest's own SIGINT exit must
  // not take the command's Ctrl-C handling away (a second press would kill the cleanup, exit 130).
  const dropTheirs = keepOurSignalHandlers();
  // Its logger registers that exit (process.once) while it is made: a Ctrl-C in that second would
  // end the command, so the registration is not made at all.
  const once = process.once;
  process.once = function (this: NodeJS.Process, event: string | symbol, listener: (...args: any[]) => void) {
    return event === 'SIGINT' || event === 'SIGTERM' ? this : once.call(this, event, listener);
  } as typeof process.once;
  const vitest = await createVitest('test', {
    ...OPTIONS, run: true, reporters: [], include: files, testTimeout: timeoutOf(config), hookTimeout: timeoutOf(config), provide: { conformance: config },
  }, { logLevel: 'error' }).finally(() => { process.once = once; });
  dropTheirs();
  try {
    const { testModules, unhandledErrors } = await vitest.collect(files);
    dropTheirs();
    const broken = testModules.flatMap((m) => m.errors()).concat(unhandledErrors as never[]);
    if (broken.length) throw new Error(`could not read the scenario files: ${String((broken[0] as { message?: string }).message ?? broken[0]).split('\n')[0]}`);
    return testModules.flatMap((m) => [...m.children.allTests()]);
  } finally {
    await vitest.close();
  }
}

/**
 * The areas in lanes that may run at once. The rate-limit area spends only a key of its own, without
 * pacing, and waits out a whole rate window (a minute on a real plan) for RATE-3: beside it, the other
 * areas run on in a second worker, paced on the main key as before. Every other area shares the main
 * key's pacing and the run's data, so they stay in one worker, one file after another.
 */
export function lanesOf(areas: readonly string[]): string[][] {
  const alone = areas.filter((a) => a === 'rate-limit');
  const rest = areas.filter((a) => a !== 'rate-limit');
  return alone.length && rest.length ? [alone, rest] : [[...areas]];
}

export async function runScenarios(config: SuiteConfig, areas: readonly string[], opts: RunOptions): Promise<Collector> {
  // A kept Vitest runs one run at a time (the self-test, where rate windows are short): one lane.
  const lanes = kept ? [[...areas]] : lanesOf(areas);
  smallNursery();
  // A Vitest per lane: vitest 4.1 cannot hold both lanes in one. It gives a project's files one
  // worker only when the project's maxWorkers is 1, and that maxWorkers bounds its whole group, so
  // two such projects in one group run one after the other; two runs of one Vitest queue too.
  const collectors = await Promise.all(lanes.map((lane) => runLane(config, lane, opts)));
  return collectors.reduce((all, c) => all.absorb(c));
}

/** Removes, each time it is called, the SIGINT/SIGTERM listeners added since: Vitest installs its own exit; the command's handlers decide instead (cleanup first). */
function keepOurSignalHandlers(): () => void {
  const ours = new Map((['SIGINT', 'SIGTERM'] as const).map((signal) => [signal, new Set(process.listeners(signal))]));
  return () => { for (const [signal, keep] of ours) for (const listener of process.listeners(signal)) if (!keep.has(listener)) process.off(signal, listener); };
}

async function runLane(config: SuiteConfig, areas: readonly string[], opts: RunOptions): Promise<Collector> {
  const files = areas.map(scenarioFile).filter((f) => existsSync(ROOT + f));
  const dropTheirs = keepOurSignalHandlers();
  let vitest: Vitest | undefined;
  const cancel = () => { void vitest?.cancelCurrentRun('keyboard-input').catch(() => undefined); };
  const collector = new Collector(opts.print, (v) => {
    vitest = v;
    dropTheirs();
    if (opts.stopping.aborted) cancel();
  }, opts.strict);
  opts.stopping.addEventListener('abort', cancel, { once: true });
  const finished = kept ? runKept(await kept, collector, config, files) : startVitest('test', files, {
    ...OPTIONS,
    run: true,
    reporters: [collector],
    include: files,
    testTimeout: timeoutOf(config),
    hookTimeout: timeoutOf(config),
    provide: { conformance: config },
  }, { logLevel: 'error' }).then((v) => v.close(), (err: Error) => { throw new Error(`could not start the scenarios: ${err.message}`); });
  // Once stopping, the running check gets a bounded grace; what has not ended by then is left behind
  // (the command exits, which ends the workers).
  const gaveUp = new Promise<void>((resolve) => {
    const arm = () => setTimeout(resolve, opts.graceMs).unref();
    if (opts.stopping.aborted) arm(); else opts.stopping.addEventListener('abort', arm, { once: true });
  });
  const ended = await Promise.race([finished.then(() => true), gaveUp.then(() => false)]);
  // A check that never yields (a loop in a worker) keeps its worker, and a process that goes on (the
  // self-test's matrices), busy: the workers are ended with the run.
  // A kept Vitest is closed too, and forgotten: the runs after this one start their own.
  if (!ended) {
    if (kept) kept = undefined;
    void vitest?.close().catch(() => undefined);
  }
  return collector;
}

/** One run on the kept Vitest: this run's configuration provided, its files run, its collector told. */
async function runKept({ vitest, relay }: Runner, collector: Collector, config: SuiteConfig, files: string[]): Promise<void> {
  const project = vitest.getRootProject();
  project.provide('conformance', config);
  for (const c of [vitest.config, project.config]) Object.assign(c, { testTimeout: timeoutOf(config), hookTimeout: timeoutOf(config) });
  relay.current = collector;
  collector.onInit(vitest);
  try {
    await vitest.runTestSpecifications(files.map((f) => project.createSpecification(ROOT + f)), false);
  } finally {
    relay.current = undefined;
  }
}
