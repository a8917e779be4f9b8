// npm run conformance: checks every requirement of SPEC.md against a deployment (or the embedded
// reference) and writes JUnit, JSON and HTML reports. Exit 0: every MUST holds; 1: a MUST failed
// (or a SHOULD with --strict); 2: the run could not start, could not finish, or was interrupted.
import { resolve } from 'node:path';
import { helpText, parseOptions, redacted } from './common/options.ts';
import { UsageError, exitWith } from './common/errors.ts';
import { guardLiveKey, resolveTarget } from '../suite/run/target.ts';
import { EMBEDDED_RATE_WINDOW_MS } from '../contract/plans.ts';
import { AREAS } from '../contract/requirements.ts';
import { OPTIONS } from './conformance/options.ts';
import { createSession } from '../suite/run/session.ts';
import { writeReports } from '../suite/reports/index.ts';
import { renderSummary } from '../suite/reports/terminal.ts';

const USAGE = 'Usage: npm run conformance -- [options]';
const ABOUT = `Checks a Simulation Service deployment against SPEC.md: every endpoint, state transition, error code,
auth, tenant isolation, rate limits and every response against the OpenAPI contract. Without --base-url it
starts the reference deployment in-process and checks that. Exit status: 0 every MUST requirement holds,
1 a MUST failed (or a SHOULD, with --strict), 2 the run could not start, could not finish, or was interrupted.
Areas: ${AREAS.join(', ')}.`;

async function main(): Promise<number> {
  const v = parseOptions(OPTIONS, process.argv.slice(2), process.env, 'CONFORMANCE', 'config');
  if (v.help) { process.stdout.write(helpText(USAGE, ABOUT, OPTIONS, 'CONFORMANCE')); return 0; }
  const print = (line: string) => process.stdout.write(line + '\n');
  for (const key of [v['api-key'], v['second-key'], v['rate-limit-key'], v['origin-key']]) guardLiveKey(key, v['allow-live']);
  if ((v['origin-key'] === undefined) !== (v['allowed-origin'] === undefined) && v['base-url']) {
    throw new UsageError('--origin-key and --allowed-origin go together');
  }
  if (v['self-test']) {
    const { selfTest } = await import('../suite/self-test/index.ts');
    return selfTest({ print, reportDir: resolve(v['report-dir']) });
  }

  const areas = v.only.length ? v.only : [...AREAS];
  const timeoutMs = v['timeout-ms'];
  const target = await resolveTarget({
    baseUrl: v['base-url'], apiKey: v['api-key'], allowLive: v['allow-live'], timeoutMs,
    rateLimitWindowMs: v['base-url'] ? undefined : EMBEDDED_RATE_WINDOW_MS,
  });
  const shown = redacted(OPTIONS, v);
  // An interruption owns the end of the run: the scenarios stop, what they created is cleaned up
  // once, and the command exits 2. Before the scenarios start, the signal lands here directly.
  let stopping = false;
  let finished = false;
  const interrupted = async () => {
    if (finished) return;
    finished = true;
    stopping = true;
    print('\ninterrupted: cleaning up what the run created…');
    await session.tidy().catch((err: Error) => print(`  cleanup failed: ${err.message}`));
    await target.close().catch(() => undefined);
    process.exit(2);
  };
  const session = createSession(target, {
    areas, strict: v.strict, keep: v.keep, timeoutMs, deadlineMs: v['deadline-s'] * 1000,
    workDir: resolve(v['report-dir']), plan: v.plan, rpm: v.rpm, rateLimitPlan: v['rate-limit-plan'],
    secondKey: v['second-key'], rateLimitKey: v['rate-limit-key'], originKey: v['origin-key'], allowedOrigin: v['allowed-origin'],
    allowBillable: v['allow-billable'], generated: v.generated, seed: v.seed, shownConfig: shown, print,
  }, interrupted, () => { stopping = true; });
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);

  print(`conformance run ${session.runId} against ${target.baseUrl}${target.embedded ? ' (embedded reference)' : ''}`);
  print(`  areas: ${areas.join(', ')}`);
  print(`  configuration: ${JSON.stringify(shown)}`);
  if (areas.includes('generated')) print(`  generated: ${session.config.generated} requests, seed ${session.config.seed} (the same --seed and --generated repeat the same requests)`);
  const result = await session.run();
  // Interrupted: the interruption handler cleans up and exits 2; nothing more happens here.
  if (stopping) return new Promise<number>(() => undefined);
  finished = true;
  try {
    await session.tidy();
    const paths = writeReports(result, resolve(v['report-dir']));
    print(renderSummary(result, { color: !v['no-color'] && process.stdout.isTTY === true, paths }));
    return result.exitCode;
  } finally {
    await target.close();
  }
}

main().then((code) => process.exit(code), (err) => exitWith('conformance', err));
