// The k6-operator manifest in load/README.md: a TestRun the operator accepts (the CRD's schema,
// test/load/testrun-schema.ts), running a bundle that the build makes, with the target and the
// key in the runner's environment, the key from a Secret and never written in the manifest, and
// every other LOAD_* variable one the bundles read.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PLANS } from '../../contract/plans.ts';
import { TESTRUN_SCHEMA } from './testrun-schema.ts';
import { operatorRunners } from './k6-operator.ts';
import { parallelismLimit, renderTestRun, testRun } from '../../load/k6-host/testrun.ts';
import { buildLoadBundles } from '../../load/build.ts';
import { resolveConfig } from '../../load/model/config.ts';
import { buildSchedule } from '../../load/model/schedule.ts';
import { perWindow } from '../../load/k6/options.ts';
import { executionSplit, segmentFlags } from '../../load/model/distributed.ts';
import { main as loadMain } from '../../cli/load.ts';
import { freshState, loadBundle } from './k6-stub/harness.ts';

const readme = readFileSync(fileURLToPath(new URL('../../load/README.md', import.meta.url)), 'utf8');
const script = readFileSync(fileURLToPath(new URL('../../load/k6/script.ts', import.meta.url)), 'utf8');
const validate = new Ajv({ strict: true, allErrors: true }).compile(TESTRUN_SCHEMA);

/** Every YAML block of the README that declares a TestRun. */
function testRuns(text: string): any[] {
  const blocks = [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]);
  return blocks.flatMap((b) => parseAllDocuments(b).map((d) => d.toJS())).filter((d) => d?.kind === 'TestRun');
}

/** The k6 output options the manifest may set (experimental-prometheus-rw, as k6's documentation lists them). */
const K6_OUTPUT_OPTIONS = ['K6_PROMETHEUS_RW_SERVER_URL', 'K6_PROMETHEUS_RW_TREND_STATS', 'K6_PROMETHEUS_RW_TREND_AS_NATIVE_HISTOGRAM', 'K6_PROMETHEUS_RW_PUSH_INTERVAL',
  'K6_PROMETHEUS_RW_HTTP_HEADERS', 'K6_PROMETHEUS_RW_USERNAME', 'K6_PROMETHEUS_RW_PASSWORD', 'K6_PROMETHEUS_RW_INSECURE_SKIP_TLS_VERIFY', 'K6_PROMETHEUS_RW_STALE_MARKERS'];

/** LOAD_* variables the bundles read: `__ENV.LOAD_X`, and the options read through envName(). */
function variablesRead(): Set<string> {
  const direct = [...script.matchAll(/__ENV\.(LOAD_[A-Z_]+)/g)].map((m) => m[1]);
  const viaNum = [...script.matchAll(/num\('([a-z0-9-]+)'\)/g)].map((m) => `LOAD_${m[1].toUpperCase().replace(/-/g, '_')}`);
  return new Set([...direct, ...viaNum, 'LOAD_DURATION']);
}

