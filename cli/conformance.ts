// npm run conformance: checks every requirement of SPEC.md against a deployment (or the embedded
// reference) and writes JUnit, JSON and HTML reports. Exit 0: every MUST holds; 1: a MUST failed
// (or a SHOULD with --strict); 2: the run could not start, could not finish, or was interrupted.
// Only what parsing the options needs is imported here; the run's modules (the reference, vitest,
// the reports) load once the options are known good, so --help and a mistyped flag answer at once.
import { resolve } from 'node:path';
import { setMaxListeners } from 'node:events';
import { helpText, parseOptions, redacted } from './common/options.ts';
import { UsageError } from './common/errors.ts';
import { EMBEDDED_RATE_WINDOW_MS } from '../contract/plans.ts';
import { AREAS } from '../contract/requirements.ts';
import { OPTIONS } from './conformance/options.ts';
import { existsSync } from 'node:fs';
import { isEntry, runCommand } from './common/command.ts';
import { wantsColor } from './common/color.ts';
import { ensureWritableDir } from './common/report-dir.ts';
import { selectionOf } from '../suite/data/selection.ts';
import { scrub } from '../suite/data/redact.ts';
import { mbToBytes } from '../suite/data/body-cap.ts';
import { fitSmallContainer } from './common/memory.ts';

const ABOUT = `Checks a Simulation Service deployment against SPEC.md: every endpoint, state transition, error code,
auth, tenant isolation, rate limits and every response against the OpenAPI contract. Without --base-url it
starts the reference deployment in-process and checks that. Exit status: 0 every MUST requirement holds,
1 a MUST failed (or a SHOULD, with --strict; or a MUST not fully verified, with --require-verified),
2 the run could not start, could not finish, or was interrupted.
Areas: ${AREAS.join(', ')}.`;

/** The keys this run knows: nothing the command prints may hold one, in any form (suite/data/redact.ts). */
const secrets: Array<string | undefined> = [];
const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];

export async function main(argv: string[], env: NodeJS.ProcessEnv, invokedAs: string): Promise<number> {
  // Before anything large loads: the run's process tree fits a small CI container (cli/common/memory.ts).
  fitSmallContainer();
  try {
    return await conformance(argv, env, invokedAs);
  } catch (err) {
    // The command's last error line goes through the one redaction too.
    if (err instanceof Error) { err.message = scrub(err.message, secrets); err.stack = err.stack && scrub(err.stack, secrets); }
    throw err;
  }
}

