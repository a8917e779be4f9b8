// The checks a stopped run never reached. Vitest reports only the files it started: after Ctrl-C or
// the deadline, the areas still waiting their turn would vanish from the reports, and a JUnit with
// half the testcases and no failure reads as green. Their scenario files are collected (imported,
// nothing run, nothing sent) under the run's configuration, and every check the collector did not
// see becomes "not run" with the stop's reason (or the flag it lacks, as in a whole run).
import { devNull } from 'node:os';
import { basename } from 'node:path';
import type { SuiteConfig } from '../data/config.ts';
import { missingOf, needsText, type Prerequisite } from '../data/prerequisites.ts';
import type { RawCheck } from '../results/results.ts';
import { collectChecks } from './vitest.ts';

/** The identity of a check across a run and a collection: its area and its title. */
export const checkKey = (c: Pick<RawCheck, 'area' | 'title'>) => `${c.area}: ${c.title}`;

/**
 * Every check of `areas`, as "not run: <reason>" (or the flag it lacks): started as soon as the run
 * is told to stop, so that the reading overlaps the grace of the check still running.
 */
export async function listedAsNotRun(config: SuiteConfig, areas: readonly string[], reason: string): Promise<RawCheck[]> {
  // Should any file try to send while being read, the run is over: its deadline is past, no ledger.
  const reading: SuiteConfig = { ...config, deadlineAt: 0, ledgerFile: devNull, stopFile: devNull };
  return (await collectChecks(reading, areas)).map((test) => {
    const meta = test.meta();
    const lacks = missingOf(config, (meta.needs ?? []) as Prerequisite[]);
    return {
      area: basename(test.module.moduleId).replace(/\.test\.ts$/, ''), title: test.name, requirementIds: meta.requirementIds ?? [],
      state: 'skipped', durationMs: 0, notRun: lacks.length ? needsText(lacks) : reason, exchanges: [],
    };
  });
}

/** The checks of `listed` that `seen` lacks (each once). */
export function unfinished(seen: readonly RawCheck[], listed: readonly RawCheck[]): RawCheck[] {
  const known = new Set(seen.map(checkKey));
  return listed.filter((c) => !known.has(checkKey(c)) && known.add(checkKey(c)));
}
