// The CLI's k6 engine without k6 (for CI; test/load/real-k6.test.ts runs a real one when there is
// one): a stand-in `k6` on PATH records how it was called and answers as k6 does (the
// --summary-export JSON in k6's older shape, --out json points, exit 99 when a threshold failed).
// Checks that the key travels in the environment, never in argv, that the summary comes from
// k6's export (checks included), the timeline and histograms from its points, that no k6 file is
// left behind, and that exit 99 becomes exit 1.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../load/model/config.ts';
import { buildSchedule } from '../../load/model/schedule.ts';
import { recorderFromK6Output } from '../../load/k6-host/output.ts';
import { findK6 } from '../../load/k6-host/locate.ts';
import type { LoadSummary } from '../../load/model/summary.ts';
import { k6Points as points } from './k6-points.ts';
import { budget } from '../budget.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'load-k6-host-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('k6 JSON output', () => {
  it('becomes a timeline, histograms and the time and place of the first 429', async () => {
    const config = resolveConfig({ tier: 'free', windowMs: 1000, duration: '4s' });
    const t0 = Date.parse('2025-01-01T00:00:00Z');
    const samples = [
      ...Array.from({ length: 160 }, (_, i) => ({ ms: i * 12.5, phase: 'steady', endpoint: i % 2 ? 'chat' : 'getWorld', status: 200, latency: 3 + (i % 10) })),
      ...Array.from({ length: 200 }, (_, i) => ({ ms: 2000 + i * 10, phase: 'ramp', endpoint: 'chat', status: i >= 150 ? 429 : 200, latency: 2 })),
    ];
    const file = join(dir, 'points.ndjson');
    writeFileSync(file, JSON.stringify({ type: 'Metric', metric: 'http_req_duration', data: {} }) + '\n' + points(t0, samples));
    const recorder = await recorderFromK6Output(file, config, buildSchedule(config));
    const timeline = recorder.timeline();
    expect(timeline.points.reduce((n, p) => n + p.sent, 0)).toBe(360);
    expect(timeline.points.reduce((n, p) => n + p.rateLimited, 0)).toBe(50);
    expect(recorder.histograms().chat.counts.reduce((a, b) => a + b, 0)).toBe(80);
    // The first 429 was sent at 3500 ms and answered 2 ms later. The limiter may have counted
    // every request sent by then and not answered by 2500 ms (a second before its send): the
    // 101 sent from 2500 ms to 3500 ms.
    expect(recorder.onset()).toMatchObject({ found: true, atMs: 3502, phase: 'ramp', operationId: 'chat', offeredInWindow: 101 });
  });
});