async function conformance(argv: string[], env: NodeJS.ProcessEnv, invokedAs: string): Promise<number> {
  const v = parseOptions(OPTIONS, argv, env, 'CONFORMANCE', 'config');
  if (v.help) { process.stdout.write(helpText(`Usage: ${invokedAs} [options]`, ABOUT, OPTIONS, 'CONFORMANCE')); return 0; }
  // Every line the command prints goes through the one redaction with every key the run knows (the
  // given ones now, the embedded reference's once it has started).
  secrets.push(v['api-key'], v['second-key'], v['rate-limit-key'], v['origin-key']);
  const print = (line: string) => process.stdout.write(scrub(line, secrets) + '\n');
  if (!(v['max-body-mb'] > 0)) throw new UsageError(`--max-body-mb: expected a size in MB above 0, got ${v['max-body-mb']}`);
  const color = wantsColor(process.stdout, v['no-color'], env);
  const selection = selectionOf(v.only);
  // A refused start (a known-failures file with a typo, a live key) is said after the report folder is
  // checked, so that a run the CI gates on leaves its junit.xml naming the cause.
  let refused: UsageError | undefined;
  const unless = <T>(step: () => T): T | undefined => {
    try {
      return step();
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      refused ??= err;
      return undefined;
    }
  };
  const { readKnownFailures } = await import('../suite/results/known-failures.ts');
  const known = v['known-failures'] ? unless(() => readKnownFailures(v['known-failures']!)) : undefined;
  if (v.list) {
    if (refused) throw refused;
    const { listChecks, renderListing } = await import('../suite/run/list.ts');
    print(renderListing(await listChecks({
      baseUrl: v['base-url'], secondKey: v['second-key'], rateLimitKey: v['rate-limit-key'], rateLimitPlan: v['rate-limit-plan'], originKey: v['origin-key'], allowedOrigin: v['allowed-origin'],
      allowBillable: v['allow-billable'], generated: v.generated, modelCommands: v['model-commands'], timeoutMs: v['timeout-ms'], selection,
    })));
    return 0;
  }
  const { guardLiveKey, resolveTarget } = await import('../suite/run/target.ts');
  for (const key of [v['api-key'], v['second-key'], v['rate-limit-key'], v['origin-key']]) unless(() => guardLiveKey(key, v['allow-live']));
  if ((v['origin-key'] === undefined) !== (v['allowed-origin'] === undefined) && v['base-url']) {
    refused ??= new UsageError('--origin-key and --allowed-origin go together');
  }
  const maxBodyBytes = mbToBytes(v['max-body-mb']);
  if (v.cleanup) {
    if (refused) throw refused;
    return cleanupLedger(v.cleanup, v['api-key'], v['timeout-ms'], maxBodyBytes, print);
  }
  // Before anything starts: a run whose reports cannot be written must not run for minutes first.
  ensureWritableDir(v['report-dir'], '--report-dir');
  if (v['self-test']) {
    if (refused) throw refused;
    const { selfTest } = await import('../suite/self-test/index.ts');
    return selfTest({ print, reportDir: resolve(v['report-dir']), areas: selection?.areas });
  }

  const areas = selection?.areas ?? [...AREAS];
  const { createSession } = await import('../suite/run/session.ts');
  const { writeReports } = await import('../suite/reports/index.ts');
  const { renderSummary } = await import('../suite/reports/terminal.ts');
  // The deadline counts from here, once the run's modules are loaded: the preflight, the checks and
  // the reports all fall within it.
  const deadlineAt = Date.now() + v['deadline-s'] * 1000;
  const timeoutMs = v['timeout-ms'];
  const shown = redacted(OPTIONS, v);
  // A run that never reaches its checks still leaves reports: the CI step that publishes junit.xml
  // finds the cause as a failed testcase, not an empty folder.
  const startedAt = new Date();
  const { notStartedResult } = await import('../suite/results/not-started.ts');
  const notStarted = (cause: string) => {
    const target = v['base-url'] ? { baseUrl: v['base-url'], embedded: false } : undefined;
    writeReports(notStartedResult({ cause: scrub(cause, secrets), startedAt, target, config: { ...shown, areas } }), resolve(v['report-dir']), secrets);
  };
  if (refused) {
    notStarted(refused.message);
    throw refused;
  }
  // Before the session exists, a signal or the deadline ends the preflight at once.
  const early = (signal: NodeJS.Signals) => {
    print('\ninterrupted before the checks started');
    notStarted(`interrupted (${signal}) before the checks started`);
    process.exit(2);
  };
  process.on('SIGINT', early);
  process.on('SIGTERM', early);
  const target = await resolveTarget({
    baseUrl: v['base-url'], apiKey: v['api-key'], allowLive: v['allow-live'], timeoutMs, deadlineAt, maxBodyBytes,
    rateLimitWindowMs: v['base-url'] ? undefined : EMBEDDED_RATE_WINDOW_MS,
  }).catch((err: Error) => {
    notStarted(err.message.split('\n')[0]);
    throw err;
  });
  secrets.push(target.apiKey, target.extraKeys.secondKey, target.extraKeys.rateLimitKey, target.extraKeys.originKey);
  const session = createSession(target, {
    areas, only: selection, knownFailures: known, strict: v.strict, requireVerified: v['require-verified'], keep: v.keep, timeoutMs, deadlineAt, maxBodyMb: v['max-body-mb'],
    workDir: resolve(v['report-dir']), plan: v.plan, rpm: v.rpm, rateLimitPlan: v['rate-limit-plan'],
    secondKey: v['second-key'], rateLimitKey: v['rate-limit-key'], originKey: v['origin-key'], allowedOrigin: v['allowed-origin'],
    allowBillable: v['allow-billable'], generated: v.generated, seed: v.seed, modelCommands: v['model-commands'], shownConfig: shown, print,
  });
  process.off('SIGINT', early);
  process.off('SIGTERM', early);
  // Ctrl-C: the first press stops the checks (cleanup and reports follow); a second says what cleanup
  // has left and goes on; a third within 5 s of the second abandons cleanup (the ledger keeps the rest).
  const abandon = new AbortController();
  // Every cleanup request in flight listens to it (suite/http/deadline.ts): many at once is no leak, and
  // Node's warning past 10 listeners would reach the user's terminal.
  setMaxListeners(0, abandon.signal);
  let presses = 0;
  let lastPress = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    presses++;
    const now = Date.now();
    if (presses === 1) {
      print(`\n${signal === 'SIGINT' ? 'Ctrl-C' : signal}: stopping the checks, then cleaning up what the run created (Ctrl-C again shows what is left)`);
      session.stop(`interrupted (${signal})`);
    } else if (presses > 2 && now - lastPress < 5000) {
      print('\nabandoning cleanup: what is left stays in the ledger');
      abandon.abort();
    } else {
      const left = session.cleanupLeft();
      print(`\nstill cleaning up${left ? `: ${left.left} of ${left.total} resources left` : ''}; press Ctrl-C again within 5 s to abandon (the ledger keeps what is left for --cleanup)`);
    }
    lastPress = now;
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  print(`conformance run ${session.runId} against ${target.baseUrl}${target.embedded ? ' (embedded reference)' : ''}`);
  print(`  areas: ${areas.join(', ')}`);
  const { LOOPBACK, proxyFor } = await import('../suite/http/proxy.ts');
  const proxy = proxyFor(target.baseUrl);
  if (proxy) print(`  through the proxy ${proxy.shown} (${proxy.from}; NO_PROXY does not cover ${new URL(target.baseUrl).host})`);
  else if (PROXY_VARIABLES.some((name) => process.env[name])) print(`  direct, not through the proxy the environment sets (${target.embedded ? 'the embedded reference' : new URL(target.baseUrl).host} is ${LOOPBACK.includes(new URL(target.baseUrl).hostname) ? 'this machine' : 'in NO_PROXY'})`);
  print(`  configuration: ${JSON.stringify(shown)}`);
  if (target.documentProblem) print(`  ${target.documentProblem}: OAS-1 fails; the checks go on against the bundled contract`);
  if (areas.includes('generated')) print(`  generated: ${session.config.generated} requests, seed ${session.config.seed} (the same --seed and --generated repeat the same requests)`);
  if (areas.includes('model')) print(`  model: ${session.config.modelCommands} commands, seed ${session.config.seed} (the same --seed and --model-commands repeat the same sequences)`);
  try {
    const result = await session.run();
    if (session.stopped) print(`  stopped: ${session.stopped}; the checks not finished are "not run"`);
    await session.tidy({ abandon: abandon.signal });
    const paths = writeReports(result, resolve(v['report-dir']), secrets);
    print(renderSummary(result, { color, paths }));
    return result.exitCode;
  } finally {
    await target.close().catch(() => undefined);
  }
}

