// The CLI's k6 engine without k6 (not installable here): a stand-in `k6` on PATH records how it
// was called and answers as k6 does (handleSummary's JSON, --out json points, exit 99 when a
// threshold failed). Checks that the key travels in the environment, never in argv, that the
// timeline and histograms come from k6's points, and that exit 99 becomes exit 1.
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../load/model/config.ts';
import { buildSchedule } from '../../load/model/schedule.ts';
import { recorderFromK6Output } from '../../load/k6-host/output.ts';
import { findK6 } from '../../load/k6-host/locate.ts';
import type { LoadSummary } from '../../load/model/summary.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'load-k6-host-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** k6 --out json lines: http_req_duration points with the script's tags. */
function points(t0: number, samples: Array<{ ms: number; phase: string; endpoint: string; status: number; latency: number }>): string {
  return samples.map((s) => JSON.stringify({
    type: 'Point', metric: 'http_req_duration',
    data: { time: new Date(t0 + s.ms).toISOString(), value: s.latency, tags: { endpoint: s.endpoint, name: s.endpoint, phase: s.phase, status: String(s.status), scenario: s.phase } },
  })).join('\n') + '\n';
}

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
    // The first 429 was sent at 3500 ms and answered 2 ms later; 100 answers came in the second before.
    expect(recorder.onset()).toMatchObject({ found: true, atMs: 3502, phase: 'ramp', operationId: 'chat', offeredInWindow: 100 });
  });
});

describe('npm run load --engine k6 (a stand-in k6)', () => {
  it('passes the run by environment, reads back the summary and points, exits 1 on exit 99', async () => {
    const bin = join(dir, 'bin');
    const calls = join(dir, 'k6-call.json');
    const reports = join(dir, 'reports');
    const summary = { schema: 'simulation-load-summary/1', engine: 'k6', tier: 'free', verdict: 'fail', warnings: [], thresholds: [{ id: 'chat p95 (steady)', expression: 'p(95)<500', actual: 700, ok: false }],
      plan: { rpm: 100, windowMs: 1000, limitRps: 100 }, config: resolveConfig({ tier: 'free', windowMs: 1000, duration: '4s' }), target: { baseUrl: 'x' },
      startedAt: new Date().toISOString(), durationMs: 4000, setup: { requests: 4, runTag: 't' },
      phases: [], onset: { found: true, fractionOfLimit: 1.01, resolution: 0.35 } };
    const ndjson = points(Date.now(), [{ ms: 0, phase: 'steady', endpoint: 'chat', status: 200, latency: 4 }, { ms: 2500, phase: 'ramp', endpoint: 'chat', status: 429, latency: 1 }]);
    const fake = `#!${process.execPath}
const fs = require('node:fs');
const out = process.argv.find((a) => a.startsWith('json=')).slice(5);
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('LOAD_')));
fs.writeFileSync(${JSON.stringify(calls)}, JSON.stringify({ argv: process.argv.slice(2), env }));
fs.writeFileSync(out, ${JSON.stringify(ndjson)});
fs.mkdirSync(env.LOAD_REPORT_DIR, { recursive: true });
fs.writeFileSync(env.LOAD_REPORT_DIR + '/load-free.json', ${JSON.stringify(JSON.stringify(summary))});
process.exit(99);
`;
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'k6'), fake);
    chmodSync(join(bin, 'k6'), 0o755);
    expect(findK6(bin)).toBe(join(bin, 'k6'));

    const r = await new Promise<{ code: number; stdout: string; stderr: string }>((done) => execFile(process.execPath,
      ['--import', 'tsx', 'cli/load.ts', '--tier', 'free', '--duration', '4s', '--window-ms', '1000', '--report-dir', reports],
      { cwd: root, timeout: 60_000, env: { ...process.env, PATH: `${bin}:${dirname(process.execPath)}` } },
      (err, stdout, stderr) => done({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr })));
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('engine=k6');
    const call = JSON.parse(readFileSync(calls, 'utf8')) as { argv: string[]; env: Record<string, string> };
    expect(call.argv[0]).toBe('run');
    expect(call.argv.at(-1)).toMatch(/dist\/load\/free\.js$/);
    expect(call.env).toMatchObject({ LOAD_WINDOW_MS: '1000', LOAD_RPM: '100', LOAD_DURATION: '4000ms', LOAD_REPORT_DIR: reports, LOAD_KEEP: 'true' });
    expect(call.env.LOAD_API_KEY).toMatch(/^mk_test_/);
    expect(call.argv.join(' ')).not.toContain(call.env.LOAD_API_KEY);
    const written = JSON.parse(readFileSync(join(reports, 'load-free.json'), 'utf8')) as LoadSummary;
    expect(written.timeline!.points.reduce((n, p) => n + p.sent, 0)).toBe(2);
    expect(written.onset).toMatchObject({ found: true, fractionOfLimit: 1.01, atMs: 2501, operationId: 'chat' });
    expect(readFileSync(join(reports, 'load-free.html'), 'utf8')).toContain('first 429');
    expect(r.stdout).toContain('FAILED chat p95 (steady)');
  });
});
