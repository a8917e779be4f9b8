// Thresholds fail where they should: against a deliberately slow target (the reference with a
// hook adding delay) and against a target that starts failing (abortOnFail). And a stall that the
// service time (from the actual send, as k6 counts) hides shows in the response time (from the
// scheduled send: coordinated omission corrected) and in the send lag.
import { afterEach, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { startReference, type RunningReference } from '../../reference/index.ts';
import { resolveConfig } from '../../load/model/config.ts';
import { runNodeLoad } from '../../load/node/runner.ts';

const KEY = 'mk_test_slow_target_key_00001';
let server: RunningReference | undefined;
afterEach(async () => { await server?.close(); server = undefined; });

const start = (extend: (app: FastifyInstance) => void) =>
  startReference({ keys: [{ key: KEY, tenantId: 'slow', plan: 'enterprise', rpm: 1_000_000 }], extend });

describe('thresholds against a slow or failing target', () => {
  it('fail the p95/p99 latency thresholds when every answer takes 60 ms', async () => {
    server = await start((app) => app.addHook('onRequest', async () => { await sleep(60); }));
    const config = resolveConfig({ tier: 'enterprise', rpm: 3000, duration: '2s', p95Ms: 40, p99Ms: 50 });
    const s = await runNodeLoad({ baseUrl: server.url, apiKey: KEY, config, embedded: true });
    expect(s.verdict).toBe('fail');
    const failed = s.thresholds.filter((t) => !t.ok).map((t) => t.id);
    expect(failed).toEqual(expect.arrayContaining(['chat p95 (steady)', 'chat p99 (steady)', 'getWorld p95 (steady)']));
    expect(failed.every((id) => / p9[59] \(steady\)$/.test(id)), failed.join(', ')).toBe(true);
    expect(s.phases[0].total.latency!.p50).toBeGreaterThanOrEqual(60);
  });

  it('charge a stall to the requests scheduled during it in the response time and the send lag', async () => {
    // At 1 s the target blocks the event loop for 400 ms once (a GC pause, a lock): the requests
    // due meanwhile go out late. Counted from their actual send they would look fast.
    let stalled = false;
    const t0 = Date.now();
    server = await start((app) => app.addHook('onRequest', async (request) => {
      if (!stalled && request.url !== '/openapi.json' && Date.now() - t0 > 1000 && request.method === 'GET') {
        stalled = true;
        const until = Date.now() + 400;
        while (Date.now() < until) { /* a blocked process */ }
      }
    }));
    const config = resolveConfig({ tier: 'enterprise', rpm: 6000, duration: '3s', p95Ms: 150 });
    const s = await runNodeLoad({ baseUrl: server.url, apiKey: KEY, config, embedded: true });
    expect(stalled).toBe(true);
    const steady = s.phases[0];
    // 80 req/s × 0.4 s ≈ 32 of the 120 steady requests were due during the stall: well over 5%.
    expect(steady.total.responseTime!.p95, JSON.stringify(steady.total.responseTime)).toBeGreaterThan(150);
    // The runner shares the stalled process: its sends went out late, so counted from the actual
    // send those requests look fast; the lag says so.
    expect(steady.sendLag!.max).toBeGreaterThan(200);
    expect(steady.total.latency!.p50).toBeLessThan(steady.total.responseTime!.p95);
  });

  it('abort the run when most requests fail (abortOnFail), instead of hammering a broken target', async () => {
    let failing = false;
    server = await start((app) => app.addHook('onRequest', async (_request, reply) => {
      if (failing) await reply.code(503).send({ error: { code: 'UNAVAILABLE', message: 'down for the test' } });
    }));
    const config = resolveConfig({ tier: 'enterprise', rpm: 1200, duration: '8s' });
    const s = await runNodeLoad({
      baseUrl: server.url, apiKey: KEY, config, embedded: true,
      onProgress: (p) => { if (p.stage === 'steady') failing = true; },
    });
    expect(s.aborted).toMatch(/errors \(steady, abort\)/);
    expect(s.verdict).toBe('fail');
    // The abort threshold waits min(10 s, half the steady phase) = 2 s, then stops the run long
    // before the schedule's 8 s.
    expect(s.durationMs).toBeLessThan(4000);
    expect(s.phases[1].sent).toBe(0);
    expect(s.phases[0].total.errors).toBeGreaterThan(0);
  });
});