describe('npm run load --engine k6 (a stand-in k6)', () => {
  it('passes the run by environment, reads back the summary and points, exits 1 on exit 99', async () => {
    const bin = join(dir, 'bin');
    const calls = join(dir, 'k6-call.json');
    const reports = join(dir, 'reports');
    // k6's --summary-export: values at the metric's top level, a Rate's rate as `value`, thresholds true when FAILED.
    const exported = {
      metrics: {
        'http_reqs{endpoint:chat,phase:steady}': { count: 40, rate: 10 },
        'http_req_duration{endpoint:chat,phase:steady}': { med: 20, 'p(95)': 700, 'p(99)': 900, max: 950, avg: 60, min: 2, thresholds: { 'p(95)<500': true, 'p(99)<1000': false, 'max>=0': false } },
        'http_req_failed{endpoint:chat,phase:steady}': { value: 0, passes: 0, fails: 40, thresholds: { 'rate<0.01': false } },
        'http_reqs{phase:steady}': { count: 40, rate: 10 },
        'rate_limit_early': { value: 0, passes: 0, fails: 1, thresholds: { 'rate<=0': false } },
        'rate_limit_onset': { min: 101, max: 101, avg: 101, med: 101, 'p(95)': 101, 'p(99)': 101, count: 1 },
      },
      root_group: { name: '', checks: { 'status is 2xx': { name: 'status is 2xx', passes: 40, fails: 0 } } },
      setup_data: { runTag: 'load-t', setupRequests: 4 },
    };
    // The whole plan (390 requests) was sent: a run short of it would have no verdict (test/load/incomplete.test.ts).
    const filler = [...Array.from({ length: 159 }, (_, i) => ({ ms: 5 + i * 12.5, phase: 'steady', endpoint: 'getWorld', status: 200, latency: 2 })),
      ...Array.from({ length: 229 }, (_, i) => ({ ms: 2000 + i * 8.7, phase: 'ramp', endpoint: 'getWorld', status: 200, latency: 2 }))];
    const ndjson = points(Date.now(), [{ ms: 0, phase: 'steady', endpoint: 'chat', status: 200, latency: 4 }, { ms: 2500, phase: 'ramp', endpoint: 'chat', status: 429, latency: 1 }, ...filler]);
    const fake = `#!${process.execPath}
const fs = require('node:fs');
const argv = process.argv.slice(2);
const out = argv.find((a) => a.startsWith('json=')).slice(5);
const exportFile = argv[argv.indexOf('--summary-export') + 1];
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('LOAD_')));
fs.writeFileSync(${JSON.stringify(calls)}, JSON.stringify({ argv, env, files: [out, exportFile] }));
fs.writeFileSync(out, ${JSON.stringify(ndjson)});
fs.writeFileSync(exportFile, ${JSON.stringify(JSON.stringify(exported))});
process.stdout.write('k6 own summary\\n');
process.exit(Number(process.env.FAKE_K6_EXIT ?? 99));
`;
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'k6'), fake);
    chmodSync(join(bin, 'k6'), 0o755);
    expect(findK6(bin)).toBe(join(bin, 'k6'));

    const r = await new Promise<{ code: number; stdout: string; stderr: string }>((done) => execFile(process.execPath,
      ['--import', 'tsx', 'cli/load.ts', '--tier', 'free', '--duration', '4s', '--window-ms', '1000', '--timeout-ms', '3000', '--report-dir', reports],
      { cwd: root, timeout: budget(60_000), env: { ...process.env, PATH: `${bin}:${dirname(process.execPath)}` } },
      (err, stdout, stderr) => done({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr })));
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('engine=k6');
    const call = JSON.parse(readFileSync(calls, 'utf8')) as { argv: string[]; env: Record<string, string>; files: string[] };
    expect(call.argv[0]).toBe('run');
    // The run's own bundle, beside k6's files in the temporary directory (nothing written where the user stands).
    expect(call.argv.at(-1)).toMatch(/\/bundles\/free\.js$/);
    expect(existsSync(call.argv.at(-1)!)).toBe(false);
    expect(call.env).toMatchObject({ LOAD_WINDOW_MS: '1000', LOAD_RPM: '100', LOAD_DURATION: '4000ms', LOAD_KEEP: 'true', LOAD_SUMMARY: 'k6', LOAD_TIMEOUT_MS: '3000' });
    // k6's files went to a temporary directory, removed after.
    for (const f of call.files) expect(existsSync(f), f).toBe(false);
    expect(call.env.LOAD_API_KEY).toMatch(/^mk_test_/);
    expect(call.argv.join(' ')).not.toContain(call.env.LOAD_API_KEY);
    const written = JSON.parse(readFileSync(join(reports, 'load-free.json'), 'utf8')) as LoadSummary;
    expect(written).toMatchObject({ engine: 'k6', verdict: 'fail', setup: { requests: 4, runTag: 'load-t' }, checks: [{ name: 'status is 2xx', passes: 40, fails: 0 }] });
    expect(written.thresholds.filter((t) => !t.ok).map((t) => t.id)).toEqual(['chat p95 (steady)']);
    expect(written.timeline!.points.reduce((n, p) => n + p.sent, 0)).toBe(390);
    expect(written.onset).toMatchObject({ found: true, fractionOfLimit: 1.01, atMs: 2501, operationId: 'chat', early: 0 });
    expect(readFileSync(join(reports, 'load-free.html'), 'utf8')).toContain('first 429');
    expect(r.stdout).toContain('FAILED chat p95 (steady)');
    // k6's own summary, then ours, once.
    expect(r.stdout.indexOf('k6 own summary')).toBeLessThan(r.stdout.indexOf('verdict: FAIL'));
    expect(r.stdout.match(/verdict:/g)).toHaveLength(1);
  });

  it('a setup the target refused (k6 exit 108): exit 2, one line with what it answered, as with the Node runner', async () => {
    const reports = join(dir, 'reports-refused');
    const exported = { metrics: {}, root_group: { name: '', checks: {} }, setup_data: { runTag: 't', setupRequests: 0, error: 'setup: POST /worlds (createWorld) answered 401: {"error":{"code":"UNAUTHORIZED"}}' } };
    const fake = `#!${process.execPath}
const fs = require('node:fs');
const argv = process.argv.slice(2);
fs.writeFileSync(argv[argv.indexOf('--summary-export') + 1], ${JSON.stringify(JSON.stringify(exported))});
process.exit(108);
`;
    const bin = join(dir, 'bin-refused');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'k6'), fake);
    chmodSync(join(bin, 'k6'), 0o755);
    const r = await new Promise<{ code: number; stdout: string; stderr: string }>((done) => execFile(process.execPath,
      ['--import', 'tsx', 'cli/load.ts', '--tier', 'free', '--duration', '4s', '--window-ms', '1000', '--report-dir', reports],
      { cwd: root, timeout: budget(60_000), env: { ...process.env, PATH: `${bin}:${dirname(process.execPath)}` } },
      (err, stdout, stderr) => done({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr })));
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trimEnd().split('\n').at(-1)).toBe('load: setup: POST /worlds (createWorld) answered 401: {"error":{"code":"UNAUTHORIZED"}}; the load needs it to create its data');
  });
});
