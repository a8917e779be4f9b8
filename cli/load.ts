// npm run load -- --tier TIER [--base-url URL --api-key KEY] [--rpm N] [--duration D] [--engine k6|node] …
// Load per plan tier: steady under the limit for latency, then a ramp past it for where 429s
// begin. k6 runs the bundled script when it is installed; otherwise the built-in Node runner
// runs the same model. Exit status: 0 thresholds pass, 1 a threshold failed, 2 no verdict (could
// not start, or did not run its plan: a runner stopped, Ctrl-C; docs/load.md).
// The heavy modules (the reference, the runner, esbuild) load only once the options are known
// good, so that a mistyped flag is answered at once.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from './common/errors.ts';
import { isEntry, runCommand } from './common/command.ts';
import { ensureWritableDir } from './common/report-dir.ts';
import { helpText, parseOptions, redacted, type OptionSpec, type Values } from './common/options.ts';
import { MINUTE_MS, PLANS, type Plan } from '../contract/plans.ts';
import { DEFAULT_DURATION_MS, flagName, parseDuration, resolveConfig, type LoadConfig } from '../load/model/config.ts';
import { onsetResolution } from '../load/model/schedule.ts';
import { blindSpotText, fixedWindowReach, type LoadSummary } from '../load/model/summary.ts';
import { setupSteps } from '../load/model/setup.ts';
import { renderTable } from '../load/report/table.ts';
import { baselineProblem, compareRuns, renderComparison } from '../load/model/compare.ts';
import { renderHtml } from '../load/report/html.ts';
import type { Progress } from '../load/node/runner.ts';
import { findK6 } from '../load/k6-host/locate.ts';
import type { RunnerSplit } from '../load/model/distributed.ts';
import { awaitOwnWindow, awaitSpentWindow, keyId } from '../load/fresh-window.ts';
import { judgeCompleteness, sentText } from '../load/model/complete.ts';

const PREFIX = 'LOAD';

export const SPECS: OptionSpec[] = [
  { name: 'tier', type: 'string', choices: PLANS, placeholder: 'TIER', description: 'plan tier to load: its limit sets every rate (required)' },
  { name: 'base-url', type: 'string', placeholder: 'URL', description: 'deployment to load; without it, the embedded reference with a key of the tier' },
  { name: 'api-key', type: 'string', placeholder: 'KEY', secret: true, description: 'key of that tier on the deployment (required with --base-url)' },
  { name: 'rpm', type: 'integer', description: 'the enterprise tier\'s negotiated requests per minute (required for enterprise)' },
  { name: 'duration', type: 'string', placeholder: 'D', default: `${DEFAULT_DURATION_MS / 1000}s`, description: 'both phases together, split evenly: 120s, 2m, 1m30s' },
  { name: 'find-onset', type: 'boolean', default: false, description: 'lengthen --duration to the shortest run whose ramp fills a rate-limit window wherever the deployment\'s windows begin, so that a correct limiter must answer 429 and the run shows where: 3m30s at the defaults with a 60 s window (any tier), said before the run starts' },
  { name: 'engine', type: 'string', choices: ['k6', 'node'], placeholder: 'ENGINE', description: 'k6, or the built-in Node runner (default: k6 when it is on PATH, else node)' },
  { name: 'window-ms', type: 'integer', description: 'the rate-limit window the plan counts in (default 60000, as SPEC.md says; embedded runs shorter than a window use a shorter one)' },
  { name: 'steady-fraction', type: 'number', default: 0.8, description: 'steady phase load, as a share of the limit' },
  { name: 'ramp-to', type: 'number', default: 1.5, description: 'where the ramp ends, as a share of the limit' },
  { name: 'p95-ms', type: 'number', description: 'p95 latency bound for every endpoint, ms (default: 250 reads, 500 simulation calls)' },
  { name: 'p99-ms', type: 'number', description: 'p99 latency bound for every endpoint, ms (default: 500 reads, 1000 simulation calls)' },
  { name: 'allow-live', type: 'boolean', default: false, description: 'accept an mk_live_ (production, billed) key' },
  { name: 'runners', type: 'integer', description: 'k6 engine: split the run across N k6 processes of one archive, by execution segments, as k6-operator does with parallelism N; one report and one verdict of the whole' },
  { name: 'no-wait', type: 'boolean', default: false, description: 'start at once even when the key\'s rate-limit window is still spent by a previous run (default: wait for a fresh one, saying so)' },
  { name: 'keep', type: 'boolean', default: false, description: 'leave the worlds and personas the run created (default: soft-deleted at the end)' },
  { name: 'seed', type: 'integer', default: 1, description: 'seed of the generated request data' },
  { name: 'report-dir', type: 'string', placeholder: 'DIR', default: 'reports', description: 'where load-<tier>.json and load-<tier>.html go' },
  { name: 'timeout-ms', type: 'integer', default: 10_000, description: 'timeout of each request, ms' },
  { name: 'baseline', type: 'string', placeholder: 'FILE', description: 'a previous run\'s load-<tier>.json (either engine): say per endpoint whether latency got worse, the same or better; exit 1 when slower beyond the threshold, significantly' },
  { name: 'regression-pct', type: 'number', default: 20, description: 'with --baseline: a slowdown (p50 or p95) below this share of the baseline is the same' },
  { name: 'regression-ms', type: 'number', default: 1, description: 'with --baseline: …or below this many ms' },
  { name: 'config', type: 'string', placeholder: 'FILE', description: 'JSON file of options (keys are option names); flags and env override it' },
];

