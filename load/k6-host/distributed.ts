// The local distributed mode (`npm run load -- --engine k6 --runners N`): what a k6-operator
// TestRun of parallelism N does, on this machine, by the operator's own mechanism. One archive of
// the bundle (`k6 archive`, the knobs in it, never the key); N `k6 run` of that archive, each with
// its execution segment of the one split (executionSplit, which the manifest asks the operator
// for), started `--paused` with its REST API on a port of its own, as the operator starts its
// runner pods; once every one has initialised, all are resumed at once (what the operator's
// starter job does: PATCH /v1/status), so their setups and schedules begin together. Each runs its
// own setup and teardown as the operator's runners do, and writes its summary export and its raw
// samples; then one report and one verdict of the whole (combine.ts). A runner that ends any other
// way than by running to its end (a signal, a kill, an error) stops the others at once, since the
// whole can no longer be measured; the command waits for every one, and the run has no verdict
// (load/model/complete.ts), with each runner's end and last log lines.
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { LoadSummary } from '../model/summary.ts';
import { segmentFlags, type RunnerSplit } from '../model/distributed.ts';
import { fromSummaryExport } from '../k6/summary.ts';
import { judgeCompleteness } from '../model/complete.ts';
import { combineRunners, type RunnerOutput } from './combine.ts';
import { k6Env, type K6RunOptions, type K6Work } from './run.ts';
import { describeEnd, logTail, ranToEnd, statusOf, type ProcessEnd } from './exit.ts';
import { signalOnce, spawnTracked, type Tracked } from './children.ts';

/** The LOAD_* variables that shape the options: archived with `-e`, as for `k6 cloud run`. The target, the key and the run's switches stay out. */
const RUN_TIME_ONLY = new Set(['LOAD_BASE_URL', 'LOAD_API_KEY', 'LOAD_ALLOW_LIVE', 'LOAD_KEEP', 'LOAD_SUMMARY']);
/** k6's execution status once a paused run has initialised its VUs (lib.ExecutionStatusPausedBeforeRun). */
const PAUSED_BEFORE_RUN = 4;
const INIT_TIMEOUT_MS = 120_000;
/** How long a runner told to stop (SIGTERM: k6 ends its iterations, writes its summary) has before it is killed. */
const STOP_GRACE_MS = 30_000;
/** A runner's summary export when it wrote none (killed): its samples, if any, are in its --out json file. */
const NO_EXPORT = { metrics: {}, root_group: { checks: {} } };

function k6(file: string, args: string[], env: NodeJS.ProcessEnv, log: string): Tracked {
  const fd = openSync(log, 'a');
  const t = spawnTracked(file, args, { env, stdio: ['ignore', fd, fd] });
  void t.end.finally(() => closeSync(fd)).catch(() => undefined);
  return t;
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
  const end = await k6(o.k6, args, clean, log).end;
  if (end.code !== 0 || !existsSync(archive)) throw new Error(`k6 archive: ${describeEnd(end)}: ${logTail(log)}`);
  return { archive, command: `k6 ${args.map((a) => a.replace(`${dir}/`, '')).join(' ')}` };
}

export interface PausedRunners {
  /** The commands run, without the temporary directory. */
  commands: string[];
  /** Resumes every runner at once, waits for them all, and combines what they left. */
  resume(): Promise<LoadSummary>;
  /** Stops them (the run could not go on), and resolves once every one has ended. */
  stop(): Promise<void>;
  /** Passes an interrupt (Ctrl-C, SIGTERM) on to every runner, once: the run ends without a verdict. */
  interrupt(signal: NodeJS.Signals): void;
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
    return { r, port, exportFile, pointsFile, log, command: `k6 ${args.map((a) => a.replace(`${dir}/`, '')).join(' ')}`, proc: k6(o.k6, args, env, log) };
  }));
  const stop = async () => {
    for (const x of runners) signalOnce(x.proc, 'SIGTERM');
    await Promise.all(runners.map((x) => x.proc.end.catch(() => undefined)));
  };
  try {
    await Promise.all(runners.map(async (x) => {
      let exited: ProcessEnd | undefined;
      void x.proc.end.then((e) => { exited = e; }, () => undefined);
      for (const deadline = Date.now() + INIT_TIMEOUT_MS; ;) {
        if (exited !== undefined) throw new Error(`k6 runner ${x.r.index}: ${describeEnd(exited)} before it started: ${logTail(x.log)}`);
        if ((await status(x.port))?.status === PAUSED_BEFORE_RUN) return;
        if (Date.now() > deadline) throw new Error(`k6 runner ${x.r.index} did not initialise within ${INIT_TIMEOUT_MS / 1000} s: ${logTail(x.log)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }));
  } catch (err) {
    await stop();
    throw err;
  }
  let interrupted: NodeJS.Signals | undefined;
  /** The runner whose end stopped the others, and when. */
  let first: (typeof runners)[number] | undefined;
  const name = (x: (typeof runners)[number]) => `runner ${x.r.index}${x.r.segment ? ` (segment ${x.r.segment})` : ''}`;
  return {
    commands: runners.map((x) => x.command),
    stop,
    interrupt(signal) {
      interrupted ??= signal;
      for (const x of runners) signalOnce(x.proc, signal);
    },
    async resume() {
      // As k6-operator's starter: every runner resumed at once.
      await Promise.all(runners.map((x) => status(x.port, { data: { type: 'status', id: 'default', attributes: { paused: false } } })));
      // One runner ending before its end stops the others at once (the whole is lost), then every one is waited for.
      let killTimer: NodeJS.Timeout | undefined;
      const ends = await Promise.all(runners.map(async (x) => {
        const end = await x.proc.end;
        if (!ranToEnd(end) && !first && !interrupted) {
          first = x;
          for (const y of runners) if (y !== x) signalOnce(y.proc, 'SIGTERM');
          killTimer = setTimeout(() => { for (const y of runners) signalOnce(y.proc, 'SIGKILL'); }, STOP_GRACE_MS);
        }
        return end;
      })).finally(() => clearTimeout(killTimer));
      const outputs: RunnerOutput[] = runners.map((x, i) => ({
        index: x.r.index, segment: x.r.segment, exitCode: statusOf(ends[i]), ...(ends[i].signal ? { signal: ends[i].signal! } : {}),
        exported: fromSummaryExport(existsSync(x.exportFile) ? JSON.parse(readFileSync(x.exportFile, 'utf8')) : NO_EXPORT),
        pointsFile: x.pointsFile,
      }));
      // Why the run fell short, runner by runner: its own end and last log lines, or that it was stopped.
      const causes: string[] = [];
      if (interrupted) causes.push(`interrupted (${interrupted === 'SIGINT' ? 'Ctrl-C' : interrupted})`);
      runners.forEach((x, i) => {
        if (ranToEnd(ends[i])) return;
        const by = x.proc.signalled && x !== first ? `, stopped by this command${first ? ` when ${name(first)} ended` : ''} (${x.proc.signalled})` : '';
        const written = existsSync(x.exportFile) ? '' : ', no summary written';
        // A runner this command stopped ended as told: its log says no more than that.
        const tail = by ? '' : logTail(x.log);
        causes.push(`${name(x)}: ${describeEnd(ends[i])}${by}${written}${tail ? `; its last lines: ${tail}` : ''}`);
      });
      const summary = judgeCompleteness(await combineRunners(outputs, { config: o.config, baseUrl: o.baseUrl, seed: o.seed, now: Date.now() }), causes);
      if (o.embedded) summary.target.embedded = true;
      return summary;
    },
  };
}
