// A run that did not run its plan has no verdict (load/model/complete.ts): by the counts, and by
// a k6 runner's own end. Through the CLI with a stand-in k6 that speaks k6's REST API as a paused
// runner does (for CI), and with a real k6 when there is one (skipped with the reason otherwise):
// one runner killed stops the others at once, the command waits for every one, exits 2, and says
// how much was sent of the plan and how each runner ended. Also the report's other truths: the
// chart counts each answer once, a key of a lower plan is named, a baseline of another tier is
// refused and a mostly refused run is not compared.
import { budget } from '../budget.ts';
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../load/model/config.ts';
import { buildSchedule } from '../../load/model/schedule.ts';
import { defaultThresholds, expression } from '../../load/model/thresholds.ts';
import { SUMMARY_SCHEMA, type LoadSummary, type PhaseResult } from '../../load/model/summary.ts';
import { judgeCompleteness } from '../../load/model/complete.ts';
import { compareRuns } from '../../load/model/compare.ts';
import { lowerLimit, verdictReasons } from '../../load/model/reasons.ts';
import { renderTable } from '../../load/report/table.ts';
import { niceTicks, renderHtml } from '../../load/report/html.ts';
import { findK6 } from '../../load/k6-host/locate.ts';
import { startReference, type RunningReference } from '../../reference/index.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'load-incomplete-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A starter summary in 20 s windows (975 planned) whose phases sent `sent` of their plan. */
function summary(sent: [number, number], o: { steadyLimited?: number; ok?: number[] } = {}): LoadSummary {
  const config = resolveConfig({ tier: 'starter', windowMs: 20_000, duration: '40s' });
  const schedule = buildSchedule(config);
  const phases: PhaseResult[] = schedule.phases.map((p, i) => {
    const limited = i === 0 ? o.steadyLimited ?? 0 : 0;
    const total = { operationId: 'total', count: sent[i], ok: sent[i] - limited, errors: limited, rateLimited: limited, retryAfterMissing: 0 };
    return { ...p, planned: Math.round(((p.fromRps + p.toRps) / 2) * (p.durationMs / 1000)), sent: sent[i], achievedRps: sent[i] / 20, endpoints: [], total };
  });
  const thresholds = defaultThresholds(config).map((t) => ({ id: t.id, expression: expression(t), ok: true }));
  return {
    schema: SUMMARY_SCHEMA, engine: 'k6', tier: 'starter', plan: { rpm: 500, windowMs: 20_000, limitRps: schedule.limitRps }, config,
    target: { baseUrl: 'http://127.0.0.1:1' }, startedAt: '2026-01-01T00:00:00.000Z', durationMs: 40_000, setup: { requests: 4, runTag: 't' },
    phases, onset: { found: false, resolution: 0.7, early: 0 }, thresholds, checks: [], verdict: 'pass',
    warnings: ['no 429 up to 150% of the limit: …'],
    ...(o.ok ? { timeline: { bucketMs: 1000, points: o.ok.map((ok, i) => ({ t: i * 1000, sent: ok + 30, ok, rateLimited: 30, errors: 0 })) } } : {}),
  };
}

describe('a run short of its plan', () => {
  it('has no verdict, says how much was sent and why, and its onset line speaks of what was sent', () => {
    const cut = judgeCompleteness(summary([261, 0]));
    expect(cut.verdict).toBe('none');
    expect(cut.incomplete).toMatchObject({ planned: 975, sent: 261 });
    expect(cut.warnings).toEqual([]);
    const table = renderTable(cut);
    expect(table).toContain('429s: none in the 261 requests sent (of 975 planned)');
    expect(table).not.toContain('none up to 150%');
    expect(table.split('\n').at(-1)).toBe('verdict: NONE (incomplete run)');
    expect(renderHtml(cut)).toContain('NO VERDICT (incomplete run)');
    // The runner's own account makes it so even when the counts are near the plan.
    expect(judgeCompleteness(summary([400, 570]), ['runner 1: exit status 105']).verdict).toBe('none');
    // A whole run, within k6's rounding of segments (973 of 975): its verdict stands.
    expect(judgeCompleteness(summary([400, 573])).verdict).toBe('pass');
  });

  it('keeps the FAIL of a run its own abortOnFail threshold stopped', () => {
    const s = summary([120, 0]);
    s.thresholds = s.thresholds.map((t) => (t.id === 'errors (steady, abort)' ? { ...t, ok: false, abortOnFail: true, actual: 0.7 } : t));
    s.verdict = 'fail';
    expect(judgeCompleteness(s).verdict).toBe('fail');
  });
});