describe('the k6-operator TestRun of load/README.md', () => {
  const runs = testRuns(readme);

  it('is there, and valid against the TestRun CRD', () => {
    expect(runs.length).toBeGreaterThan(0);
    for (const run of runs) expect(validate(run) ? [] : validate.errors, JSON.stringify(run)).toEqual([]);
  });

  it('runs a bundle the build makes, from a ConfigMap the README creates', () => {
    for (const run of runs) {
      const { name, file } = run.spec.script.configMap;
      expect(PLANS.map((p) => `${p}.js`)).toContain(file);
      expect(readme).toContain(`kubectl create configmap ${name} --from-file=dist/load/${file}`);
    }
  });

  it('gives the runners the target, and the key from a Secret only', () => {
    for (const run of runs) {
      const env: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }> = run.spec.runner.env;
      const byName = new Map(env.map((e) => [e.name, e]));
      expect(byName.get('LOAD_BASE_URL')?.value).toMatch(/^https?:\/\//);
      const key = byName.get('LOAD_API_KEY')!;
      expect(key.value).toBeUndefined();
      expect(key.valueFrom?.secretKeyRef).toBeDefined();
      expect(readme).toContain(`kubectl create secret generic ${key.valueFrom!.secretKeyRef!.name} --from-literal=${key.valueFrom!.secretKeyRef!.key}=`);
      expect(JSON.stringify(run)).not.toMatch(/mk_(test|live)_/);
      const read = variablesRead();
      for (const e of env.filter((x) => x.name.startsWith('LOAD_'))) expect(read, `${e.name} is not a variable the bundles read`).toContain(e.name);
      for (const e of env.filter((x) => !x.name.startsWith('LOAD_'))) expect(K6_OUTPUT_OPTIONS, `${e.name} is not an option of the output`).toContain(e.name);
      // Metrics go where the user says, not to each pod's own localhost (the output's default).
      expect(byName.get('K6_PROMETHEUS_RW_SERVER_URL')?.value).toMatch(/^https?:\/\/(?!localhost|127\.)/);
    }
  });

  it('is the manifest load/k6-host/testrun.ts makes (pro, parallelism 2)', () => {
    const shown = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]).find((b) => b.includes('kind: TestRun'))!;
    const made = testRun({ tier: 'pro', parallelism: 2, baseUrl: runs[0].spec.runner.env.find((e: any) => e.name === 'LOAD_BASE_URL').value, remoteWriteUrl: runs[0].spec.runner.env.find((e: any) => e.name === 'K6_PROMETHEUS_RW_SERVER_URL').value });
    expect(parseAllDocuments(shown)[0].toJS()).toEqual(made);
  });

  it('the check itself refuses what the operator would drop or refuse', () => {
    const good = runs[0];
    const misspelt = { ...good, spec: { ...good.spec, script: { configmap: good.spec.script.configMap } } };
    const noParallelism = { ...good, spec: { ...good.spec, parallelism: undefined } };
    const wrongCleanup = { ...good, spec: { ...good.spec, cleanup: 'always' } };
    for (const bad of [misspelt, JSON.parse(JSON.stringify(noParallelism)), wrongCleanup]) expect(validate(bad)).toBe(false);
    expect(variablesRead()).toContain('LOAD_TIMEOUT_MS');
  });
});

