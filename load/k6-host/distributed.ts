// The local distributed mode (`npm run load -- --engine k6 --runners N`): what a k6-operator
// TestRun of parallelism N does, on this machine, by the operator's own mechanism. One archive of
// the bundle (`k6 archive`, the knobs in it, never the key); N `k6 run` of that archive, each with
// its execution segment of the one split (executionSplit, which the manifest asks the operator
// for), started `--paused` with its REST API on a port of its own, as the operator starts its
// runner pods; once every one has initialised, all are resumed at once (what the operator's
// starter job does: PATCH /v1/status), so their setups and schedules begin together. Each runs its
// own setup and teardown as the operator's runners do, and writes its summary export and its raw
// samples; then one report and one verdict of the whole (combine.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { LoadSummary } from '../model/summary.ts';
import { segmentFlags, type RunnerSplit } from '../model/distributed.ts';
import { fromSummaryExport } from '../k6/summary.ts';
import { combineRunners, type RunnerOutput } from './combine.ts';
import { k6Env, type K6RunOptions, type K6Work } from './run.ts';

/** The LOAD_* variables that shape the options: archived with `-e`, as for `k6 cloud run`. The target, the key and the run's switches stay out. */
const RUN_TIME_ONLY = new Set(['LOAD_BASE_URL', 'LOAD_API_KEY', 'LOAD_ALLOW_LIVE', 'LOAD_KEEP', 'LOAD_SUMMARY']);
/** k6's execution status once a paused run has initialised its VUs (lib.ExecutionStatusPausedBeforeRun). */
const PAUSED_BEFORE_RUN = 4;
const INIT_TIMEOUT_MS = 120_000;

const logTail = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').slice(-3).join(' / ') : '');

function k6(file: string, args: string[], env: NodeJS.ProcessEnv, log: string): { child: ChildProcess; exit: Promise<number> } {
  const fd = openSync(log, 'a');
  const child = spawn(file, args, { env, stdio: ['ignore', fd, fd] });
  const exit = new Promise<number>((done, fail) => {
    child.on('error', fail);
    child.on('exit', (code, signal) => { closeSync(fd); done(code ?? (signal ? 130 : 1)); });
  });
  return { child, exit };
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address() as { port: number }; s.close(() => done(port)); });
  });
}

async function status(port: number, body?: unknown): Promise<{ status: number; paused: boolean } | undefined> {
  const res = await fetch(`http://127.0.0.1:${port}/v1/status`, {
    method: body ? 'PATCH' : 'GET', signal: AbortSignal.timeout(5000),
    ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
  }).catch(() => undefined);
  if (!res?.ok) return undefined;
  return ((await res.json()) as { data: { attributes: { status: number; paused: boolean } } }).data.attributes;
}

/** The archive of the run's bundle, with the knobs and without the key; before the preflight, it costs nothing on the target. */
export async function archiveRun(o: Pick<K6RunOptions, 'k6' | 'config' | 'keep' | 'allowLive' | 'embedded'> & { work: K6Work }): Promise<{ archive: string; command: string }> {
  const { dir, bundleDir } = o.work;
  const env = k6Env({ ...o, baseUrl: '', apiKey: '' });
  const archive = join(dir, `${o.config.tier}.tar`);
  const knobs = Object.entries(env).filter(([name]) => !RUN_TIME_ONLY.has(name)).flatMap(([name, value]) => ['-e', `${name}=${value}`]);
  const args = ['archive', '--quiet', '-O', archive, ...knobs, join(bundleDir, `${o.config.tier}.js`)];
  // The archive is made with no LOAD_* of the shell: only what -e gives it.
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('LOAD_')));
  const log = join(dir, 'archive.log');
  const code = await k6(o.k6, args, clean, log).exit;
  if (code !== 0 || !existsSync(archive)) throw new Error(`k6 archive exited with status ${code}: ${logTail(log)}`);
  return { archive, command: `k6 ${args.map((a) => a.replace(`${dir}/`, '')).join(' ')}` };
}

export interface PausedRunners {
  /** The commands run, without the temporary directory. */
  commands: string[];
  /** Resumes every runner at once, waits for them all, and combines what they left. */
  resume(): Promise<LoadSummary>;
  /** Stops them (the run could not go on). */
  stop(): void;
}

/** Starts every runner of the split on the archive, paused, and waits until each has initialised. */
export async function startRunners(o: K6RunOptions & { work: K6Work; archive: string; split: RunnerSplit[] }): Promise<PausedRunners> {
  const { dir } = o.work;
  // Every runner with the same environment (the TestRun's runner env), its own segment, port and files.
  const env: NodeJS.ProcessEnv = { ...process.env, ...k6Env(o) };
  const runners = await Promise.all(o.split.map(async (r) => {
    const port = await freePort();
    const exportFile = join(dir, `runner-${r.index}.summary.json`);
    const pointsFile = join(dir, `runner-${r.index}.ndjson`);
    const log = join(dir, `runner-${r.index}.log`);
    const args = ['run', '--quiet', ...segmentFlags(r), '--summary-export', exportFile, '--out', `json=${pointsFile}`,
      '--address', `127.0.0.1:${port}`, '--paused', '--tag', `instance_id=${r.index}`, o.archive];
    return { r, port, exportFile, pointsFile, log, command: `k6 ${args.map((a) => a.replace(`${dir}/`, '')).join(' ')}`, ...k6(o.k6, args, env, log) };
  }));
  const stop = () => { for (const x of runners) x.child.kill('SIGINT'); };
  try {
    await Promise.all(runners.map(async (x) => {
      let exited: number | undefined;
      void x.exit.then((code) => { exited = code; });
      for (const deadline = Date.now() + INIT_TIMEOUT_MS; ;) {
        if (exited !== undefined) throw new Error(`k6 runner ${x.r.index} exited with status ${exited} before it started: ${logTail(x.log)}`);
        if ((await status(x.port))?.status === PAUSED_BEFORE_RUN) return;
        if (Date.now() > deadline) throw new Error(`k6 runner ${x.r.index} did not initialise within ${INIT_TIMEOUT_MS / 1000} s: ${logTail(x.log)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }));
  } catch (err) {
    stop();
    throw err;
  }
  return {
    commands: runners.map((x) => x.command),
    stop,
    async resume() {
      // As k6-operator's starter: every runner resumed at once.
      await Promise.all(runners.map((x) => status(x.port, { data: { type: 'status', id: 'default', attributes: { paused: false } } })));
      const outputs: RunnerOutput[] = [];
      for (const x of runners) {
        const exitCode = await x.exit;
        if (!existsSync(x.exportFile)) throw new Error(`k6 runner ${x.r.index}${x.r.segment ? ` (segment ${x.r.segment})` : ''} exited with status ${exitCode} without writing its summary: ${logTail(x.log)}`);
        outputs.push({ index: x.r.index, segment: x.r.segment, exitCode, exported: fromSummaryExport(JSON.parse(readFileSync(x.exportFile, 'utf8'))), pointsFile: x.pointsFile });
      }
      const summary = await combineRunners(outputs, { config: o.config, baseUrl: o.baseUrl, seed: o.seed, now: Date.now() });
      if (o.embedded) summary.target.embedded = true;
      return summary;
    },
  };
}
