// Through the CLI with a real k6 (K6_BIN, or `k6` on PATH; skipped otherwise, with the reason in
// the test's name: CI has no k6, and test/load/combine.test.ts covers the combining without it):
// - a split run (--runners 2, k6-operator's execution segments) is judged on the whole: a p95 that
//   each runner passes on its own ten samples fails on the twenty of the whole, and the reverse;
// - the same cases side by side with the Node runner, on the same target: one slow answer among
//   the few an endpoint gets (k6's percentile rule: the p95 interpolates, it is not the largest
//   sample) and thresholds on empty metrics (no 429 at all: both pass).
// The target: the reference, with the first worldContext request of each run (told apart by the
// run tag its setup gives its worlds) held back by a known amount.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { findK6 } from '../../load/k6-host/locate.ts';
import type { LoadSummary } from '../../load/model/summary.ts';
import { startReference, type RunningReference } from '../../reference/index.ts';
import { budget } from '../budget.ts';

const k6 = process.env.K6_BIN || findK6();
const root = fileURLToPath(new URL('../../', import.meta.url));
const WC = 'worldContext p95 (steady)';
/** Latency bounds and a request timeout no stall of a busy machine reaches (the cases are about other things). */
const LOOSE = ['--p95-ms', '10000', '--p99-ms', '40000', '--timeout-ms', '60000'];

/** Holds back the first worldContext request of the runs (by their run tag) that `slowMs` gives a delay. */
function holdFirstWorldContext(slowMs: (run: number) => number) {
  const owner = new Map<string, string>();
  const runs: string[] = [];
  const seen = new Set<string>();
  return (app: FastifyInstance) => {
    app.addHook('onSend', async (request, reply, payload) => {
      if (request.method === 'POST' && request.url === '/worlds' && reply.statusCode === 201 && typeof payload === 'string') {
        const tag = String((request.body as any)?.definition?.identity?.name ?? '').split(' ')[0];
        if (!runs.includes(tag)) runs.push(tag);
        owner.set(JSON.parse(payload).result.worldId, tag);
      }
      return payload;
    });
    app.addHook('onRequest', async (request) => {
      const m = request.method === 'POST' ? /^\/worlds\/([^/]+)\/context/.exec(request.url) : null;
      const tag = m ? owner.get(decodeURIComponent(m[1])) : undefined;
      if (!tag || seen.has(tag)) return;
      seen.add(tag);
      const ms = slowMs(runs.indexOf(tag));
      if (ms) await sleep(ms);
    });
  };
}

interface Run { code: number; stdout: string; stderr: string; summary?: LoadSummary }

