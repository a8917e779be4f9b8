// Runs the scenario files with vitest's programmatic API: one file per area, one after another in
// one worker (so the client's pacing holds for the whole run), the run's configuration provided to
// the files, vitest's own output replaced by the collector's progress lines.
import { startVitest, type Vitest } from 'vitest/node';
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
}

export async function runScenarios(config: SuiteConfig, areas: readonly string[], opts: RunOptions): Promise<Collector> {
  const files = areas.map(scenarioFile).filter((f) => existsSync(ROOT + f));
  const ours = new Map((['SIGINT', 'SIGTERM'] as const).map((signal) => [signal, new Set(process.listeners(signal))]));
  let vitest: Vitest | undefined;
  const cancel = () => { void vitest?.cancelCurrentRun('keyboard-input').catch(() => undefined); };
  const collector = new Collector(opts.print, (v) => {
    vitest = v;
    // Vitest installs its own SIGINT/SIGTERM exit; the command's handlers decide instead (cleanup first).
    for (const [signal, keep] of ours) for (const listener of process.listeners(signal)) if (!keep.has(listener)) process.off(signal, listener);
    if (opts.stopping.aborted) cancel();
  });
  opts.stopping.addEventListener('abort', cancel, { once: true });
  const finished = startVitest('test', files, {
    watch: false,
    run: true,
    config: false,
    root: ROOT,
    reporters: [collector],
    include: files,
    setupFiles: ['suite/scenario/setup.ts'],
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: config.timeoutMs * 4 + 130_000,
    hookTimeout: config.timeoutMs * 4 + 130_000,
    provide: { conformance: config },
    // The run's verdict comes from the collected results, not from vitest's exit code.
    passWithNoTests: true,
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
  if (!ended) void vitest?.close().catch(() => undefined);
  return collector;
}
