// npm run load, as a user meets it: help with every option and its LOAD_ twin, one line and exit
// 2 for whatever stops it from starting, a short embedded run writing its three reports, and
// exit 1 when a threshold fails against a slow deployment (which it also cleans up after).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startReference } from '../../reference/index.ts';
import { SPECS } from '../../cli/load.ts';
import type { LoadSummary } from '../../load/model/summary.ts';
import { budget } from '../budget.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const reports = mkdtempSync(join(tmpdir(), 'load-cli-'));
afterAll(() => rmSync(reports, { recursive: true, force: true }));

interface Run { code: number; stdout: string; stderr: string }
function load(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((done) => {
    execFile(process.execPath, ['--import', 'tsx', 'cli/load.ts', ...args], {
      // Generous: on a busy 2-core machine three of these start at once (tsx compiles each).
      cwd: root, timeout: budget(150_000),
      // No k6 on this PATH, whatever the machine has: the Node runner is what these tests run.
      env: { ...process.env, PATH: '/nonexistent', LOAD_REPORT_DIR: reports, ...env },
    }, (err, stdout, stderr) => done({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }));
  });
}

/** A previous run's JSON whose chat and getWorld answers all took `ms` (or without samples). */
function baselineFile(name: string, ms: number | undefined, tier = 'free', rpm?: number): string {
  const file = join(reports, `baseline-${name}.json`);
  const samples = ms === undefined ? undefined : { phase: 'steady', metric: 'service', cap: 2000, endpoints: { chat: { count: 30, ms: new Array(30).fill(ms) }, getWorld: { count: 30, ms: new Array(30).fill(ms) } } };
  writeFileSync(file, JSON.stringify({ schema: 'simulation-load-summary/1', engine: 'k6', tier, ...(rpm ? { plan: { rpm } } : {}), startedAt: '2026-01-01T00:00:00.000Z', ...(samples ? { samples } : {}) }));
  return file;
}

const oneLine = (r: Run) => {
  expect(r.stderr.trimEnd().split('\n'), r.stderr).toHaveLength(1);
  expect(r.stderr).toMatch(/^load: /);
};

describe('npm run load --help', () => {
  it('lists every option with its environment twin', async () => {
    const r = await load(['--help']);
    expect(r.code).toBe(0);
    for (const spec of SPECS) {
      expect(r.stdout).toContain(`--${spec.name}`);
      expect(r.stdout).toContain(`LOAD_${spec.name.toUpperCase().replace(/-/g, '_')}`);
    }
  });
});

describe('npm run load refuses to start, in one line, with exit status 2', () => {
  it.concurrent.each([
    ['an unknown flag', ['--tier', 'free', '--bogus']],
    ['an unknown tier', ['--tier', 'gold']],
    ['no tier', []],
    ['enterprise without --rpm', ['--tier', 'enterprise']],
    ['a duration it cannot read', ['--tier', 'free', '--duration', 'soon']],
    ['--api-key without --base-url', ['--tier', 'free', '--api-key', 'mk_test_x']],
    ['--engine k6 without k6 on PATH', ['--tier', 'free', '--engine', 'k6']],
    ['a --baseline file that is not there', ['--tier', 'free', '--baseline', join(reports, 'missing.json')]],
    ['a --baseline without samples (a plain k6 run)', ['--tier', 'free', '--baseline', baselineFile('no-samples', undefined)]],
  ])('%s', async (_what, args) => {
    const r = await load(args);
    expect(r.code).toBe(2);
    oneLine(r);
  });

  it('a mk_live_ key without --allow-live, never printing the key', async () => {
    const runs = await Promise.all([
      load(['--tier', 'pro', '--base-url', 'http://127.0.0.1:9', '--api-key', 'mk_live_secret_part']),
      load(['--tier', 'pro'], { LOAD_BASE_URL: 'http://127.0.0.1:9', LOAD_API_KEY: 'mk_live_secret_part' }),
    ]);
    for (const r of runs) {
      expect(r.code).toBe(2);
      oneLine(r);
      expect(r.stderr).toContain('mk_live_…(redacted)');
      expect(r.stderr + r.stdout).not.toContain('secret_part');
    }
  });
});

