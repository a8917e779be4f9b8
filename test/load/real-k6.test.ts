// The bundles under a real k6, when there is one: K6_BIN, or `k6` on PATH. Skipped otherwise (the
// stand-in tests, test/load/bundle.test.ts, parity.test.ts and k6-host.test.ts, cover CI), with
// the reason in the test's name. What only a real k6 can say: the options are computed with no
// environment (`k6 archive`, `k6 inspect`), the archive never holds the key even when the shell
// has it, a run with no 429 passes (k6 evaluates thresholds on empty metrics), a refused setup
// stops the run with its reason in the summary, and the CLI reads k6's summary export.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLoadBundles } from '../../load/build.ts';
import { findK6 } from '../../load/k6-host/locate.ts';
import type { LoadSummary } from '../../load/model/summary.ts';
import { startReference, type RunningReference } from '../../reference/index.ts';
import { budget } from '../budget.ts';

const k6 = process.env.K6_BIN || findK6();
const root = fileURLToPath(new URL('../../', import.meta.url));
const KEY = 'mk_test_real_k6_free_key_000001';

interface Run { code: number; stdout: string; stderr: string }
function run(file: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Run> {
  return new Promise((done) => execFile(file, args, { cwd, env, timeout: budget(90_000), maxBuffer: 32 * 2 ** 20 },
    (err, stdout, stderr) => done({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr })));
}
/** Only what a clean machine has: no LOAD_* from the developer's shell. */
const bare = { PATH: process.env.PATH ?? '', HOME: tmpdir() };

describe.skipIf(!k6)(`a real k6${k6 ? '' : ' (skipped: no k6; set K6_BIN or put k6 on PATH)'}`, () => {
  let dir: string;
  let server: RunningReference;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'load-real-k6-'));
    await buildLoadBundles({ outdir: dir });
    server = await startReference({ keys: [{ key: KEY, tenantId: 'real-k6', plan: 'free' }], rateLimitWindowMs: 1000 });
  }, budget(60_000));
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('archives and inspects a bundle with no environment, and never puts the key in the archive', async () => {
    const archive = join(dir, 'pro.tar');
    const a = await run(k6!, ['archive', '-O', archive, join(dir, 'pro.js')], { ...bare, LOAD_API_KEY: KEY, LOAD_BASE_URL: server.url }, dir);
    expect(a.code, a.stderr).toBe(0);
    const bytes = readFileSync(archive).toString('latin1');
    expect(bytes).toContain('"constant-arrival-rate"');
    expect(bytes).not.toContain(KEY);
    const i = await run(k6!, ['inspect', join(dir, 'pro.js')], bare, dir);
    expect(i.code, i.stderr).toBe(0);
    expect(JSON.parse(i.stdout).scenarios.steady).toMatchObject({ rate: 1600, timeUnit: '1m0s' });
  }, budget(60_000));

  it('fails in setup, naming the variable, and the summary says why', async () => {
    const r = await run(k6!, ['run', '--quiet', join(dir, 'free.js')], { ...bare, LOAD_DURATION: '2s', LOAD_WINDOW_MS: '1000', LOAD_BASE_URL: server.url }, dir);
    expect(r.code, r.stderr).toBe(108);
    const summary = JSON.parse(readFileSync(join(dir, 'load-free.json'), 'utf8')) as LoadSummary;
    expect(summary).toMatchObject({ verdict: 'fail', aborted: expect.stringMatching(/^LOAD_API_KEY is not set/) });
    expect(r.stdout).toContain('aborted: LOAD_API_KEY is not set');
  }, budget(60_000));

  it('passes a run that sees no 429 (thresholds on empty metrics), through the CLI, with k6\'s own summary and ours', async () => {
    const bin = join(dir, 'bin');
    mkdirSync(bin, { recursive: true });
    if (!existsSync(join(bin, 'k6'))) symlinkSync(k6!, join(bin, 'k6'));
    const reports = join(dir, 'reports', 'nested');
    // Under the limit all along: the ramp ends at 90%.
    const r = await run(process.execPath, ['--import', 'tsx', 'cli/load.ts', '--tier', 'free', '--engine', 'k6', '--base-url', server.url, '--api-key', KEY,
      '--window-ms', '1000', '--duration', '4s', '--steady-fraction', '0.5', '--ramp-to', '0.9', '--p95-ms', '2000', '--p99-ms', '3000', '--report-dir', reports],
    { ...process.env, PATH: `${bin}:${dirname(process.execPath)}` }, root);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    // k6's own summary (its thresholds list, its checks), then our table.
    expect(r.stdout).toMatch(/THRESHOLDS|✓ 'rate<=0'/);
    expect(r.stdout).toContain('429s: none up to 90% of the limit');
    expect(r.stdout).toContain('verdict: PASS');
    const summary = JSON.parse(readFileSync(join(reports, 'load-free.json'), 'utf8')) as LoadSummary;
    expect(summary).toMatchObject({ engine: 'k6', verdict: 'pass', onset: { found: false, early: 0 } });
    expect(summary.checks.find((c) => c.name === 'status is 2xx')!.passes).toBeGreaterThan(100);
    expect(summary.phases[0].total.latency!.p50).toBeGreaterThan(0);
  }, budget(90_000));
});