describe.skipIf(!k6)(`the CLI with a real k6${k6 ? '' : ' (skipped: no k6; set K6_BIN or put k6 on PATH)'}`, () => {
  let dir: string;
  let bin: string;
  const servers: RunningReference[] = [];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'load-real-k6-cli-'));
    bin = join(dir, 'bin');
    mkdirSync(bin, { recursive: true });
    if (!existsSync(join(bin, 'k6'))) symlinkSync(k6!, join(bin, 'k6'));
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  let n = 0;
  /** A served reference (a free key, a 1 s window) whose runs' first worldContext requests are held back as `slowMs` says. */
  async function target(slowMs: (run: number) => number) {
    const key = `mk_test_real_k6_cli_${String(++n).padStart(4, '0')}_key`;
    const server = await startReference({ keys: [{ key, tenantId: `cli-${n}`, plan: 'free' }], rateLimitWindowMs: 1000, extend: holdFirstWorldContext(slowMs) });
    servers.push(server);
    return { server, key };
  }

  /** `npm run load` on the free tier, 4 s in 1 s windows (ten worldContext requests per runner of two in the steady phase). */
  function load(engine: 'k6' | 'node', t: { server: RunningReference; key: string }, extra: string[]): Promise<Run> {
    const reports = join(dir, `reports-${++n}`);
    const args = ['--import', 'tsx', 'cli/load.ts', '--tier', 'free', '--engine', engine, '--base-url', t.server.url, '--api-key', t.key,
      '--window-ms', '1000', '--duration', '4s', '--report-dir', reports, ...extra];
    return new Promise((done) => execFile(process.execPath, args, { cwd: root, timeout: budget(150_000), maxBuffer: 32 * 2 ** 20, env: { ...process.env, PATH: `${bin}:${dirname(process.execPath)}` } },
      (err, stdout, stderr) => {
        const file = join(reports, 'load-free.json');
        done({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr, ...(existsSync(file) ? { summary: JSON.parse(readFileSync(file, 'utf8')) } : {}) });
      }));
  }
  const p95 = (s: LoadSummary) => s.phases[0].endpoints.find((e) => e.operationId === 'worldContext')!.latency!.p95;

  it('--runners 2: a p95 that each runner passes on its own samples fails on the whole', async () => {
    // Each runner's first worldContext answer takes 14.5 s against a bound of 10 s: one in ~10
    // interpolates to ~8 s on a runner, two in ~20 to 14.5 s on the whole (test/load/combine.test.ts
    // has the arithmetic). Seconds, not ms: a stall of the machine stays far under the bound.
    const r = await load('k6', await target(() => 14_500), ['--runners', '2', ...LOOSE]);
    expect(r.summary, r.stdout + r.stderr).toBeDefined();
    const s = r.summary!;
    expect(r.stderr).toMatch(/k6 run --quiet --execution-segment=0:1\/2 --execution-segment-sequence=0,1\/2,1 .*--paused/);
    expect(s.runners!.map((x) => [x.segment, x.verdict, x.exitCode])).toEqual([['0:1/2', 'pass', 0], ['1/2:1', 'pass', 0]]);
    expect(s.thresholds.filter((t) => !t.ok).map((t) => t.id)).toEqual([WC]);
    expect(p95(s)).toBeGreaterThan(10_000);
    expect(r.code).toBe(1);
  }, budget(180_000));

  it('--runners 2: a p95 that one runner fails on its own samples passes on the whole', async () => {
    // One runner's first worldContext answer takes 30 s: ~16 s at its p95, ~1.5 s at the whole's.
    const r = await load('k6', await target((run) => (run === 0 ? 30_000 : 0)), ['--runners', '2', ...LOOSE]);
    expect(r.summary, r.stdout + r.stderr).toBeDefined();
    const s = r.summary!;
    expect(s.runners!.map((x) => x.verdict).sort()).toEqual(['fail', 'pass']);
    expect(s.runners!.find((x) => x.verdict === 'fail')!).toMatchObject({ failed: [WC], exitCode: 99 });
    expect(s.verdict).toBe('pass');
    expect(r.code).toBe(0);
  }, budget(180_000));

  it.each(['k6', 'node'] as const)('one slow answer among ~19 (%s): the p95 interpolates by k6\'s rule, it is not the largest sample', async (engine) => {
    // 3000 ms against a bound of 1000: the largest of ~19 samples, k6's rule puts the p95 a tenth or less of the way to it.
    const r = await load(engine, await target(() => 3000), ['--p95-ms', '1000', '--p99-ms', '100000', '--ramp-to', '0.9']);
    const s = r.summary!;
    expect(s.engine, r.stdout + r.stderr).toBe(engine);
    // Every sample is in the JSON (fewer than its cap): the p95 is k6's, linear between ranks, at 0.95 · (n − 1).
    const ms = [...s.samples!.endpoints.worldContext.ms].sort((a, b) => a - b);
    const rank = 0.95 * (ms.length - 1);
    const lo = Math.floor(rank);
    expect(ms.at(-1)).toBeGreaterThanOrEqual(2990);
    expect(p95(s)).toBeCloseTo(ms[lo] + (rank - lo) * ((ms[lo + 1] ?? ms[lo]) - ms[lo]), 1);
    expect(p95(s)).toBeLessThan(ms.at(-1)!);
    // The verdict on it, the same in both engines (a stall of the machine may slow the others: not this threshold's business).
    expect(s.thresholds.find((t) => t.id === WC)!.ok).toBe(p95(s) < 1000);
  }, budget(180_000));

  it.each(['k6', 'node'] as const)('no 429 at all (%s): the thresholds on empty metrics pass', async (engine) => {
    // 40% to 60% of the limit: room for a burst of late sends in a 1 s window on a busy machine.
    const r = await load(engine, await target(() => 0), [...LOOSE, '--steady-fraction', '0.4', '--ramp-to', '0.6']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('429s: none up to 60% of the limit');
    expect(r.summary!.onset).toMatchObject({ found: false, early: 0 });
    expect(r.summary!.thresholds.filter((t) => t.id.startsWith('429'))).toEqual([
      expect.objectContaining({ id: '429 carries Retry-After', ok: true }), expect.objectContaining({ id: '429s begin at the limit', ok: true }),
    ]);
    expect(r.summary!.thresholds.find((t) => t.id === '429s begin at the limit')!.actual).toBeUndefined();
  }, budget(180_000));
});