describe('npm run load runs', () => {
  it.concurrent('runs, shows progress and a table per endpoint, writes JSON and HTML, exits 0', async () => {
    // What this checks is the command, not the reference's speed: the embedded reference shares
    // the CLI's process and is still cold in a short steady phase, so latency bounds are loose and
    // the steady load is half the limit of 50 req/s (100 per 2 s window): only a stall of two whole
    // seconds could land a window's budget in the steady phase; the ramp (to 250%) offers one of
    // the limiter's windows at least 137 requests wherever they fall, so a 429 comes.
    // Against a baseline whose answers took 10 s: this run is better, which is no reason to fail.
    const r = await load(['--tier', 'free', '--duration', '8s', '--window-ms', '2000', '--steady-fraction', '0.5', '--ramp-to', '2.5', '--p95-ms', '5000', '--p99-ms', '5000', '--engine', 'node',
      '--baseline', baselineFile('slow', 10_000)]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^chat\s+30\/\d+\s+10000 → .*better$/m);
    expect(r.stdout).toContain('baseline: no endpoint slower beyond the threshold');
    expect(r.stderr).toMatch(/\[steady \d+\/8 s\]/);
    expect(r.stdout).toMatch(/endpoint\s+count\s+p50 ms\s+p95 ms\s+p99 ms\s+resp p99\s+errors\s+429s/);
    expect(r.stdout).toMatch(/^check 'status is 2xx': \d+ passed, 0 failed$/m);
    expect(r.stdout).toMatch(/^chat\s+\d+/m);
    expect(r.stdout).toMatch(/^429s began at \d+% of the limit/m);
    expect(r.stdout).toContain('verdict: PASS');
    const summary = JSON.parse(readFileSync(join(reports, 'load-free.json'), 'utf8')) as LoadSummary;
    expect(summary).toMatchObject({ schema: 'simulation-load-summary/1', engine: 'node', tier: 'free', verdict: 'pass', target: { embedded: true } });
    // Service time, response time (from the scheduled send), the runner's send lag and connection
    // wait, all measured, from one origin: a response time holds the service time of its request.
    const steady = summary.phases[0];
    expect(steady.total.latency!.p50).toBeGreaterThan(0);
    expect(steady.total.responseTime!.p99).toBeGreaterThanOrEqual(steady.total.latency!.p99);
    expect(steady.sendLag!.max).toBeGreaterThanOrEqual(0);
    expect(steady.connectWait!.max).toBeGreaterThanOrEqual(0);
    expect(Object.keys(summary.samples!.endpoints)).toContain('chat');
    expect(summary.checks.find((c) => c.name === 'status is 2xx')).toMatchObject({ passes: steady.total.ok + summary.phases[1].total.ok, fails: 0 });
    const html = readFileSync(join(reports, 'load-free.html'), 'utf8');
    expect(html).toContain('plan limit');
    expect(html).toContain('first 429');
    expect(html).toContain('aria-label="latency histogram of chat"');
    // Both distributions of each compared endpoint, the baseline's and this run's.
    expect(html).toContain('aria-label="service time of chat, baseline and this run"');
    expect(summary.comparison).toMatchObject({ regression: false, baseline: { engine: 'k6' } });
  }, budget(180_000));

  it.concurrent('exits 1 when an endpoint is slower than the baseline beyond the threshold, significantly', async () => {
    // A baseline whose answers took a microsecond: no answer over loopback HTTP is that fast. A
    // short run far under its limit (1 s at 80 req/s: 19 chat answers; no 429 can come).
    const r = await load(['--tier', 'enterprise', '--rpm', '6000', '--window-ms', '60000', '--duration', '2s', '--ramp-to', '0.9', '--p95-ms', '5000', '--p99-ms', '5000', '--engine', 'node',
      '--baseline', baselineFile('fast', 0.001, 'enterprise', 6000), '--regression-ms', '0.05', '--report-dir', join(reports, 'slower')]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain('verdict: PASS');
    expect(r.stdout).toMatch(/^chat\s+30\/\d+\s+0\.00 → .*worse$/m);
    expect(r.stdout).toMatch(/^baseline: SLOWER on .*chat/m);
  }, budget(180_000));

  it.concurrent('exits 1 on a failed threshold, and soft-deletes what it created', async () => {
    const key = 'mk_test_cli_slow_pro_0000001';
    const server = await startReference({
      keys: [{ key, tenantId: 'slow', plan: 'pro' }],
      extend: (app) => app.addHook('onRequest', async () => { await sleep(40); }),
    });
    try {
      const r = await load(['--tier', 'pro', '--base-url', server.url, '--api-key', key, '--duration', '3s', '--p95-ms', '20', '--report-dir', join(reports, 'slow')]);
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stdout).toMatch(/FAILED chat p95 \(steady\): p\(95\)<20/);
      expect(r.stdout).toContain('verdict: FAIL');
      // A 3 s run cannot fill a 60 s window: said before it starts, and not read as a deployment that does not limit.
      expect(r.stderr).toMatch(/note: this run may see no 429 from a correct deployment: a limiter counting in fixed 60 s windows .* --duration \S+ makes its 429 certain/);
      expect(r.stdout).toContain('warning: no 429 up to 150% of the limit, which does not show that the deployment ignores it');
      expect(r.stdout).not.toContain('did not limit');
      expect(existsSync(join(reports, 'slow', 'load-pro.html'))).toBe(true);
      const left = await request(`${server.url}/worlds`, { headers: { 'x-api-key': key } });
      expect(((await left.body.json()) as { result: { worlds: unknown[] } }).result.worlds).toEqual([]);
    } finally {
      await server.close();
    }
  }, budget(180_000));
});

describe('npm run load --baseline of another plan', () => {
  it('is refused before anything is sent, in one line with exit 2', async () => {
    const r = await load(['--tier', 'pro', '--duration', '2s', '--window-ms', '1000', '--engine', 'node', '--baseline', baselineFile('free-tier', 1), '--report-dir', join(reports, 'other-tier')]);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    oneLine(r);
    expect(r.stderr).toMatch(/a free run, this one pro \(2000\): latency under another plan's load is not comparable; give a pro run's load-pro\.json/);
  });
});

describe('npm run load reports', () => {
  it('refuses a --report-dir it cannot write before it sends anything, in one line with exit 2', async () => {
    const r = await load(['--tier', 'free', '--duration', '2s', '--window-ms', '1000', '--engine', 'node', '--report-dir', join(root, 'package.json', 'reports')]);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stdout).not.toContain('verdict:');
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^load: --report-dir .*package\.json.*: cannot write reports there \(a file is in the way/)]);
  });

});
