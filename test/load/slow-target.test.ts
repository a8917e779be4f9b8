// Thresholds fail where they should: against a target slowed by a large, known amount (the
// reference with a hook adding delay) and against a target that starts failing (abortOnFail).
// A stall that the service time (from the actual send, as k6 counts) hides shows in the response
// time (from the scheduled send: coordinated omission corrected) and in the send lag; a queue
// for a connection shows as connection wait. Every assertion holds on a slow or busy machine:
// a delay the target adds is a floor, never a ceiling, and the margins are wide.
import { afterEach, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { startReference, type RunningReference } from '../../reference/index.ts';
import { resolveConfig } from '../../load/model/config.ts';
import { defaultThresholds } from '../../load/model/thresholds.ts';
import { runNodeLoad } from '../../load/node/runner.ts';

const KEY = 'mk_test_slow_target_key_00001';
let server: RunningReference | undefined;
afterEach(async () => { await server?.close(); server = undefined; });

const start = (extend: (app: FastifyInstance) => void) =>
  startReference({ keys: [{ key: KEY, tenantId: 'slow', plan: 'enterprise', rpm: 1_000_000 }], extend });

describe('thresholds against a slow or failing target', () => {
  it('fail the p95/p99 latency thresholds, and only those, when every answer takes at least 200 ms against bounds of 40 and 50', async () => {
    server = await start((app) => app.addHook('onRequest', async () => { await sleep(200); }));
    // One second of steady load (20 requests) and a token ramp: enough to judge every endpoint it reaches.
    const config = { ...resolveConfig({ tier: 'enterprise', rpm: 1500, p95Ms: 40, p99Ms: 50 }), steadyMs: 1000, rampMs: 100 };
    const s = await runNodeLoad({ baseUrl: server.url, apiKey: KEY, config, embedded: true, warmUp: 0 });
    expect(s.verdict).toBe('fail');
    const failed = s.thresholds.filter((t) => !t.ok).map((t) => t.id);
    expect(failed).toEqual(expect.arrayContaining(['chat p95 (steady)', 'chat p99 (steady)', 'getWorld p95 (steady)']));
    expect(failed.every((id) => / p9[59] \(steady\)$/.test(id)), failed.join(', ')).toBe(true);
    // The delay is a floor: every service time is above it, the fastest too.
    for (const e of s.phases[0].endpoints.filter((x) => x.count)) expect(e.latency!.p50, e.operationId).toBeGreaterThanOrEqual(199);
  });

  it('charge a stall to the requests scheduled during it in the response time and the send lag', async () => {
    // Once, a second in, the target blocks the event loop for 600 ms (a GC pause, a lock): the
    // runner shares the process, so the requests due meanwhile go out late, in a burst.
    let stalled = false;
    const t0 = Date.now();
    server = await start((app) => app.addHook('onRequest', async (request) => {
      if (!stalled && Date.now() - t0 > 1000 && request.method === 'GET') {
        stalled = true;
        const until = Date.now() + 600;
        while (Date.now() < until) { /* a blocked process */ }
      }
    }));
    const config = resolveConfig({ tier: 'enterprise', rpm: 6000, duration: '3s', p95Ms: 10_000, p99Ms: 10_000 });
    const s = await runNodeLoad({ baseUrl: server.url, apiKey: KEY, config, embedded: true, warmUp: 0 });
    expect(stalled).toBe(true);
    const steady = s.phases[0];
    // 80 req/s × 0.6 s: about 48 of the 120 steady requests were due during the stall, and half
    // of those more than 300 ms before it ended: far more than 5% of the phase.
    expect(steady.total.responseTime!.p95, JSON.stringify(steady.total.responseTime)).toBeGreaterThan(250);
    expect(steady.sendLag!.max).toBeGreaterThan(250);
    // One origin: a request's response time holds its send lag, so the slowest response is at
    // least the latest send.
    expect(steady.total.responseTime!.max).toBeGreaterThanOrEqual(steady.sendLag!.max);
  });

  it('tell a queue for a connection from the target\'s own time: connection wait, not service time', async () => {
    // One connection and answers of at least 50 ms: the pool serialises the requests, 40 a second
    // are due, 20 a second can be answered, so each steady request waits for the ones before.
    server = await start((app) => app.addHook('onRequest', async () => { await sleep(50); }));
    const config = { ...resolveConfig({ tier: 'enterprise', rpm: 3000, p95Ms: 10_000, p99Ms: 10_000 }), steadyMs: 1000, rampMs: 100 };
    const s = await runNodeLoad({ baseUrl: server.url, apiKey: KEY, config, embedded: true, warmUp: 0, connections: 1 });
    const steady = s.phases[0];
    expect(steady.sent).toBe(40);
    // The last steady request was due at 975 ms and cannot start before 39 answers of ≥ 50 ms
    // (1,950 ms): it waited almost a second for the connection, whatever the machine's speed.
    expect(steady.connectWait!.max, JSON.stringify(steady.connectWait)).toBeGreaterThan(800);
    expect(steady.total.latency!.p50).toBeGreaterThanOrEqual(49);
    // The response time is send lag + connection wait + service time, from one origin.
    expect(steady.total.responseTime!.max).toBeGreaterThanOrEqual(steady.connectWait!.max + 49);
  });

  it('abort the run when most requests fail (abortOnFail), instead of hammering a broken target', async () => {
    let failing = false;
    server = await start((app) => app.addHook('onRequest', async (_request, reply) => {
      if (failing) await reply.code(503).send({ error: { code: 'UNAVAILABLE', message: 'down for the test' } });
    }));
    // A long schedule (20 s of steady load, then 20 s of ramp) and the abort threshold allowed to
    // act after 1 s: it stops the run within seconds, far from the ramp, however slow the machine.
    const config = resolveConfig({ tier: 'enterprise', rpm: 1200, duration: '40s' });
    const thresholds = defaultThresholds(config).map((t) => (t.abortOnFail ? { ...t, delayAbortEvalMs: 1000 } : t));
    const s = await runNodeLoad({
      baseUrl: server.url, apiKey: KEY, config, thresholds, embedded: true, warmUp: 0,
      onProgress: (p) => { if (p.stage === 'steady') failing = true; },
    });
    expect(s.aborted).toMatch(/errors \(steady, abort\)/);
    expect(s.verdict).toBe('fail');
    expect(s.phases[1].sent).toBe(0);
    expect(s.phases[0].sent).toBeLessThan(s.phases[0].planned / 2);
    expect(s.phases[0].total.errors).toBeGreaterThan(0);
  });
});