/** --cleanup FILE: soft-deletes what a ledger of an earlier run lists (its base URL is in the ledger). */
async function cleanupLedger(file: string, apiKey: string | undefined, timeoutMs: number, maxBodyBytes: number, print: (line: string) => void): Promise<number> {
  const { readLedger, cleanup, describeCleanup } = await import('../suite/run/ledger.ts');
  const { CLEANUP_BOUND_MS } = await import('../suite/run/session.ts');
  const entries = readLedger(file);
  if (!existsSync(file)) throw new UsageError(`${file}: no such ledger`);
  if (!entries.length) { print(`${file}: nothing left to remove`); return 0; }
  const baseUrl = entries.find((e) => e.baseUrl)?.baseUrl;
  if (!baseUrl) throw new UsageError(`${file}: the ledger does not say which deployment it belongs to`);
  if (!apiKey) throw new UsageError('--cleanup needs the --api-key that created what the ledger lists');
  // The run's name is searched for in the lists too, as at the end of the run.
  const runId = entries.find((e) => e.runId)?.runId ?? /\.created-([0-9a-f]+)\.jsonl$/.exec(file)?.[1];
  const done = await cleanup({
    baseUrl, apiKey, ledgerFile: file, timeoutMs, until: Date.now() + CLEANUP_BOUND_MS, runId, maxBodyBytes,
    progress: (left, total) => { if (left % 10 === 0) print(`  ${total - left} of ${total}`); },
  });
  print(`cleanup of ${file}: ${describeCleanup(done, file)}${done.left.length ? '' : '; the ledger is removed'}`);
  return done.left.length ? 1 : 0;
}

if (isEntry(import.meta.url)) runCommand('conformance', main, process.argv.slice(2), 'npm run conformance --');
