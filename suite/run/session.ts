// One conformance run against a resolved target: builds the suite configuration, runs the scenario
// files, builds the results, cleans up what the run created. The command and the self-test both
// use it; printing and report writing stay with the caller.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PLAN_RPM, type Plan } from '../../contract/plans.ts';
import type { SelectableArea } from '../../contract/requirements.ts';
import type { Target } from './target.ts';
import type { SuiteConfig } from '../data/config.ts';
import { runScenarios } from './vitest.ts';
import { buildResults, type RunResult } from '../results/results.ts';
import { cleanup } from './ledger.ts';
import { drift } from '../results/drift.ts';
import { bundledContract, loadDocuments } from '../checks/documents.ts';

export interface SessionOptions {
  areas: SelectableArea[];
  strict: boolean;
  keep: boolean;
  timeoutMs: number;
  deadlineMs: number;
  /** Folder for the ledger of created resources (the report folder). */
  workDir: string;
  plan: Plan;
  rpm?: number;
  rateLimitPlan: Plan;
  secondKey?: string;
  rateLimitKey?: string;
  originKey?: string;
  allowedOrigin?: string;
  allowBillable: boolean;
  /** Budget of the generated area, in requests (default 400). */
  generated?: number;
  /** Seed of the generated area (default: random). */
  seed?: number;
  /** The effective configuration as it may be shown (redacted). */
  shownConfig: Record<string, unknown>;
  print: (line: string) => void;
}


/** Pacing: 90% of the plan's per-minute limit, none for enterprise (custom) unless --rpm. */
export const paceOf = (plan: Plan, rpm?: number) => (rpm !== undefined ? rpm : plan === 'enterprise' ? 0 : Math.floor(PLAN_RPM[plan] * 0.9));

/** Requests of the generated area when --generated is not given. */
export const DEFAULT_GENERATED = 400;

export interface Session {
  runId: string;
  config: SuiteConfig;
  /** Runs the scenarios; resolves with the results. The caller cleans up (tidy), so that an
   *  interrupted run is cleaned up once, by whoever handles the interruption. */
  run(): Promise<RunResult>;
  /** Soft-deletes what the run created so far (after Ctrl-C too). */
  tidy(): Promise<void>;
}

export function createSession(target: Target, o: SessionOptions, onInterrupt: () => Promise<void> = async () => {}, onSignal: () => void = () => {}): Session {
  const runId = randomBytes(4).toString('hex');
  mkdirSync(o.workDir, { recursive: true });
  const config: SuiteConfig = {
    runId, areas: o.areas, baseUrl: target.baseUrl, apiKey: target.apiKey,
    secondKey: o.secondKey ?? target.extraKeys.secondKey,
    rateLimitKey: o.rateLimitKey ?? target.extraKeys.rateLimitKey,
    plan: target.embedded ? 'free' : o.rateLimitPlan,
    paceRpm: target.embedded ? 0 : paceOf(o.plan, o.rpm),
    originKey: o.originKey ?? target.extraKeys.originKey,
    allowedOrigin: o.allowedOrigin ?? target.extraKeys.allowedOrigin,
    allowBillable: target.embedded || o.allowBillable,
    timeoutMs: o.timeoutMs,
    generated: o.generated ?? DEFAULT_GENERATED,
    seed: o.seed ?? randomBytes(4).readUInt32BE() % 2_147_483_647,
    ledgerFile: join(o.workDir, `.created-${runId}.jsonl`),
    servedDocument: target.document,
    bundledDocument: bundledContract(),
  };
  const tidy = async () => {
    if (o.keep) { o.print(`  --keep: left what the run created (listed in ${config.ledgerFile})`); return; }
    // Twice: a request already in flight when the run stopped may still create something.
    const first = await cleanup(target.baseUrl, target.apiKey, config.ledgerFile, o.timeoutMs);
    await new Promise((r) => setTimeout(r, 300));
    const done = await cleanup(target.baseUrl, target.apiKey, config.ledgerFile, o.timeoutMs);
    o.print(`  cleanup: soft-deleted ${first.deleted + done.deleted} of ${done.created} resources the run created${done.failed.length ? `; could not delete: ${done.failed.join(', ')}` : ''}`);
    if (!done.failed.length) rmSync(config.ledgerFile, { force: true });
  };
  return {
    runId, config, tidy,
    async run() {
      const started = new Date();
      const collector = await runScenarios(config, o.areas, { print: o.print, deadlineMs: o.deadlineMs, onInterrupt, onSignal });
      for (const e of collector.unhandled) o.print(`  suite error: ${e}`);
      const docs = await loadDocuments(config.bundledDocument, config.servedDocument);
      const result = buildResults({
        checks: collector.checks, strayExchanges: collector.strayExchanges, strict: o.strict, runId, startedAt: started,
        target: { baseUrl: target.baseUrl, embedded: target.embedded }, config: { ...o.shownConfig, areas: o.areas },
        areas: o.areas, bundled: docs.bundled, drift: drift(docs.bundled, docs.served),
      });
      return result;
    },
  };
}
