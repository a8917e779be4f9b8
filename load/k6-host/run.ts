// The k6 engine as the CLI drives it: build the bundle, run `k6 run` on it with the LOAD_*
// environment (the key goes in the environment, never on a command line that `ps` shows), then
// build our summary from k6's own data. k6 prints its own end-of-test summary (LOAD_SUMMARY=k6
// tells the bundle's handleSummary to leave it), and writes the same aggregates as JSON
// (`--summary-export`); its per-request output (`--out json`) adds what aggregates lack: the
// timeline, the histograms, the time of the first 429 and the rate achieved. Both files go to a
// temporary directory that is removed afterwards (the per-request file is large).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { flagName, type LoadConfig } from '../model/config.ts';
import { buildSchedule } from '../model/schedule.ts';
import type { LoadSummary } from '../model/summary.ts';
import { defaultThresholds } from '../model/thresholds.ts';
import { buildLoadBundles } from '../build.ts';
import { fromK6Summary, fromSummaryExport } from '../k6/summary.ts';
import { readK6Output } from './output.ts';
import { judgeCompleteness } from '../model/complete.ts';
import { spawnTracked } from './children.ts';
import { describeEnd, ranToEnd, statusOf, type ProcessEnd } from './exit.ts';
export { K6_SCRIPT_ABORTED, K6_THRESHOLDS_FAILED } from './exit.ts';

export interface K6RunOptions {
  k6: string;
  config: LoadConfig;
  baseUrl: string;
  apiKey: string;
  seed?: number;
  keep?: boolean;
  allowLive?: boolean;
  embedded?: boolean;
}

/** The LOAD_* environment a bundle reads: the whole run's configuration. */
export function k6Env(o: Pick<K6RunOptions, 'config' | 'baseUrl' | 'apiKey' | 'keep' | 'allowLive' | 'embedded'>): Record<string, string> {
  const c = o.config;
  return {
    LOAD_BASE_URL: o.baseUrl, LOAD_API_KEY: o.apiKey,
    LOAD_RPM: String(c.rpm), LOAD_WINDOW_MS: String(c.windowMs), LOAD_DURATION: `${c.steadyMs + c.rampMs}ms`,
    LOAD_STEADY_FRACTION: String(c.steadyFraction), LOAD_RAMP_TO: String(c.rampTo), LOAD_TIMEOUT_MS: String(c.timeoutMs),
    ...(c.p95Ms !== undefined ? { LOAD_P95_MS: String(c.p95Ms) } : {}),
    ...(c.p99Ms !== undefined ? { LOAD_P99_MS: String(c.p99Ms) } : {}),
    LOAD_KEEP: o.keep || o.embedded ? 'true' : 'false', LOAD_ALLOW_LIVE: o.allowLive ? 'true' : 'false',
    LOAD_SUMMARY: 'k6',
  };
}

/** A run's working directory with its bundles built (the CLI builds them before its preflight request). */
export interface K6Work { dir: string; bundleDir: string }

export async function prepareK6(seed?: number): Promise<K6Work> {
  // The bundles of this run go with its other files, not into the user's folder (`npm run build:load`
  // makes dist/load for distributed runs).
  const dir = mkdtempSync(join(tmpdir(), 'load-k6-'));
  const bundleDir = join(dir, 'bundles');
  try {
    await buildLoadBundles({ outdir: bundleDir, seed });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return { dir, bundleDir };
}

/**
 * Runs k6 to its end. `exitCode` is k6's status (a signal's death as 128 + its number); `end` how
 * it ended. A k6 that did not run to its end (a signal, an error) leaves a summary without a
 * verdict (load/model/complete.ts), saying how it ended, with the caller's `causes` (an interrupt
 * it passed on: children.ts) first.
 */
export async function runK6(o: K6RunOptions & { work?: K6Work; causes?: () => string[] }): Promise<{ summary: LoadSummary; exitCode: number; end: ProcessEnd }> {
  const c = o.config;
  const { dir: work, bundleDir } = o.work ?? await prepareK6(o.seed);
  try {
    const exportFile = join(work, 'summary-export.json');
    const outputFile = join(work, 'points.ndjson');
    // Our own LOAD_* take precedence over whatever the shell exported.
    const env: NodeJS.ProcessEnv = { ...process.env, ...k6Env(o) };
    // In a log (not a terminal) k6 would print its progress bars every second: --quiet keeps its summary only.
    const quiet = process.stdout.isTTY ? [] : ['--quiet'];
    const args = ['run', ...quiet, '--summary-export', exportFile, '--out', `json=${outputFile}`, join(bundleDir, `${c.tier}.js`)];
    const end = await spawnTracked(o.k6, args, { env, stdio: 'inherit' }).end;
    const exitCode = statusOf(end);
    // Killed before its summary: what it sent is in its per-request output, if anything is.
    if (!existsSync(exportFile) && !existsSync(outputFile)) throw new Error(`k6: ${describeEnd(end)}, without writing its summary`);
    const exported = existsSync(exportFile) ? JSON.parse(readFileSync(exportFile, 'utf8')) : { metrics: {}, root_group: { checks: {} } };
    const schedule = buildSchedule(c);
    let summary = fromK6Summary(fromSummaryExport(exported), {
      config: c, schedule, thresholds: defaultThresholds(c), baseUrl: o.baseUrl, seed: o.seed, now: Date.now(), optionName: flagName, judge: false,
    });
    if (o.embedded) summary.target.embedded = true;
    if (existsSync(outputFile)) {
      // Every figure of the tables from k6's per-request output, by the same rule as the Node
      // runner's (k6's own: raw samples, linear interpolation): k6's aggregates have only what a
      // threshold names. The verdict stays k6's.
      const { recorder, dropped } = await readK6Output(outputFile, c, schedule);
      const seen = recorder.onset();
      summary.timeline = recorder.timeline();
      summary.histograms = recorder.histograms();
      summary.samples = recorder.sampleStore();
      const fromPoints = recorder.phaseResults();
      summary.phases = summary.phases.map((p) => {
        const s = fromPoints.find((x) => x.name === p.name);
        if (!s || !s.sent) return p;
        // k6 records no Retry-After per sample: its retry_after_on_429 rate counts the missing ones.
        const total = { ...s.total, retryAfterMissing: p.total.retryAfterMissing };
        const droppedIterations = dropped[p.name] ?? p.droppedIterations;
        return { ...p, sent: s.sent, achievedRps: s.achievedRps, endpoints: s.endpoints, total, ...(droppedIterations ? { droppedIterations } : {}) };
      });
      if (summary.onset.found && seen.found) summary.onset = { ...summary.onset, atMs: seen.atMs, phase: seen.phase, operationId: seen.operationId };
      if (!summary.onset.found && seen.found) summary.onset = seen;
    }
    // Short of the plan by k6's own account (its exit) or by the counts: no verdict.
    const causes = [...(o.causes?.() ?? []), ...(ranToEnd(end) || summary.aborted ? [] : [`k6: ${describeEnd(end)}${existsSync(exportFile) ? '' : ', no summary written'}`])];
    summary = judgeCompleteness(summary, causes);
    return { summary, exitCode, end };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
