// One conformance run against a resolved target: builds the suite configuration, runs the scenario
// files, builds the results, cleans up what the run created. The command and the self-test both
// use it; printing and report writing stay with the caller.
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PLAN_RPM, type Plan } from '../../contract/plans.ts';
import type { SelectableArea } from '../../contract/requirements.ts';
import type { Target } from './target.ts';
import type { CheckFilter } from '../data/selection.ts';
import type { KnownFailure } from '../results/known-failures.ts';
import type { SuiteConfig } from '../data/config.ts';
import { runScenarios } from './vitest.ts';
import { buildResults, type RunResult } from '../results/results.ts';
import { cleanup, describeCleanup, type CleanupResult } from './ledger.ts';
import { DEADLINE_REASON, requestStop } from '../data/stop.ts';
import { drift } from '../results/drift.ts';
import { bundledContract, loadDocuments } from '../checks/documents.ts';
import { DEFAULT_MAX_BODY_MB, mbToBytes } from '../http/transport.ts';
import { listedAsNotRun, unfinished } from './unfinished.ts';
import type { RawCheck } from '../results/results.ts';

export interface SessionOptions {
  areas: SelectableArea[];
  /** `--only` named requirements too: only their checks run in their areas. */
  only?: CheckFilter;
  /** `--known-failures`: accepted failures that do not fail the run while they last. */
  knownFailures?: KnownFailure[];
  strict: boolean;
  /** --require-verified: a MUST requirement not fully verified fails the run. */
  requireVerified?: boolean;
  keep: boolean;
  timeoutMs: number;
  /** The answer size cap in MB (--max-body-mb; default DEFAULT_MAX_BODY_MB). */
  maxBodyMb?: number;
  /** Epoch ms of the run's deadline (--deadline-s, armed when the command started). */
  deadlineAt: number;
  /** Folder for the ledger of created resources (the report folder). */
  workDir: string;
  plan: Plan;
  rpm?: number;
  /** Plan of the rate-limit key (`--rate-limit-plan`); undefined when none was named. */
  rateLimitPlan?: Plan;
  secondKey?: string;
  rateLimitKey?: string;
  originKey?: string;
  allowedOrigin?: string;
  allowBillable: boolean;
  /** Budget of the generated area, in requests (default 400). */
  generated?: number;
  /** Seed of the generated and model areas (default: random). */
  seed?: number;
  /** Commands of the model area (default DEFAULT_MODEL_COMMANDS). */
  modelCommands?: number;
  /** The effective configuration as it may be shown (redacted). */
  shownConfig: Record<string, unknown>;
  print: (line: string) => void;
}


/** Pacing: 90% of the plan's per-minute limit, none for enterprise (custom) unless --rpm. */
export const paceOf = (plan: Plan, rpm?: number) => (rpm !== undefined ? rpm : plan === 'enterprise' ? 0 : Math.floor(PLAN_RPM[plan] * 0.9));

/** How long cleanup may take once the run is over (its own bound, after --deadline-s). */
export const CLEANUP_BOUND_MS = 60_000;

/** Requests of the generated area when --generated is not given. */
export const DEFAULT_GENERATED = 400;

/** Commands of the model area when --model-commands is not given. */
export const DEFAULT_MODEL_COMMANDS = 100;

export interface Session {
  runId: string;
  config: SuiteConfig;
  /** Runs the scenarios; resolves with the results, also when the run was stopped (deadline, Ctrl-C). */
  run(): Promise<RunResult>;
  /** Stops the run: checks end at their next request; those not started are "not run: <reason>". */
  stop(reason: string): void;
  /** Why the run was stopped, if it was. */
  readonly stopped: string | undefined;
  /** Soft-deletes what the run created, within its own bound; `abandon` gives up (the ledger keeps what is left). */
  tidy(options?: { abandon?: AbortSignal; boundMs?: number }): Promise<CleanupResult | undefined>;
  /** What the cleanup in progress has left to do. */
  cleanupLeft(): { left: number; total: number } | undefined;
}

