// The k6 engine as the CLI drives it: build the bundle, run `k6 run` on it with the LOAD_*
// environment (the key goes in the environment, never on a command line that `ps` shows), then
// read the summary its handleSummary wrote and add what only k6's JSON output has.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { LoadConfig } from '../model/config.ts';
import { buildSchedule } from '../model/schedule.ts';
import type { LoadSummary } from '../model/summary.ts';
import { buildLoadBundles } from '../build.ts';
import { recorderFromK6Output } from './output.ts';

export interface K6RunOptions {
  k6: string;
  config: LoadConfig;
  baseUrl: string;
  apiKey: string;
  reportDir: string;
  seed?: number;
  keep?: boolean;
  allowLive?: boolean;
  embedded?: boolean;
}

/** k6's exit status when thresholds failed (the run itself completed). */
export const K6_THRESHOLDS_FAILED = 99;

export async function runK6(o: K6RunOptions): Promise<{ summary: LoadSummary; exitCode: number }> {
  const c = o.config;
  const bundleDir = resolve('dist', 'load');
  await buildLoadBundles({ outdir: bundleDir, seed: o.seed });
  mkdirSync(o.reportDir, { recursive: true });
  const summaryFile = join(o.reportDir, `load-${c.tier}.json`);
  const outputFile = join(o.reportDir, `k6-${c.tier}.ndjson`);
  rmSync(summaryFile, { force: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LOAD_BASE_URL: o.baseUrl, LOAD_API_KEY: o.apiKey, LOAD_REPORT_DIR: o.reportDir,
    LOAD_RPM: String(c.rpm), LOAD_WINDOW_MS: String(c.windowMs), LOAD_DURATION: `${c.steadyMs + c.rampMs}ms`,
    LOAD_STEADY_FRACTION: String(c.steadyFraction), LOAD_RAMP_TO: String(c.rampTo),
    ...(c.p95Ms !== undefined ? { LOAD_P95_MS: String(c.p95Ms) } : {}),
    ...(c.p99Ms !== undefined ? { LOAD_P99_MS: String(c.p99Ms) } : {}),
    LOAD_KEEP: o.keep || o.embedded ? 'true' : 'false', LOAD_ALLOW_LIVE: o.allowLive ? 'true' : 'false',
  };
  const exitCode = await new Promise<number>((done, fail) => {
    const child = spawn(o.k6, ['run', '--out', `json=${outputFile}`, join(bundleDir, `${c.tier}.js`)], { env, stdio: 'inherit' });
    child.on('error', fail);
    child.on('exit', (code, signal) => done(code ?? (signal ? 130 : 1)));
  });
  if (!existsSync(summaryFile)) throw new Error(`k6 exited with status ${exitCode} without writing ${summaryFile}`);
  const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as LoadSummary;
  if (o.embedded) summary.target.embedded = true;
  if (existsSync(outputFile)) {
    const recorder = await recorderFromK6Output(outputFile, c, buildSchedule(c));
    const seen = recorder.onset();
    summary.timeline = recorder.timeline();
    summary.histograms = recorder.histograms();
    if (summary.onset.found && seen.found) summary.onset = { ...summary.onset, atMs: seen.atMs, phase: seen.phase, operationId: seen.operationId };
  }
  return { summary, exitCode };
}
