// npm run conformance: checks every requirement of SPEC.md against a deployment (or the embedded
// reference) and writes JUnit, JSON and HTML reports. Exit 0: every MUST holds; 1: a MUST failed
// (or a SHOULD with --strict); 2: the run could not start, could not finish, or was interrupted.
import { resolve } from 'node:path';
import { helpText, parseOptions, redacted } from './common/options.ts';
import { UsageError, exitWith } from './common/errors.ts';
import { guardLiveKey, resolveTarget } from './common/target.ts';
import type { Plan } from '../reference/platform/index.ts';
import { AREAS, OPTIONS } from './conformance/options.ts';
import { createSession } from './conformance/session.ts';
import { writeReports } from './conformance/reports/index.ts';
import { renderSummary } from './conformance/reports/terminal.ts';

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
  const str = (name: string) => v[name] as string | undefined;
  for (const k of ['api-key', 'second-key', 'rate-limit-key', 'origin-key']) guardLiveKey(str(k), v['allow-live'] as boolean);
  if ((str('origin-key') === undefined) !== (str('allowed-origin') === undefined) && str('base-url')) {
    throw new UsageError('--origin-key and --allowed-origin go together');
  }
  if (v['self-test']) {
    const { selfTest } = await import('./conformance/self-test.ts');
    return selfTest({ print, reportDir: resolve(String(v['report-dir'])) });
  }

  const areas = (v.only as string[]).length ? (v.only as string[]) : [...AREAS];
  const timeoutMs = Number(v['timeout-ms']);
  const target = await resolveTarget({
    baseUrl: str('base-url'), apiKey: str('api-key'), allowLive: v['allow-live'] as boolean, timeoutMs,
    // The embedded reference gets a short rate-limit window so that the rate-limit area is quick.
    rateLimitWindowMs: str('base-url') ? undefined : 3000,
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
    areas, strict: v.strict as boolean, keep: v.keep as boolean, timeoutMs, deadlineMs: Number(v['deadline-s']) * 1000,
    workDir: resolve(String(v['report-dir'])), plan: v.plan as Plan, rpm: v.rpm as number | undefined,
    rateLimitPlan: v['rate-limit-plan'] as Plan, secondKey: str('second-key'), rateLimitKey: str('rate-limit-key'),
    originKey: str('origin-key'), allowedOrigin: str('allowed-origin'), allowBillable: v['allow-billable'] as boolean,
    shownConfig: shown, print,
  }, interrupted, () => { stopping = true; });
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);

  print(`conformance run ${session.runId} against ${target.baseUrl}${target.embedded ? ' (embedded reference)' : ''}`);
  print(`  areas: ${areas.join(', ')}`);
  print(`  configuration: ${JSON.stringify(shown)}`);
  const result = await session.run();
  // Interrupted: the interruption handler cleans up and exits 2; nothing more happens here.
  if (stopping) return new Promise<number>(() => undefined);
  finished = true;
  try {
    await session.tidy();
    const paths = writeReports(result, resolve(String(v['report-dir'])));
    print(renderSummary(result, { color: !v['no-color'] && process.stdout.isTTY === true, paths }));
    return result.exitCode;
  } finally {
    await target.close();
  }
}

main().then((code) => process.exit(code), (err) => exitWith('conformance', err));
