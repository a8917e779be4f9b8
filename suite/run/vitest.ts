// Runs the scenario files with vitest's programmatic API: one file per area, one after another in
// one worker (so the client's pacing holds for the whole run), the run's configuration provided to
// the files, vitest's own output replaced by the collector's progress lines.
import { startVitest } from 'vitest/node';
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
  deadlineMs: number;
  /** Called at once on Ctrl-C (or SIGTERM): the caller notes that the run is stopping. */
  onSignal?: () => void;
  /** Called on Ctrl-C, once the scenarios stopped (at most 3 s later); it cleans up and exits. */
  onInterrupt: () => Promise<void>;
}

export async function runScenarios(config: SuiteConfig, areas: string[], opts: RunOptions) {
  const files = areas.map(scenarioFile).filter((f) => existsSync(ROOT + f));
  // Vitest installs its own SIGINT exit; the run takes the signal back so that cleanup happens first.
  const collector = new Collector(opts.print, (vitest) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      for (const listener of process.listeners(signal)) process.off(signal, listener);
      process.once(signal, () => {
        opts.onSignal?.();
        // Let the running test stop first (bounded), so that nothing is created after cleanup reads the ledger.
        const stopped = vitest.cancelCurrentRun('keyboard-input').catch(() => undefined);
        void Promise.race([stopped, new Promise((r) => setTimeout(r, 3000))]).then(() => opts.onInterrupt());
      });
    }
  });
  const vitest = await startVitest('test', files, {
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
  }, { logLevel: 'error' }).catch((err: Error) => { throw new Error(`could not start the scenarios: ${err.message}`); });
  const timer = setTimeout(() => { void vitest.cancelCurrentRun('keyboard-input'); }, opts.deadlineMs);
  try {
    await vitest.close();
  } finally {
    clearTimeout(timer);
  }
  return collector;
}