export function createSession(target: Target, o: SessionOptions): Session {
  const runId = randomBytes(4).toString('hex');
  mkdirSync(o.workDir, { recursive: true });
  const config: SuiteConfig = {
    runId, areas: o.areas, only: o.only, baseUrl: target.baseUrl, apiKey: target.apiKey,
    secondKey: o.secondKey ?? target.extraKeys.secondKey,
    rateLimitKey: o.rateLimitKey ?? target.extraKeys.rateLimitKey,
    plan: target.embedded ? 'free' : o.rateLimitPlan ?? 'free',
    planNamed: target.embedded || o.rateLimitPlan !== undefined,
    mainRpm: target.mainRpm ?? (o.plan === 'enterprise' ? undefined : PLAN_RPM[o.plan]),
    rateWindowMs: target.rateWindowMs ?? 60_000,
    paceRpm: target.embedded ? 0 : paceOf(o.plan, o.rpm),
    originKey: o.originKey ?? target.extraKeys.originKey,
    allowedOrigin: o.allowedOrigin ?? target.extraKeys.allowedOrigin,
    allowBillable: target.embedded || o.allowBillable,
    timeoutMs: o.timeoutMs,
    maxBodyBytes: mbToBytes(o.maxBodyMb ?? DEFAULT_MAX_BODY_MB),
    generated: o.generated ?? DEFAULT_GENERATED,
    seed: o.seed ?? randomBytes(4).readUInt32BE() % 2_147_483_647,
    modelCommands: o.modelCommands ?? DEFAULT_MODEL_COMMANDS,
    ledgerFile: join(o.workDir, `.created-${runId}.jsonl`),
    stopFile: join(o.workDir, `.stop-${runId}`),
    deadlineAt: o.deadlineAt,
    servedDocument: target.document,
    bundledDocument: bundledContract(),
  };
  const stopping = new AbortController();
  let stopped: string | undefined;
  let progress: { left: number; total: number } | undefined;
  /** Every check of the run, read once it stops: those it never reached are reported "not run", not dropped. */
  let listed: Promise<RawCheck[]> | undefined;
  const stop = (reason: string) => {
    if (stopped) return;
    stopped = reason;
    requestStop(config, reason);
    stopping.abort();
    listed = listedAsNotRun(config, o.areas, reason).catch((err: Error) => {
      o.print(`  could not list the checks the run did not reach: ${err.message.split('\n')[0]}`);
      return [];
    });
  };
  // The deadline stops the run even if the command does not (the workers know it too).
  const timer = setTimeout(() => stop(DEADLINE_REASON), Math.max(0, o.deadlineAt - Date.now()));
  timer.unref();

  const tidy: Session['tidy'] = async ({ abandon, boundMs = CLEANUP_BOUND_MS } = {}) => {
    if (o.keep) { o.print(`  --keep: left what the run created (listed in ${config.ledgerFile})`); return undefined; }
    const until = Date.now() + boundMs;
    // Twice: a request already in flight when the run stopped may still create something.
    const done = await cleanup({
      baseUrl: target.baseUrl, apiKey: target.apiKey, ledgerFile: config.ledgerFile, timeoutMs: o.timeoutMs, until, abandon,
      runId, passes: 2, maxBodyBytes: config.maxBodyBytes,
      progress: (left, total) => { progress = { left, total }; },
    });
    progress = undefined;
    o.print(`  cleanup: ${describeCleanup(done, config.ledgerFile)}`);
    rmSync(config.stopFile, { force: true });
    return done;
  };
  return {
    runId, config, tidy, stop,
    get stopped() { return stopped; },
    cleanupLeft: () => progress,
    async run() {
      const started = new Date();
      const collector = await runScenarios(config, o.areas, { print: o.print, stopping: stopping.signal, graceMs: o.timeoutMs + 5_000, strict: o.strict });
      clearTimeout(timer);
      if (!stopped) for (const e of collector.unhandled) o.print(`  suite error: ${e}`);
      const checks = listed ? [...collector.checks, ...unfinished(collector.checks, await listed)] : collector.checks;
      const docs = await loadDocuments(config.bundledDocument, config.servedDocument, config.baseUrl);
      return buildResults({
        checks, strayExchanges: collector.strayExchanges, strict: o.strict, runId, startedAt: started,
        target: { baseUrl: target.baseUrl, embedded: target.embedded }, config: { ...o.shownConfig, areas: o.areas },
        areas: o.areas, only: o.only, knownFailures: o.knownFailures, bundled: docs.bundled, drift: drift(docs.bundled, docs.served), stopped,
        seed: o.areas.includes('generated') || o.areas.includes('model') ? config.seed : undefined, mainKey: { rpm: config.mainRpm, paceRpm: config.paceRpm },
        requireVerified: o.requireVerified,
      });
    },
  };
}
