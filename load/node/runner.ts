// The Node runner: the load model of load/model/ without k6. Setup through the interface, then
// the steady and ramp phases as an open model (undici, arrivals on the clock), then teardown.
// Each answer gives two times: the service time, from the actual send (what k6 reports as
// http_req_duration, and what the thresholds judge), and the response time, from the scheduled
// send, so that a late send (the runner's, or a slow target backing things up) is charged too
// instead of vanishing (coordinated omission, corrected as wrk2 does). The send lag itself is
// reported per phase.
import { randomInt } from 'node:crypto';
import { flagName, type LoadConfig } from '../model/config.ts';
import { requestAt, type Fixture, type LoadRequest, type SeedData } from '../model/mix.ts';
import { capturedId, fixtureFrom, runTag as makeRunTag, setupSteps, teardownSteps } from '../model/setup.ts';
import { buildSchedule, type PhaseName } from '../model/schedule.ts';
import { SUMMARY_SCHEMA, checksOf, evaluate, noOnsetWarning, verdictOf, type LoadSummary } from '../model/summary.ts';
import { defaultThresholds, type Threshold } from '../model/thresholds.ts';
import { judgeCompleteness } from '../model/complete.ts';
import { seedData, DEFAULT_SEED } from '../data.ts';
import { createClient, type Client, type Outcome } from './client.ts';
import { runPhases, type PhaseProgress } from './phases.ts';
import { warmUp } from './warmup.ts';

/** What the CLI shows while a run goes: the phases' progress (phases.ts), plus setup and teardown. */
export type Progress = Omit<PhaseProgress, 'stage'> & { stage: 'setup' | PhaseProgress['stage'] | 'teardown'; totalMs: number };

export interface NodeRunOptions {
  baseUrl: string;
  apiKey: string;
  config: LoadConfig;
  seed?: number;
  data?: SeedData;
  thresholds?: Threshold[];
  /** Whether the target is the embedded reference (reported; its records are not cleaned up). */
  embedded?: boolean;
  /** Leave the worlds and personas the setup created. */
  keep?: boolean;
  /** Requests sent to a local route before the run to warm the runner's code (load/node/warmup.ts); 0 skips it. */
  warmUp?: number;
  connections?: number;
  onProgress?: (p: Progress) => void;
  signal?: AbortSignal;
}

/** The run could not start (setup refused): the CLI reports it as exit status 2. */
export class SetupError extends Error {}

const is2xx = (s: number) => s >= 200 && s < 300;

/** Sends one request, waiting out 429s by their Retry-After (setup and teardown must not fail on them). */
async function sendPatiently(client: Client, req: LoadRequest, deadline: number, onWait: (s: number) => void): Promise<Outcome> {
  for (;;) {
    const out = await client.send(req, true);
    if (out.status !== 429) return out;
    const waitS = Math.max(1, Number(out.retryAfter) || 1);
    if (Date.now() + waitS * 1000 > deadline) return out;
    onWait(waitS);
    await new Promise((r) => setTimeout(r, waitS * 1000));
  }
}

/**
 * Warms the runner's code on a local route (nothing reaches the target). The CLI calls it before
 * its preflight request to the target, and runs with `warmUp: 0`: a limiter's window begins at a
 * key's first request (the preflight's), and a second of warm-up between that and the setup
 * moved the windows against the schedule and read the 429 onset lower (load/README.md).
 */
export async function warmUpRunner(seed = DEFAULT_SEED, count?: number): Promise<void> {
  const data = seedData(seed);
  const warmFixture = fixtureFrom(data, [...data.worlds, ...data.personas].map((_, i) => `warm-up-${i}`));
  await warmUp((k) => requestAt(k, data, warmFixture), count);
}

