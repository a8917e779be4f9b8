// The Node runner's ceiling: the highest open-model arrival rate it holds within 1% against a
// loopback route that does no work, next to autocannon's maximum throughput on the same route
// in the same run (the machine is shared and noisy, so only the ratio travels). The route runs
// in a child process, so the server and the load generator do not share an event loop.
// `tsx bench/load.ts` prints the lines; `npm run bench` includes them (bench/run.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { dispatchArrivals } from '../load/node/arrivals.ts';
import { createClient } from '../load/node/client.ts';

const AUTOCANNON_S = Number(process.env.BENCH_DURATION ?? 10);
/** Each trial rate runs this long; a backlog that grows shows within it. */
const TRIAL_S = Math.max(2, Math.round(AUTOCANNON_S / 3));
const HOLD = 0.99;
const NOOP = { operationId: 'noop', method: 'GET', path: '/' } as const;

const NOOP_SERVER = `
const server = require('node:http').createServer((req, res) => { req.resume(); res.end('ok'); });
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));
`;

async function startNoop(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['-e', NOOP_SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  return { url: `http://127.0.0.1:${chunk.toString().trim()}`, child };
}

/**
 * A rate is held when one of two trials holds it: the machine is shared, and a stall of another
 * process during one short trial says nothing of the runner (autocannon's figure, an average over
 * the whole run, shrugs such a stall off the same way).
 */
async function trial(url: string, rate: number): Promise<{ rate: number; completedRps: number; p99LagMs: number; held: boolean }> {
  const first = await attempt(url, rate);
  return first.held ? first : attempt(url, rate);
}

/** Sends at `rate` for TRIAL_S; held when the answers completed in time match the schedule. */
async function attempt(url: string, rate: number): Promise<{ rate: number; completedRps: number; p99LagMs: number; held: boolean }> {
  // As many connections as autocannon's 50, rounded up: more only add handshakes when a blip makes the pool open them.
  const client = createClient(url, 'mk_test_bench', { connections: 64 });
  const count = Math.round(rate * TRIAL_S);
  const endMs = TRIAL_S * 1000;
  let completedInTime = 0;
  let answered = 0;
  const lags = new Float64Array(count);
  const t0 = performance.now();
  let allAnswered!: () => void;
  const drained = new Promise<void>((r) => { allAnswered = r; });
  const { sent } = await dispatchArrivals({
    count, dueAt: (k) => (k * 1000) / rate, now: () => performance.now() - t0,
    fire: (k, due, sentMs) => {
      lags[k] = sentMs - due;
      client.dispatch(NOOP, (o) => {
        if (o.status === 200 && o.answeredAt - t0 <= endMs + 50) completedInTime++;
        if (++answered === count) allAnswered();
      });
    },
  });
  if (sent === count) await drained;
  await client.close();
  lags.sort();
  const completedRps = completedInTime / TRIAL_S;
  return { rate, completedRps, p99LagMs: lags[Math.floor(count * 0.99)] ?? 0, held: completedRps >= rate * HOLD };
}

export async function benchLoadRunner(): Promise<string[]> {
  const { url, child } = await startNoop();
  try {
    const ac = await autocannon({ url, duration: AUTOCANNON_S, connections: 50 });
    if (ac.non2xx || ac.errors) throw new Error(`bench: autocannon saw ${ac.non2xx} non-2xx and ${ac.errors} errors on the no-op route`);
    const ceiling = ac.requests.average;
    // Bisection between a rate surely held and autocannon's maximum (no client beats the server).
    let lo = { rate: 0, completedRps: 0, p99LagMs: 0, held: true };
    let loRate = Math.max(100, Math.round(ceiling / 20));
    const first = await trial(url, loRate);
    if (first.held) lo = first; else loRate = 0;
    let hiRate = Math.round(ceiling);
    while (hiRate - loRate > Math.max(100, ceiling * 0.03)) {
      const mid = Math.round((loRate + hiRate) / 2);
      const t = await trial(url, mid);
      if (t.held) { lo = t; loRate = mid; } else hiRate = mid;
    }
    const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
    return [
      `load runner on a no-op loopback route (child process), same run:`,
      `  autocannon maximum throughput     ${fmt(ceiling)} req/s (closed model, 50 connections, ${AUTOCANNON_S} s)`,
      `  Node runner highest held rate     ${fmt(lo.rate)} req/s (open model: ${fmt(lo.completedRps)} req/s answered in time, within ${Math.round((1 - HOLD) * 100)}%; p99 send lag ${lo.p99LagMs.toFixed(1)} ms; ${TRIAL_S} s trials)`,
      `  the runner holds ${(lo.rate / ceiling * 100).toFixed(0)}% of autocannon's maximum as a scheduled arrival rate`,
    ];
  } finally {
    child.kill();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const line of await benchLoadRunner()) console.log(line);
}
