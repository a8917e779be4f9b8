// Runs the scenario files with vitest's programmatic API: one file per area, one after another in
// one worker (so the client's pacing holds for the whole run), the run's configuration provided to
// the files, vitest's own output replaced by the collector's progress lines.
import { createVitest, startVitest, type Reporter, type TestCase, type Vitest } from 'vitest/node';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { Collector } from './collector.ts';
import type { SuiteConfig } from '../data/config.ts';

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

/** The scenario files of these areas that exist. */
const filesOf = (areas: readonly string[]) => areas.map(scenarioFile).filter((f) => existsSync(ROOT + f));

/** Vitest as the run drives it, whether it runs the checks or only collects them (--list). */
function vitestOptions(config: SuiteConfig, files: string[], reporters: Reporter[]) {
  return {
    watch: false,
    run: true,
    config: false as const,
    root: ROOT,
    reporters,
    include: files,
    setupFiles: ['suite/scenario/setup.ts'],
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: config.timeoutMs * 4 + 130_000,
    hookTimeout: config.timeoutMs * 4 + 130_000,
    provide: { conformance: config },
    // The run's verdict comes from the collected results, not from vitest's exit code.
    passWithNoTests: true,
    // Nothing is written beside the scenarios: an installed package's folder may be read-only.
    cache: false as const,
  };
}

/**
 * The checks the scenario files register under this configuration, without running a check or a
 * setup (nothing is sent): vitest imports the files and reads what they declare.
 */
export async function collectChecks(config: SuiteConfig, areas: readonly string[]): Promise<TestCase[]> {
  const files = filesOf(areas);
  const vitest = await createVitest('test', vitestOptions(config, files, []), { logLevel: 'error' });
  try {
    const { testModules, unhandledErrors } = await vitest.collect(files);
    const broken = testModules.flatMap((m) => m.errors()).concat(unhandledErrors as never[]);
    if (broken.length) throw new Error(`could not read the scenario files: ${String((broken[0] as { message?: string }).message ?? broken[0]).split('\n')[0]}`);
    return testModules.flatMap((m) => [...m.children.allTests()]);
  } finally {
    await vitest.close();
  }
}

export async function runScenarios(config: SuiteConfig, areas: readonly string[], opts: RunOptions): Promise<Collector> {
  const files = filesOf(areas);
  const ours = new Map((['SIGINT', 'SIGTERM'] as const).map((signal) => [signal, new Set(process.listeners(signal))]));
  let vitest: Vitest | undefined;
  const cancel = () => { void vitest?.cancelCurrentRun('keyboard-input').catch(() => undefined); };
  const collector = new Collector(opts.print, (v) => {
    vitest = v;
    // Vitest installs its own SIGINT/SIGTERM exit; the command's handlers decide instead (cleanup first).
    for (const [signal, keep] of ours) for (const listener of process.listeners(signal)) if (!keep.has(listener)) process.off(signal, listener);
    if (opts.stopping.aborted) cancel();
  }, opts.strict);
  opts.stopping.addEventListener('abort', cancel, { once: true });
  const finished = startVitest('test', files, vitestOptions(config, files, [collector]), { logLevel: 'error' }).then((v) => v.close(), (err: Error) => { throw new Error(`could not start the scenarios: ${err.message}`); });
  // Once stopping, the running check gets a bounded grace; what has not ended by then is left behind
  // (the command exits, which ends the workers).
  const gaveUp = new Promise<void>((resolve) => {
    const arm = () => setTimeout(resolve, opts.graceMs).unref();
    if (opts.stopping.aborted) arm(); else opts.stopping.addEventListener('abort', arm, { once: true });
  });
  await Promise.race([finished, gaveUp]);
  return collector;
}
