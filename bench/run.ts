// npm run bench: requests per second of the reference on loopback, measured with autocannon in the
// same run against a route that does no work (the baseline) and against GET /worlds/{id}.
// Figures are quoted as a ratio to the baseline, since the machine is shared and noisy.
import autocannon from 'autocannon';
import { startReference } from '../reference/index.ts';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const KEY = 'mk_test_bench_enterprise_0000001';

async function run(url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, duration: DURATION_S, connections: 10, headers });
  if (result.non2xx || result.errors) throw new Error(`bench: ${url} answered ${result.non2xx} non-2xx and ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

const server = await startReference({
  keys: [{ key: KEY, tenantId: 'bench', plan: 'enterprise', rpm: 1e9 }],
  // A route that does no work: public, so no key lookup, store or engine.
  extend: (app) => app.get('/__noop', { config: { public: true } }, async () => 'ok'),
});
const created = await fetch(`${server.url}/worlds`, {
  method: 'POST', headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
  body: JSON.stringify({ definition: { identity: { name: 'Bench' } }, entities: [{ name: 'a', type: 'persona' }, { name: 'b', type: 'persona' }] }),
});
const worldId = ((await created.json()) as { result: { worldId: string } }).result.worldId;

const baseline = await run(`${server.url}/__noop`);
const getWorld = await run(`${server.url}/worlds/${worldId}`, { 'x-api-key': KEY });
await server.close();

const rows = [['route', 'req/s', 'p50 ms', 'p99 ms'], ['no-op (baseline)', baseline], ['GET /worlds/{id}', getWorld]]
  .map((r) => (typeof r[1] === 'object' ? [r[0], Math.round((r[1] as { rps: number }).rps), (r[1] as { p50: number }).p50, (r[1] as { p99: number }).p99] : r));
for (const r of rows) console.log(r.map((c) => String(c).padEnd(18)).join(''));
console.log(`GET /worlds/{id} runs at ${(getWorld.rps / baseline.rps * 100).toFixed(1)}% of the no-op baseline (${DURATION_S} s each, 10 connections, loopback).`);