export async function runNodeLoad(o: NodeRunOptions): Promise<LoadSummary> {
  const config = o.config;
  const seed = o.seed ?? DEFAULT_SEED;
  const data = o.data ?? seedData(seed);
  const thresholds = o.thresholds ?? defaultThresholds(config);
  const schedule = buildSchedule(config);
  const tag = makeRunTag(Date.now(), randomInt(2 ** 31));
  const client = createClient(o.baseUrl, o.apiKey, { connections: o.connections, timeoutMs: config.timeoutMs });
  const warnings: string[] = [];
  const report = (p: Omit<Progress, 'lastSecond' | 'sent' | 'ok' | 'rateLimited' | 'errors'> & Partial<Progress>) =>
    o.onProgress?.({ lastSecond: 0, sent: 0, ok: 0, rateLimited: 0, errors: 0, ...p });

  try {
    // ---- Warm-up: the runner's own code, on a local route; nothing reaches the target. ----
    if (o.warmUp !== 0) {
      report({ stage: 'setup', elapsedMs: 0, totalMs: schedule.totalMs, note: 'warming up the runner on a local route (nothing is sent to the target)' });
      const warmFixture = fixtureFrom(data, [...data.worlds, ...data.personas].map((_, i) => `warm-up-${i}`));
      await warmUp((k) => requestAt(k, data, warmFixture), o.warmUp);
    }

    // ---- Setup: sequential, before the clock starts; its sends count against the rate limit. ----
    const setupSends: number[] = [];
    const ids: string[] = [];
    const steps = setupSteps(data, tag);
    for (const step of steps) {
      report({ stage: 'setup', elapsedMs: 0, totalMs: schedule.totalMs, note: `${step.operationId} ${ids.length + 1}/${steps.length}` });
      setupSends.push(performance.now());
      const out = await sendPatiently(client, step, Date.now() + config.windowMs + 5_000, (s) =>
        report({ stage: 'setup', elapsedMs: 0, totalMs: schedule.totalMs, note: `rate limited, waiting ${s} s (Retry-After)` }));
      const id = is2xx(out.status) ? capturedId(step, safeJson(out.text)) : undefined;
      if (!id) {
        throw new SetupError(`setup: ${step.method} ${step.path} (${step.operationId}) answered ${out.status || out.error}` +
          `${out.text ? `: ${out.text.slice(0, 200)}` : ''}; the load needs it to create its data`);
      }
      ids.push(id);
    }
    const fx: Fixture = fixtureFrom(data, ids);

    // ---- Measured phases. ----
    const { recorder, wallMs, aborted } = await runPhases({
      client, config, schedule, thresholds, requestAt: (k) => requestAt(k, data, fx), setupSends, signal: o.signal,
      onProgress: (p) => report({ ...p, totalMs: schedule.totalMs }),
    });

    // ---- Teardown: soft-delete what the setup made (a shared staging tenant stays tidy). ----
    if (!o.keep && !o.embedded) {
      const deadline = Date.now() + config.windowMs + 5_000;
      for (const req of teardownSteps(fx)) {
        const out = await sendPatiently(client, req, deadline, (s) =>
          report({ stage: 'teardown', elapsedMs: wallMs, totalMs: schedule.totalMs, note: `rate limited, waiting ${s} s (Retry-After)` }));
        if (!is2xx(out.status)) warnings.push(`teardown: ${req.method} ${req.path} answered ${out.status || out.error}; delete it by hand`);
      }
    }

    const phases = recorder.phaseResults();
    const onset = recorder.onset();
    for (const p of phases) {
      const target = ((p.fromRps + p.toRps) / 2);
      if (!aborted && p.achievedRps! < target * 0.98) {
        warnings.push(`${p.name}: the runner sent ${p.achievedRps!.toFixed(1)} req/s of the ${target.toFixed(1)} planned (sends up to ${+(p.sendLag?.max ?? 0).toFixed(1)} ms late): ` +
          'the client machine could not keep up; the response times include that lag, the service times do not');
      }
    }
    if (!onset.found && !aborted) {
      warnings.push(noOnsetWarning(config, steps.length, flagName));
    } else if (onset.found && onset.resolution > 0.25) {
      warnings.push(`the ramp climbs ${Math.round(onset.resolution * 100)}% of the limit per rate-limit window: a fixed-window limiter says no only once a window's budget is spent, ` +
        `so read the onset as the load offered over that window (${Math.round(onset.fractionOfLimit! * 100)}%), not as the rate at that moment (${Math.round(onset.rateFraction! * 100)}%)`);
    }
    const results = evaluate(thresholds, phases, onset);
    const timeline = recorder.timeline();
    // Interrupted, or short of the plan otherwise: no verdict (an abortOnFail threshold's stop keeps its FAIL).
    return judgeCompleteness({
      schema: SUMMARY_SCHEMA, engine: 'node', tier: config.tier,
      plan: { rpm: config.rpm, windowMs: config.windowMs, limitRps: schedule.limitRps },
      config: { ...config, seed }, target: { baseUrl: o.baseUrl, ...(o.embedded !== undefined ? { embedded: o.embedded } : {}) },
      startedAt: new Date(Date.now() - wallMs).toISOString(), durationMs: Math.round(wallMs),
      setup: { requests: steps.length, runTag: tag },
      phases, onset, thresholds: results, checks: checksOf(phases), verdict: verdictOf(results, aborted),
      ...(aborted ? { aborted } : {}), warnings, timeline, histograms: recorder.histograms(), samples: recorder.sampleStore(),
    }, aborted === 'interrupted' ? ['interrupted'] : []);
  } finally {
    await client.close();
  }
}

function safeJson(text: string | undefined): unknown {
  try { return JSON.parse(text ?? ''); } catch { return undefined; }
}
