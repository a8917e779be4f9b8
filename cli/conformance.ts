// npm run conformance: checks every requirement of SPEC.md against a deployment (or the embedded
// reference) and writes JUnit, JSON and HTML reports. Exit 0: every MUST holds; 1: a MUST failed
// (or a SHOULD with --strict); 2: the run could not start or was interrupted.
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { helpText, parseOptions, redacted, type Values } from './common/options.ts';
import { UsageError, exitWith } from './common/errors.ts';
import { guardLiveKey, resolveTarget, type Target } from './common/target.ts';
import { PLAN_RPM } from '../reference/platform/index.ts';
import { AREAS, OPTIONS } from './conformance/options.ts';
import { runScenarios } from './conformance/run.ts';
import { buildResults } from './conformance/results.ts';
import { cleanup } from './conformance/cleanup.ts';
import { drift } from './conformance/drift.ts';
import { writeReports } from './conformance/reports/index.ts';
import { renderSummary } from './conformance/reports/terminal.ts';
import type { SuiteConfig } from '../scenarios/support/config.ts';

const USAGE = 'Usage: npm run conformance -- [options]';
const ABOUT = `Checks a Simulation Service deployment against SPEC.md: every endpoint, state transition, error code,
auth, tenant isolation, rate limits and every response against the OpenAPI contract. Without --base-url it
starts the reference deployment in-process and checks that. Exit status: 0 every MUST requirement holds,
1 a MUST failed (or a SHOULD, with --strict), 2 the run could not start or was interrupted.
Areas: ${AREAS.join(', ')}.`;

const bundled = () => JSON.parse(readFileSync(new URL('../contract/openapi.json', import.meta.url), 'utf8'));
const paceOf = (v: Values) => (v.rpm !== undefined ? Number(v.rpm) : v.plan === 'enterprise' ? 0 : Math.floor(PLAN_RPM[v.plan as 'free'] * 0.9));

async function main(): Promise<number> {
  const v = parseOptions(OPTIONS, process.argv.slice(2), process.env, 'CONFORMANCE', 'config');
  if (v.help) { process.stdout.write(helpText(USAGE, ABOUT, OPTIONS, 'CONFORMANCE')); return 0; }
  const print = (line: string) => process.stdout.write(line + '\n');
  for (const k of ['api-key', 'second-key', 'rate-limit-key', 'origin-key']) guardLiveKey(v[k] as string | undefined, v['allow-live'] as boolean);
  if ((v['origin-key'] === undefined) !== (v['allowed-origin'] === undefined) && v['base-url']) throw new UsageError('--origin-key and --allowed-origin go together');

  const started = new Date();
  const runId = randomBytes(4).toString('hex');
  const reportDir = resolve(String(v['report-dir']));
  mkdirSync(reportDir, { recursive: true });
  const areas = (v.only as string[]).length ? (v.only as string[]) : [...AREAS];
  const timeoutMs = Number(v['timeout-ms']);

  const target: Target = await resolveTarget({
    baseUrl: v['base-url'] as string | undefined, apiKey: v['api-key'] as string | undefined, allowLive: v['allow-live'] as boolean, timeoutMs,
    // The embedded reference gets a short rate-limit window so the rate-limit area finishes quickly.
    rateLimitWindowMs: v['base-url'] ? undefined : 3000,
  });
  const config: SuiteConfig = {
    runId, baseUrl: target.baseUrl, apiKey: target.apiKey,
    secondKey: (v['second-key'] as string | undefined) ?? target.extraKeys.secondKey,
    rateLimitKey: (v['rate-limit-key'] as string | undefined) ?? target.extraKeys.rateLimitKey,
    plan: (target.embedded ? 'free' : v['rate-limit-plan']) as SuiteConfig['plan'],
    paceRpm: target.embedded ? 0 : paceOf(v),
    originKey: (v['origin-key'] as string | undefined) ?? target.extraKeys.originKey,
    allowedOrigin: (v['allowed-origin'] as string | undefined) ?? target.extraKeys.allowedOrigin,
    allowBillable: target.embedded || (v['allow-billable'] as boolean),
    timeoutMs,
    ledgerFile: join(reportDir, `.created-${runId}.jsonl`),
    servedDocument: target.document,
    bundledDocument: bundled(),
  };

  const shown = redacted(OPTIONS, v);
  print(`conformance run ${runId} against ${target.baseUrl}${target.embedded ? ' (embedded reference)' : ''}`);
  print(`  areas: ${areas.join(', ')}`);
  print(`  configuration: ${JSON.stringify(shown)}`);

  let finished = false;
  const tidy = async () => {
    if (v.keep) { print(`  --keep: left what the run created (listed in ${config.ledgerFile})`); return; }
    const done = await cleanup(target.baseUrl, target.apiKey, config.ledgerFile, timeoutMs);
    print(`  cleanup: soft-deleted ${done.deleted} of ${done.created} resources the run created${done.failed.length ? `; could not delete: ${done.failed.join(', ')}` : ''}`);
    if (!done.failed.length) rmSync(config.ledgerFile, { force: true });
  };
  const interrupted = async () => {
    if (finished) return;
    finished = true;
    print('\ninterrupted: cleaning up what the run created…');
    await tidy().catch((err: Error) => print(`  cleanup failed: ${err.message}`));
    await target.close().catch(() => undefined);
    process.exit(2);
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);

  try {
    const collector = await runScenarios(config, areas, { print, deadlineMs: Number(v['deadline-s']) * 1000, onInterrupt: interrupted });
    for (const e of collector.unhandled) print(`  suite error: ${e}`);
    const result = buildResults({
      tests: collector.tests, strict: v.strict as boolean, runId, startedAt: started,
      target: { baseUrl: target.baseUrl, embedded: target.embedded }, config: { ...shown, areas },
      areas, bundledDocument: config.bundledDocument, drift: drift(config.bundledDocument, config.servedDocument),
    });
    const paths = writeReports(result, reportDir);
    await tidy();
    print(renderSummary(result, { color: !v['no-color'] && process.stdout.isTTY === true, paths }));
    finished = true;
    return result.exitCode;
  } finally {
    finished = true;
    await target.close();
  }
}

main().then((code) => process.exit(code), (err) => exitWith('conformance', err));