describe('a distributed run, runner by runner (the manifest at parallelism 1 and 4, as k6-operator runs it)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'load-distributed-'));
    await buildLoadBundles({ outdir: dir });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const REMOTE = 'http://prometheus.monitoring.svc:9090/api/v1/write';
  const config = resolveConfig({ tier: 'pro' });
  const [steady, ramp] = buildSchedule(config).phases;

  it.each([1, 4])('parallelism %i: every runner runs its segment of the load, its own setup and teardown, writes to the same Prometheus, and the setups are counted against the plan', async (n) => {
    const run = parseAllDocuments(renderTestRun({ tier: 'pro', parallelism: n, baseUrl: 'https://staging.example', remoteWriteUrl: REMOTE }))[0].toJS();
    expect(validate(run) ? [] : validate.errors).toEqual([]);
    const runners = operatorRunners(run);
    expect(runners).toHaveLength(n);
    let share = 0;
    let setupRequests = 0;
    for (const r of runners) {
      // The same metrics destination and the same key in every pod.
      expect(r.env.K6_PROMETHEUS_RW_SERVER_URL).toBe(REMOTE);
      expect(r.env.LOAD_API_KEY).toEqual({ secret: 'load-key', key: 'key' });
      expect(r.argv.join(' ')).toContain('--out experimental-prometheus-rw');
      // Its part of the arrival rates: k6 scales an arrival-rate scenario by the segment's length.
      const [from, to] = r.segment ? r.segment.split(':').map((x) => x.split('/').map(Number)).map(([a, b]) => (b ? a / b : a)) : [0, 1];
      share += to - from;
      expect((to - from) * perWindow(steady.fromRps, config.windowMs)).toBeCloseTo(perWindow(steady.fromRps, config.windowMs) / n, 9);
      expect((to - from) * perWindow(ramp.toRps, config.windowMs)).toBeCloseTo(perWindow(ramp.toRps, config.windowMs) / n, 9);
      // Its own setup (k6-operator adds --no-setup only for Grafana Cloud private load zones):
      // 4 creates, and it counts every runner's 4 against the first window's budget.
      expect(r.runsSetup).toBe(true);
      const k6 = freshState();
      k6.options = { executionSegment: r.segment };
      k6.respond = (call) => ({ status: 201, body: JSON.stringify({ result: call.url.endsWith('/worlds') ? { worldId: `w${k6.requests.length}` } : { personaId: `p${k6.requests.length}` } }), headers: {} });
      const script = await loadBundle(dir, 'pro', { LOAD_BASE_URL: r.env.LOAD_BASE_URL as string, LOAD_API_KEY: 'mk_test_distributed' });
      const data = script.setup();
      expect(k6.requests.filter((c) => c.method === 'POST')).toHaveLength(4);
      setupRequests += k6.requests.length;
      expect(data.setupRequests).toBe(4 * n);
      // And its own teardown of what its setup made: 4 deletes.
      const before = k6.requests.length;
      script.teardown(data);
      expect(k6.requests.length - before).toBe(4);
    }
    expect(share).toBeCloseTo(1, 9);
    // The first window holds the steady load and every runner's setup: within 95% of the budget.
    expect(setupRequests).toBe(4 * n);
    expect(config.steadyFraction * config.rpm + setupRequests).toBeLessThanOrEqual(0.95 * config.rpm);
  });

  it.each([1, 2, 3, 4, 7])('parallelism %i: the operator splits the run as executionSplit says, which `npm run load -- --runners` runs locally', (n) => {
    const runners = operatorRunners(testRun({ tier: 'pro', parallelism: n, baseUrl: 'https://staging.example', remoteWriteUrl: REMOTE }));
    const split = executionSplit(n);
    expect(runners.map((r) => r.segment)).toEqual(split.map((r) => r.segment));
    for (const [i, r] of runners.entries()) {
      const flags = segmentFlags(split[i]);
      expect(r.argv.filter((a) => a.startsWith('--execution-segment'))).toEqual(flags);
    }
  });

  it('--runners is refused as the manifest is: past the tier\'s limit, or without k6', async () => {
    const env = { PATH: '/nonexistent' };
    await expect(loadMain(['--tier', 'free', '--runners', '2'], env)).rejects.toThrow(/--runners splits a run across k6 processes: it needs the k6 engine/);
    // A k6 on PATH (never run: the split is refused first), and the manifest's limit: 3 runners for free.
    const bin = join(dir, 'fake-k6');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'k6'), '#!/bin/sh\nexit 1\n');
    chmodSync(join(bin, 'k6'), 0o755);
    await expect(loadMain(['--tier', 'free', '--engine', 'k6', '--runners', '4'], { PATH: bin })).rejects.toThrow(/--runners: parallelism 4 is too many for the free tier: .* at most 3/);
  });

  it('refuses a parallelism whose setups would crowd the first window, and a remote-write URL that is the pod itself', () => {
    expect(parallelismLimit('free')).toBe(3);
    expect(parallelismLimit('pro')).toBe(75);
    expect(() => testRun({ tier: 'free', parallelism: 4, baseUrl: 'https://staging.example', remoteWriteUrl: REMOTE })).toThrow(/at most 3/);
    expect(() => testRun({ tier: 'pro', parallelism: 2, baseUrl: 'https://staging.example', remoteWriteUrl: 'http://localhost:9090/api/v1/write' })).toThrow(/the runner pod itself/);
  });
});
