// The bench every family of the self-test runs on: one embedded reference, and how a conformance run
// is made against it, directly or behind a proxy with an entry's hooks (a fault, a legal variant, a
// dialect, a stack). Runs are --strict; the runner (runner.ts) judges each again as a user's run.
import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { resolveTarget, type Target } from '../run/target.ts';
import { createSession } from '../run/session.ts';
import { keepScenarioRunner } from '../run/vitest.ts';
import { cleanup } from '../run/ledger.ts';
import type { RequirementId, SelectableArea } from '../../contract/requirements.ts';
import { EMBEDDED_RATE_WINDOW_MS } from '../../contract/plans.ts';
import type { RunResult } from '../results/results.ts';
import { servedDocument, startFaultProxy, type FaultHooks, type FaultKeys, type FaultProxy } from './proxy.ts';

export const DEFAULT_TIMEOUT_MS = 5_000;
/** The generated area's budget and seed in a run: small, and fixed, so that both correct runs send the same requests. */
export const GENERATED = 120;
const SEED = 1;

/** One run: its areas (and `only` requirements), and what it may differ in from the bench's defaults. */
export interface RunOptions {
  areas: readonly SelectableArea[];
  label: string;
  only?: readonly RequirementId[];
  timeoutMs?: number;
  generated?: number;
  seed?: number;
  /** The run ends by then (default 120 s). */
  deadlineMs?: number;
  /** Where what the run created is soft-deleted (default: directly at the reference, past any fault; a legal variant cleans through its own proxy, whose ids it knows). */
  cleanupUrl?: string;
}

export interface Bench {
  target: Target;
  keys: FaultKeys;
  run(t: Target, options: RunOptions): Promise<RunResult>;
  /**
   * A proxy with these hooks in front of the reference, and the target it makes: the reference's keys,
   * the proxy's URL and the document the proxy serves. With `preflight`, the target is resolved as
   * for any --base-url (reachable, a valid document, the key accepted). `basePath`: where the proxy
   * mounts the deployment (a document dialect's `/api`); the target's base URL ends with it.
   */
  behindProxy<T>(hooks: FaultHooks, use: (t: Target, proxy: FaultProxy) => Promise<T>, preflight?: boolean, basePath?: string): Promise<T>;
}

export async function startBench(workDir: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<Bench> {
  const target = await resolveTarget({ rateLimitWindowMs: EMBEDDED_RATE_WINDOW_MS });
  // One Vitest for every run of the matrix, closed with the reference.
  const release = keepScenarioRunner();
  const closeReference = target.close;
  target.close = async () => { await release(); await closeReference(); };
  const keys: FaultKeys = { mainKey: target.apiKey, ...target.extraKeys };
  let rateKeyFreeAt = 0;

  async function run(t: Target, { areas, label, only, timeoutMs: runTimeoutMs = timeoutMs, generated = GENERATED, seed = SEED, deadlineMs = 120_000, cleanupUrl = target.baseUrl }: RunOptions): Promise<RunResult> {
    if (areas.includes('rate-limit')) {
      const left = rateKeyFreeAt - Date.now();
      if (left > 0) await sleep(left);
    }
    const session = createSession(t, {
      areas: [...areas], only: only?.length ? { wholeAreas: [], requirementIds: [...only] } : undefined, strict: true, keep: true, timeoutMs: runTimeoutMs, deadlineAt: Date.now() + deadlineMs, workDir,
      plan: 'enterprise', rpm: 0, rateLimitPlan: 'free', allowBillable: true, generated, seed, shownConfig: { selfTest: label }, print: () => undefined,
    });
    let result: RunResult | undefined;
    try {
      return (result = await session.run());
    } finally {
      // A run whose RATE-3 check passed waited out its 429 and left the key fresh (one request into a
      // new window); any other may have left it exhausted: the next such run waits for the window.
      const rested = result?.checks.some((c) => c.requirementIds.includes('RATE-3') && c.outcome === 'pass');
      if (areas.includes('rate-limit') && !rested) rateKeyFreeAt = Date.now() + EMBEDDED_RATE_WINDOW_MS + 200;
      await cleanup({ baseUrl: cleanupUrl, apiKey: target.apiKey, ledgerFile: session.config.ledgerFile, timeoutMs, until: Date.now() + 30_000 }).catch(() => undefined);
      rmSync(session.config.ledgerFile, { force: true });
      rmSync(session.config.stopFile, { force: true });
    }
  }

  async function behindProxy<T>(hooks: FaultHooks, use: (t: Target, proxy: FaultProxy) => Promise<T>, preflight = false, basePath = ''): Promise<T> {
    const proxy = await startFaultProxy(target.baseUrl, hooks, { keys, timeoutMs: 30_000 });
    const baseUrl = proxy.url + basePath;
    try {
      const resolved = preflight ? await resolveTarget({ baseUrl, apiKey: target.apiKey, timeoutMs }) : undefined;
      const document = resolved?.document ?? await servedDocument(baseUrl, timeoutMs);
      return await use({ ...target, baseUrl, embedded: false, document, documentProblem: resolved?.documentProblem, close: async () => undefined }, proxy);
    } finally {
      await proxy.close();
    }
  }
  return { target, keys, run, behindProxy };
}