const SYNOPSIS = '--tier TIER [--base-url URL --api-key KEY] [--rpm N] [--duration D] [--engine k6|node] [--baseline FILE] [--allow-live]';
const ABOUT = `Loads a deployment at its plan's rate: a steady phase at a share of the limit measures latency per
endpoint, then a ramp past the limit finds where 429s begin. Writes a table here, and
<report-dir>/load-<tier>.json and .html. With --baseline FILE, says per endpoint whether latency
got worse, the same or better than in that earlier run. Exit status 0: thresholds pass (and no
endpoint slower than the baseline); 1: a threshold failed, or an endpoint is slower beyond the
threshold and significantly; 2: no verdict: the run could not start, or did not run its plan (a k6
runner stopped or killed, Ctrl-C, SIGTERM), or its reports could not be written. A default run
(2m) may see no 429 from a correct limiter; --find-onset runs long enough to (3m30s at the defaults).`;

/**
 * The embedded reference counts in a real minute unless the ramp is shorter than that; then its
 * window shrinks so the ramp spans about four windows (the budget stays the plan's, per window,
 * so rates scale up), but not so far that the peak outruns what an in-process reference answers.
 */
export const EMBEDDED_MAX_RPS = 400;
export function embeddedWindowMs(rpm: number, rampTo: number, rampMs: number): number {
  if (rampMs >= MINUTE_MS) return MINUTE_MS;
  const fit = rampMs / 4;
  const capacity = ((rpm * rampTo) / EMBEDDED_MAX_RPS) * 1000;
  return Math.min(MINUTE_MS, Math.ceil(Math.max(fit, capacity, 1000) / 100) * 100);
}

