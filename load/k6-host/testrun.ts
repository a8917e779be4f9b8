// The k6-operator TestRun of a tier (load/README.md shows the pro one at parallelism 2): the
// bundle from a ConfigMap, the key from a Secret, the target and the metrics' destination in each
// runner's environment. The metrics go to a Prometheus remote-write endpoint the user names
// (K6_PROMETHEUS_RW_SERVER_URL): k6's experimental-prometheus-rw output otherwise writes to
// http://localhost:9090/api/v1/write, which in a runner pod is the pod itself, and nothing is
// collected. Each runner runs setup and teardown (k6-operator skips them only for Grafana Cloud
// private load zones): a parallelism whose setups would crowd the first window is refused
// (load/model/distributed.ts). `npx tsx load/k6-host/testrun.ts --tier pro --parallelism 4
// --base-url URL --remote-write-url URL` prints one.
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import { isPlan, type Plan } from '../../contract/plans.ts';
import { resolveConfig } from '../model/config.ts';
import { executionSplit, maxParallelism } from '../model/distributed.ts';
import { setupSteps } from '../model/setup.ts';
import { seedData } from '../data.ts';

export interface TestRunOptions {
  tier: Plan;
  parallelism: number;
  /** The deployment to load. */
  baseUrl: string;
  /** Where every runner writes its metrics (a Prometheus remote-write endpoint). */
  remoteWriteUrl: string;
  /** The enterprise tier's negotiated limit. */
  rpm?: number;
}

/** Trend statistics the output sends for each Trend (its default is p(99) alone): what the thresholds judge, and the count. */
export const TREND_STATS = 'p(95),p(99),max,count';

/** The most runners a tier's run may have at the default steady load (each runs the 4-request setup). */
export function parallelismLimit(tier: Plan, rpm?: number): number {
  const config = resolveConfig({ tier, ...(rpm !== undefined ? { rpm } : {}) });
  return maxParallelism(config.rpm, config.steadyFraction, setupSteps(seedData(), '').length);
}

/**
 * The runners of a split run, checked: the operator's split (executionSplit), refused when the
 * runners' setups would crowd the first window. The manifest and the local distributed mode both
 * take their runners from here.
 */
export function runnerSplit(tier: Plan, parallelism: number, rpm?: number) {
  const split = executionSplit(parallelism);
  const limit = parallelismLimit(tier, rpm);
  if (parallelism > limit) {
    throw new Error(`parallelism ${parallelism} is too many for the ${tier} tier: each runner's setup sends ${setupSteps(seedData(), '').length} requests ` +
      `in the first window, on top of the steady load; at most ${limit} keep that window within 95% of the budget`);
  }
  return split;
}

export function testRun(o: TestRunOptions) {
  // The operator splits the run itself from `parallelism`, by the rule executionSplit states.
  const parallelism = runnerSplit(o.tier, o.parallelism, o.rpm).length;
  for (const [name, url] of [['base URL', o.baseUrl], ['remote-write URL', o.remoteWriteUrl]] as const) {
    if (!/^https?:\/\/[^/]/.test(url)) throw new Error(`the ${name} must be an http(s) URL, got '${url}'`);
  }
  if (/^https?:\/\/(localhost|127\.|\[::1\])/.test(o.remoteWriteUrl)) {
    throw new Error(`the remote-write URL ${o.remoteWriteUrl} is the runner pod itself: name a Prometheus the pods can reach`);
  }
  const name = `load-${o.tier}`;
  return {
    apiVersion: 'k6.io/v1alpha1',
    kind: 'TestRun',
    metadata: { name },
    spec: {
      parallelism,
      script: { configMap: { name, file: `${o.tier}.js` } },
      // k6's own end-of-test summary in each runner's log; the metrics of all runners, tagged by
      // the operator with testrun_name and instance_id, in one Prometheus.
      arguments: '--out experimental-prometheus-rw',
      cleanup: 'post',
      runner: {
        env: [
          { name: 'LOAD_BASE_URL', value: o.baseUrl },
          { name: 'LOAD_API_KEY', valueFrom: { secretKeyRef: { name: 'load-key', key: 'key' } } },
          ...(o.tier === 'enterprise' ? [{ name: 'LOAD_RPM', value: String(o.rpm) }] : []),
          { name: 'LOAD_TIMEOUT_MS', value: '10000' },
          { name: 'LOAD_SUMMARY', value: 'k6' },
          { name: 'K6_PROMETHEUS_RW_SERVER_URL', value: o.remoteWriteUrl },
          { name: 'K6_PROMETHEUS_RW_TREND_STATS', value: TREND_STATS },
        ],
      },
    },
  };
}

export const renderTestRun = (o: TestRunOptions): string => stringify(testRun(o), { lineWidth: 0 });

const USAGE = `Usage: npx tsx load/k6-host/testrun.ts --tier free|starter|pro|enterprise [--parallelism N] [--base-url URL] [--remote-write-url URL] [--rpm N]
Prints the k6-operator TestRun of a tier (YAML on stdout; load/README.md shows one).
`;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    // parseArgs throws on an unknown flag (ERR_PARSE_ARGS_*): one line and exit 2, as every command here.
    const { values } = parseArgs({ options: { tier: { type: 'string' }, parallelism: { type: 'string', default: '1' }, 'base-url': { type: 'string' }, 'remote-write-url': { type: 'string' }, rpm: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
    if (values.help) { process.stdout.write(USAGE); process.exit(0); }
    if (!isPlan(values.tier ?? '')) throw new Error('--tier is required: free, starter, pro or enterprise (--help lists the options)');
    process.stdout.write(renderTestRun({
      tier: values.tier as Plan, parallelism: Number(values.parallelism), baseUrl: values['base-url'] ?? '', remoteWriteUrl: values['remote-write-url'] ?? '',
      ...(values.rpm ? { rpm: Number(values.rpm) } : {}),
    }));
  } catch (err) {
    process.stderr.write(`testrun: ${(err as Error).message.split('\n')[0]}\n`);
    process.exit(2);
  }
}
