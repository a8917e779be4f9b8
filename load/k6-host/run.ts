// The k6 engine as the CLI drives it: build the bundle, run `k6 run` on it with the LOAD_*
// environment (the key goes in the environment, never on a command line that `ps` shows), then
// build our summary from k6's own data. k6 prints its own end-of-test summary (LOAD_SUMMARY=k6
// tells the bundle's handleSummary to leave it), and writes the same aggregates as JSON
// (`--summary-export`); its per-request output (`--out json`) adds what aggregates lack: the
// timeline, the histograms, the time of the first 429 and the rate achieved. Both files go to a
// temporary directory that is removed afterwards (the per-request file is large).
import { spawn } from 'node:child_process';
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

/** k6's exit status when thresholds failed (the run itself completed). */
export const K6_THRESHOLDS_FAILED = 99;
/** k6's exit status when the script aborted the run (exec.test.abort). */
export const K6_SCRIPT_ABORTED = 108;

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

export async function runK6(o: K6RunOptions & { work?: K6Work }): Promise<{ summary: LoadSummary; exitCode: number }> {
  const c = o.config;
  const { dir: work, bundleDir } = o.work ?? await prepareK6(o.seed);
  try {
    const exportFile = join(work, 'summary-export.json');
    const outputFile = join(work, 'points.ndjson');
    // Our own LOAD_* take precedence over whatever the shell exported.
    const env: NodeJS.ProcessEnv = { ...process.env, ...k6Env(o) };
    const exitCode = await new Promise<number>((done, fail) => {
      // In a log (not a terminal) k6 would print its progress bars every second: --quiet keeps its summary only.
      const quiet = process.stdout.isTTY ? [] : ['--quiet'];
      const args = ['run', ...quiet, '--summary-export', exportFile, '--out', `json=${outputFile}`, join(bundleDir, `${c.tier}.js`)];
      const child = spawn(o.k6, args, { env, stdio: 'inherit' });
      child.on('error', fail);
      child.on('exit', (code, signal) => done(code ?? (signal ? 130 : 1)));
    });
    if (!existsSync(exportFile)) throw new Error(`k6 exited with status ${exitCode} without writing its summary`);
    const schedule = buildSchedule(c);
    const summary = fromK6Summary(fromSummaryExport(JSON.parse(readFileSync(exportFile, 'utf8'))), {
      config: c, schedule, thresholds: defaultThresholds(c), baseUrl: o.baseUrl, seed: o.seed, now: Date.now(), optionName: flagName,
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
    }
    return { summary, exitCode };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