describe('the report', () => {
  it('the chart stacks each answer once (a steady 429 is not an error bar too), on round ticks', () => {
    const s = summary([400, 575], { ok: [10, 10] });
    s.timeline!.points = [{ t: 0, sent: 27, ok: 0, rateLimited: 27, errors: 0 }];
    const html = renderHtml(s);
    expect(html).not.toMatch(/<rect class="error"/);
    expect(html.match(/<rect class="limited"/g)).toHaveLength(1);
    expect(niceTicks(54)).toEqual([0, 20, 40, 60]);
    expect(niceTicks(11, 7)).toEqual([0, 2, 4, 6, 8, 10, 12]);
    expect(niceTicks(0.9)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
  });

  it('names a key whose limiter let through a lower plan\'s budget', () => {
    // Pro in 20 s windows (2000), a free key (100): 96 answers passed in the first window, the setup's 4 with them.
    const s = summary([300, 0], { steadyLimited: 200, ok: [40, 40, 16, 0, 0] });
    Object.assign(s, { tier: 'pro', plan: { ...s.plan, rpm: 2000 } });
    s.onset = { found: true, offeredInWindow: 250, fractionOfLimit: 0.125, resolution: 0.7, early: 200 };
    expect(lowerLimit(s)).toEqual({ observed: 100, plan: 'free' });
    expect(verdictReasons(s)[0]).toMatch(/observed limit, about 100 per window, is the free plan's \(100\), below the pro tier's 2000\. Is this a key of the free plan\? Run with --tier free/);
  });

  it('does not compare a mostly refused run with its baseline', () => {
    const refused = summary([400, 575], { steadyLimited: 260 });
    const c = compareRuns(summary([400, 575]), refused);
    expect(c).toMatchObject({ regression: false, endpoints: [] });
    expect(c.notCompared).toMatch(/65% of this run's steady-phase requests were refused or failed \(260 of 400 with 429\)/);
  });
});

/** Runs the CLI; resolves with its exit status and output. */
function cli(args: string[], path: string, timeout = 120_000): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => execFile(process.execPath, ['--import', 'tsx', 'cli/load.ts', ...args],
    { cwd: root, timeout, maxBuffer: 32 * 2 ** 20, env: { ...process.env, PATH: `${path}:${dirname(process.execPath)}` } },
    (err, stdout, stderr) => done({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr })));
}

const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch { return false; } };