function configFrom(v: Values, windowMs: number | undefined): LoadConfig {
  try {
    return resolveConfig({
      tier: String(v.tier), rpm: v.rpm as number | undefined, windowMs, duration: v.duration as string,
      steadyFraction: v['steady-fraction'] as number, rampTo: v['ramp-to'] as number,
      p95Ms: v['p95-ms'] as number | undefined, p99Ms: v['p99-ms'] as number | undefined, timeoutMs: v['timeout-ms'] as number,
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** 210000 → '3m30s'. */
function formatDuration(ms: number): string {
  const m = Math.floor(ms / 60_000);
  const sec = +((ms % 60_000) / 1000).toFixed(1);
  return `${m ? `${m}m` : ''}${sec || !m ? `${sec}s` : ''}`;
}

/** One status line a second on a terminal; a line every ten seconds in a log. */
function progressPrinter(limitRps: number) {
  const tty = process.stderr.isTTY;
  let lastLine = 0;
  let lastStage = '';
  return (p: Progress) => {
    const at = `${p.stage} ${(p.elapsedMs / 1000).toFixed(0)}/${(p.totalMs / 1000).toFixed(0)} s`;
    const rate = p.rateRps !== undefined ? ` · ${+p.rateRps.toFixed(p.rateRps < 10 ? 2 : 0)} req/s scheduled (${Math.round((p.rateRps / limitRps) * 100)}% of limit), ${p.lastSecond} sent in the last second` : '';
    const line = `[${at}]${rate} · 2xx ${p.ok} · 429 ${p.rateLimited} · errors ${p.errors}${p.note ? ` · ${p.note}` : ''}`;
    if (tty) process.stderr.write(`\r\x1b[2K${line}`);
    else if (p.stage !== lastStage || Date.now() - lastLine >= 10_000) { process.stderr.write(line + '\n'); lastLine = Date.now(); }
    lastStage = p.stage;
  };
}

export async function main(argv: string[], env: NodeJS.ProcessEnv, invokedAs = 'npm run load --'): Promise<number> {
  const v = parseOptions(SPECS, argv, env, PREFIX, 'config');
  if (v.help) {
    process.stdout.write(helpText(`Usage: ${invokedAs} ${SYNOPSIS}`, ABOUT, SPECS, PREFIX));
    return 0;
  }
  if (v.tier === undefined) throw new UsageError('--tier is required: one of free, starter, pro, enterprise (see --help)');
  const baseUrl = v['base-url'] as string | undefined;
  if (baseUrl && !v['api-key']) throw new UsageError('--api-key is required with --base-url');
  if (!baseUrl && v['api-key']) throw new UsageError('--api-key needs --base-url (the embedded reference makes its own key)');

  // The window: given, or the real minute, or (embedded, short ramp) a shorter one.
  let windowMs = v['window-ms'] as number | undefined;
  const probe = configFrom(v, windowMs);
  const notes: string[] = [];
  if (windowMs === undefined && !baseUrl) {
    windowMs = embeddedWindowMs(probe.rpm, probe.rampTo, probe.rampMs);
    if (windowMs !== MINUTE_MS) {
      notes.push(`embedded reference: rate-limit window shortened to ${windowMs / 1000} s so the ${probe.rampMs / 1000} s ramp can reach the limit; ` +
        `the plan's ${probe.rpm} requests count per window, so every rate is ${+(MINUTE_MS / windowMs).toFixed(1)} times the plan's (--window-ms 60000 keeps the real minute)`);
    }
  }
  let config = configFrom(v, windowMs);
  // The embedded reference counts from the key's first request; another deployment's windows may begin anywhere.
  const setupRequests = baseUrl ? setupSteps((await import('../load/data.ts')).seedData(v.seed as number), '').length : 0;
  let reach = baseUrl ? fixedWindowReach(config, setupRequests) : undefined;
  if (v['find-onset']) {
    if (reach && !reach.fills) {
      if (!reach.longer) throw new UsageError(`--find-onset: no run up to 60m fills a ${config.windowMs / 1000} s window at these rates (--ramp-to higher?)`);
      const given = String(v.duration);
      config = configFrom({ ...v, duration: reach.longer }, windowMs);
      reach = fixedWindowReach(config, setupRequests);
      notes.push(`--find-onset: the run lasts ${formatDuration(config.steadyMs + config.rampMs)} instead of ${given}, the shortest whose ramp fills a ${config.windowMs / 1000} s window wherever the deployment's windows begin`);
    } else {
      notes.push(`--find-onset: this run's ${(config.steadyMs + config.rampMs) / 1000} s already fill a rate-limit window ${baseUrl ? 'wherever it begins' : '(the embedded reference\'s windows begin at the key\'s first request)'}: where 429s begin will show`);
    }
  }
  if (reach && !reach.fills) notes.push(`this run may see no 429 from a correct deployment: ${blindSpotText(config, reach, flagName)} (--find-onset does)`);

  // The baseline is read before anything is sent: a run whose comparison cannot be made is not started.
  const baseline = v.baseline === undefined ? undefined : readBaseline(String(v.baseline));
  const regressionPct = v['regression-pct'] as number;
  const regressionMs = v['regression-ms'] as number;
  if (!(regressionPct >= 0)) throw new UsageError(`--regression-pct must be ≥ 0, got '${regressionPct}'`);
  if (!(regressionMs >= 0)) throw new UsageError(`--regression-ms must be ≥ 0, got '${regressionMs}'`);
  // Latency at another plan's rate is another measurement: refused, not compared.
  if (baseline && (baseline.tier !== config.tier || (baseline.plan?.rpm !== undefined && baseline.plan.rpm !== config.rpm))) {
    throw new UsageError(`--baseline ${v.baseline}: a ${baseline.tier} run${baseline.plan?.rpm ? ` (${baseline.plan.rpm} requests per window)` : ''}, this one ${config.tier} (${config.rpm}): ` +
      `latency under another plan's load is not comparable; give a ${config.tier} run's load-${config.tier}.json`);
  }

  const found = findK6(env.PATH ?? process.env.PATH);
  const engine = (v.engine as 'k6' | 'node' | undefined) ?? (found ? 'k6' : 'node');
  if (engine === 'k6' && !found) throw new UsageError('--engine k6: no k6 executable on PATH (install k6, or use --engine node)');
  // The split of a distributed run: the one the TestRun manifest asks k6-operator for, with its limit.
  let split: RunnerSplit[] | undefined;
  if (v.runners !== undefined) {
    if (engine !== 'k6') throw new UsageError('--runners splits a run across k6 processes: it needs the k6 engine (k6 on PATH, or --engine k6)');
    const { runnerSplit } = await import('../load/k6-host/testrun.ts');
    try { split = runnerSplit(config.tier, v.runners as number, config.tier === 'enterprise' ? config.rpm : undefined); } catch (err) { throw new UsageError(`--runners: ${(err as Error).message}`); }
  }
  // Before the run, not after it: a verdict whose reports cannot be written would be lost.
  ensureWritableDir(v['report-dir'] as string, '--report-dir');
  // Before anything is sent anywhere: live keys are billed.
  const { guardLiveKey, resolveTarget } = await import('../suite/run/target.ts');
  guardLiveKey(v['api-key'] as string | undefined, v['allow-live'] as boolean);

  const shown = redacted(SPECS, v);
  const effective: Values = { ...shown, engine, 'window-ms': config.windowMs, duration: formatDuration(config.steadyMs + config.rampMs) };
  process.stderr.write(`load: ${Object.entries(effective).filter(([, x]) => x !== undefined && x !== false).map(([k, x]) => `${k}=${x}`).join(' ')}\n`);
  if (onsetResolution(config) > 0.25) {
    notes.push(`the ramp spans ${(config.rampMs / config.windowMs).toFixed(1)} rate-limit windows, climbing ${Math.round(onsetResolution(config) * 100)}% of the limit in each: where 429s begin is read from the load offered per window`);
  }
  // The notes once the target has answered its preflight: an error of the target or the key is read first.
  const printNotes = () => { for (const n of notes.splice(0)) process.stderr.write(`note: ${n}\n`); };

  // A window the key has spent is waited out, never failed for a previous run's requests: this
  // tool's own last run of the key first (no request; before the warm-up), then a 429 now (one
  // GET, right after the preflight's, so the run's windows still begin at its preflight).
  const waitFor = baseUrl && !v['no-wait'] ? { baseUrl, apiKey: v['api-key'] as string, write: (t: string) => process.stderr.write(t), tty: !!process.stderr.isTTY } : undefined;
  if (waitFor) await awaitOwnWindow({ ...waitFor, reportFile: join(v['report-dir'] as string, `load-${config.tier}.json`), windowMs: config.windowMs });
  const { runNodeLoad, warmUpRunner, SetupError } = await import('../load/node/runner.ts');
  // What each engine does before its setup happens before the preflight: a limiter's window
  // begins at the key's first request (the preflight's), and time spent between it and the setup
  // moves the windows against the schedule (the 429 onset read up to 5 points lower).
  const k6Host = engine === 'k6' ? await import('../load/k6-host/run.ts') : undefined;
  const k6Work = k6Host ? await k6Host.prepareK6(v.seed as number).catch((err: Error) => { throw new UsageError(err.message); }) : undefined;
  if (engine === 'node') await warmUpRunner(v.seed as number);
  // A split run (--runners): the archive and its runners, started paused, before the preflight
  // when the target is known, so that the runners' setups follow it as one k6's would.
  const dist = split ? await import('../load/k6-host/distributed.ts') : undefined;
  let paused: import('../load/k6-host/distributed.ts').PausedRunners | undefined;
  const startRunners = async (url: string, apiKey: string, embedded?: boolean) => {
    const common = { k6: found!, config, seed: v.seed as number, keep: v.keep as boolean, allowLive: v['allow-live'] as boolean, embedded, work: k6Work! };
    try {
      const { archive, command } = await dist!.archiveRun(common);
      const runners = await dist!.startRunners({ ...common, baseUrl: url, apiKey, archive, split: split! });
      process.stderr.write(`load: ${split!.length} k6 runner${split!.length > 1 ? 's' : ''} of one archive, started paused and resumed together, as k6-operator runs them:\n${[command, ...runners.commands].map((x) => `  ${x}`).join('\n')}\n`);
      return runners;
    } catch (err) {
      rmSync(k6Work!.dir, { recursive: true, force: true });
      throw new UsageError((err as Error).message);
    }
  };
  // Signals (Ctrl-C, SIGTERM from a cancelled job, SIGHUP): before the load starts the command
  // leaves at once (paused runners, which sent nothing, are killed); once it runs, the first stops
  // the load (passed on to each k6 once: children.ts) and the run ends without a verdict, its
  // reports written; a second kills every k6, waits for them, and leaves. Exit 2 either way.
  const { running, signalOnce, stopAll } = await import('../load/k6-host/children.ts');
  const controller = new AbortController();
  let loadStarted = false;
  let interrupted: NodeJS.Signals | undefined;
  const said = (signal: NodeJS.Signals) => (signal === 'SIGINT' ? 'Ctrl-C' : signal);
  const onSignal = (signal: NodeJS.Signals) => {
    if (!loadStarted || interrupted) {
      process.stderr.write(`\ninterrupted (${said(signal)}) ${loadStarted ? 'again: every k6 process killed' : 'before the load started'}; no verdict\n`);
      void stopAll('SIGKILL').finally(() => {
        if (k6Work) rmSync(k6Work.dir, { recursive: true, force: true });
        process.exit(2);
      });
      return;
    }
    interrupted = signal;
    process.stderr.write(`\ninterrupted (${said(signal)}): stopping the load, no verdict (${said(signal)} again to leave at once)\n`);
    controller.abort();
    paused?.interrupt(signal);
    for (const t of running()) signalOnce(t, signal);
  };
  const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const sig of SIGNALS) process.on(sig, onSignal);
  const interruptCause = () => (interrupted ? [`interrupted (${said(interrupted)})`] : []);

  let summary: LoadSummary;
  let failedByK6 = false;
  try {
    if (dist && baseUrl) paused = await startRunners(baseUrl, v['api-key'] as string);
    const target = await resolveTarget({
      baseUrl, apiKey: v['api-key'] as string | undefined, allowLive: v['allow-live'] as boolean, timeoutMs: v['timeout-ms'] as number,
      plan: config.tier as Plan, ...(config.tier === 'enterprise' ? { rpm: config.rpm } : {}),
      ...(baseUrl ? {} : { rateLimitWindowMs: config.windowMs }),
    }).catch(async (err: unknown) => {
      await paused?.stop();
      if (k6Work) rmSync(k6Work.dir, { recursive: true, force: true });
      throw err;
    });
    printNotes();
    try {
      // Right after the preflight (whose GET /worlds begins a limiter's window, load/README.md): a key
      // refused with a 429 now waits out its Retry-After.
      if (waitFor) await awaitSpentWindow({ ...waitFor, timeoutMs: v['timeout-ms'] as number });
      loadStarted = true;
      if (engine === 'k6') {
        const { K6_SCRIPT_ABORTED, K6_THRESHOLDS_FAILED, runK6 } = k6Host!;
        if (split) {
          try {
            paused ??= await startRunners(target.baseUrl, target.apiKey, target.embedded);
            if (interrupted) paused.interrupt(interrupted);
            const s = await paused.resume().catch((err: Error) => { throw new UsageError(err.message); });
            if (s.aborted?.startsWith('setup')) throw new UsageError(`${s.aborted}; the load needs it to create its data`);
            summary = s;
          } finally {
            rmSync(k6Work!.dir, { recursive: true, force: true });
          }
        } else {
          const { summary: s, exitCode } = await runK6({
            k6: found!, config, baseUrl: target.baseUrl, apiKey: target.apiKey, work: k6Work, causes: interruptCause,
            seed: v.seed as number, keep: v.keep as boolean, allowLive: v['allow-live'] as boolean, embedded: target.embedded,
          }).catch((err: Error) => { throw new UsageError(err.message); });
          // The setup was refused: the run could not start, as with the Node runner (its reason is in the summary).
          if (exitCode === K6_SCRIPT_ABORTED && s.aborted?.startsWith('setup')) throw new UsageError(`${s.aborted}; the load needs it to create its data`);
          if (exitCode === K6_SCRIPT_ABORTED && s.aborted) throw new UsageError(s.aborted);
          // Any other end short of the run's (a signal, an error) left a summary without a verdict (runK6).
          failedByK6 = exitCode === K6_THRESHOLDS_FAILED;
          summary = s;
        }
      } else {
        summary = await runNodeLoad({
          baseUrl: target.baseUrl, apiKey: target.apiKey, config, seed: v.seed as number, embedded: target.embedded, warmUp: 0,
          keep: v.keep as boolean, onProgress: progressPrinter(config.rpm / (config.windowMs / 1000)),
          signal: controller.signal,
        });
        if (process.stderr.isTTY) process.stderr.write('\n');
        if (interrupted) summary = judgeCompleteness(summary, interruptCause());
      }
    } finally {
      await target.close();
    }
  } catch (err) {
    if (err instanceof SetupError) throw new UsageError(err.message);
    throw err;
  } finally {
    // Never leave a k6 running: whatever path got here, each one has ended.
    await stopAll('SIGKILL');
    for (const sig of SIGNALS) process.off(sig, onSignal);
  }

  if (baseUrl) summary.keyUse = { id: keyId(baseUrl, v['api-key'] as string), lastRequestAt: new Date().toISOString() };
  const dir = v['report-dir'] as string;
  const json = join(dir, `load-${config.tier}.json`);
  const html = join(dir, `load-${config.tier}.html`);
  process.stdout.write(renderTable(summary) + '\n');
  if (baseline) {
    const compared = compareRuns(baseline, summary, { thresholdPct: regressionPct, floorMs: regressionMs });
    // An incomplete run is not compared either: its steady phase may be a part of one.
    if (summary.incomplete) Object.assign(compared, { endpoints: [], regression: false, notCompared: 'this run did not run its plan' });
    summary.comparison = { ...compared, baseline: { engine: baseline.engine, tier: baseline.tier, startedAt: baseline.startedAt, file: String(v.baseline) } };
    process.stdout.write(renderComparison(summary.comparison, String(v.baseline)) + '\n');
  }
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(json, JSON.stringify(summary, null, 2) + '\n');
    writeFileSync(html, renderHtml(summary, { baseline }));
  } catch (err) {
    // The table is out, but a run whose report is lost must not look like a clean pass.
    process.stderr.write(`load: could not write the reports to ${dir}: ${(err as Error).message}\n`);
    return 2;
  }
  process.stdout.write(`reports: ${json}, ${html}\n`);
  // No verdict: exit 2, the last line saying how much was sent of the plan and why.
  if (summary.verdict === 'none') {
    process.stderr.write(`load: no verdict: ${summary.incomplete ? `${sentText(summary.incomplete)}: ${summary.incomplete.why}` : 'the run did not run its plan'}\n`);
    return 2;
  }
  return summary.verdict === 'pass' && !failedByK6 && !summary.comparison?.regression ? 0 : 1;
}

/** A previous run's summary, checked before the run: one line and exit 2 when it cannot serve. */
function readBaseline(file: string): LoadSummary {
  let parsed: LoadSummary;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as LoadSummary;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new UsageError(`--baseline ${file}: ${e.code === 'ENOENT' ? 'no such file' : e instanceof SyntaxError ? 'not JSON' : e.message}`);
  }
  const problem = baselineProblem(parsed);
  if (problem) throw new UsageError(`--baseline ${file}: ${problem}`);
  return parsed;
}

if (isEntry(import.meta.url)) runCommand('load', main, process.argv.slice(2), 'npm run load --');