describe('--runners with a stand-in k6 (k6\'s REST API, exit 105 on SIGTERM after its summary)', () => {
  it('one runner killed: the others are stopped at once and waited for, exit 2, each runner\'s end in the message', async () => {
    const bin = join(dir, 'bin-runners');
    const pids = join(dir, 'pids');
    mkdirSync(bin, { recursive: true });
    mkdirSync(pids, { recursive: true });
    // `archive` writes the file; `run --paused` serves /v1/status until resumed, then "runs": runner 1
    // dies by SIGKILL a second in; the others run for 10 minutes unless stopped (SIGTERM: summary, exit 105).
    writeFileSync(join(bin, 'k6'), `#!${process.execPath}
const fs = require('node:fs'); const http = require('node:http');
const argv = process.argv.slice(2);
if (argv[0] === 'archive') { fs.writeFileSync(argv[argv.indexOf('-O') + 1], 'tar'); process.exit(0); }
const index = Number(argv.find((a) => a.startsWith('instance_id=')).slice(12));
fs.writeFileSync(${JSON.stringify(pids)} + '/' + index, String(process.pid));
const [host, port] = argv[argv.indexOf('--address') + 1].split(':');
let paused = true;
const server = http.createServer((req, res) => {
  if (req.method === 'PATCH') { paused = false; req.resume(); setTimeout(start, 10); }
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ data: { attributes: { status: paused ? 4 : 5, paused } } }));
}).listen(Number(port), host);
function start() {
  server.close();
  fs.writeFileSync(argv.find((a) => a.startsWith('json=')).slice(5), '');
  if (index === 1) setTimeout(() => process.kill(process.pid, 'SIGKILL'), 1000);
  else setTimeout(() => process.exit(0), 600000);
}
process.on('SIGTERM', () => {
  fs.writeFileSync(argv[argv.indexOf('--summary-export') + 1], JSON.stringify({ metrics: {}, root_group: { checks: {} }, setup_data: { runTag: 't', setupRequests: 12 } }));
  console.error('time="now" level=error msg="test run was aborted because k6 received a \\'terminated\\' signal"');
  process.exit(105);
});
`);
    chmodSync(join(bin, 'k6'), 0o755);
    const r = await cli(['--tier', 'free', '--engine', 'k6', '--runners', '3', '--duration', '4s', '--window-ms', '1000', '--report-dir', join(dir, 'reports-runners')], bin);
    expect(r.code, r.stderr).toBe(2);
    const last = r.stderr.trimEnd().split('\n').at(-1)!;
    expect(last).toMatch(/^load: no verdict: 0 of \d+ planned requests sent \(0%\): /);
    expect(last).toContain('runner 1 (segment 0:1/3): killed by SIGKILL, no summary written');
    expect(last).toMatch(/runner 2 \(segment 1\/3:2\/3\): exit status 105 \(stopped from outside by a signal[^)]*\), stopped by this command when runner 1 \(segment 0:1\/3\) ended \(SIGTERM\)/);
    expect(r.stdout).toContain('verdict: NONE (incomplete run)');
    // Every runner had ended when the command did (left alone, the survivors run 10 minutes).
    const left = readdirSync(pids).map((f) => Number(readFileSync(join(pids, f), 'utf8'))).filter(alive);
    for (const pid of left) process.kill(pid, 'SIGKILL');
    expect(left).toEqual([]);
  }, budget(300_000));
});

const k6 = process.env.K6_BIN || findK6();

describe.skipIf(!k6)(`a real k6 stopped by a signal${k6 ? '' : ' (skipped: no k6; set K6_BIN or put k6 on PATH)'}`, () => {
  const servers: RunningReference[] = [];
  afterAll(async () => { for (const s of servers) await s.close(); });

  it('--runners 2, SIGTERM to runner 1 a second into its run: no verdict, exit 2, the other stopped', async () => {
    const bin = join(dir, 'bin-real');
    mkdirSync(bin, { recursive: true });
    if (!existsSync(join(bin, 'k6'))) symlinkSync(k6!, join(bin, 'k6'));
    const key = 'mk_test_incomplete_real_k6_000001';
    // The runner to stop: the k6 process whose argv has instance_id=1, a second after the run's first request.
    let signalled = false;
    const server = await startReference({ keys: [{ key, tenantId: 'incomplete', plan: 'free' }], rateLimitWindowMs: 1000, extend: (app) => app.addHook('onRequest', async () => {
      if (signalled) return;
      signalled = true;
      setTimeout(() => {
        const ps = readdirSync('/proc').filter((p) => /^\d+$/.test(p)).find((p) => {
          try { return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('instance_id=1\0'); } catch { return false; }
        });
        if (ps) process.kill(Number(ps), 'SIGTERM');
      }, 1000);
    }) });
    servers.push(server);
    const r = await cli(['--tier', 'free', '--engine', 'k6', '--runners', '2', '--base-url', server.url, '--api-key', key, '--no-wait',
      '--window-ms', '1000', '--duration', '8s', '--report-dir', join(dir, 'reports-real')], bin, 150_000);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    const last = r.stderr.trimEnd().split('\n').at(-1)!;
    expect(last).toMatch(/^load: no verdict: \d+ of \d+ planned requests sent/);
    expect(last).toContain('runner 1 (segment 0:1/2): exit status 105');
    expect(last).toMatch(/runner 2 \(segment 1\/2:1\): exit status 105 .*stopped by this command/);
    expect(r.stdout).not.toMatch(/verdict: (PASS|FAIL)/);
  }, budget(180_000));
});
