// npm run bench: throughput of the reference on loopback, measured with autocannon in the same run
// against a route that does no work (the baseline), GET /worlds/{id} and POST /worlds/{id}/chat;
// then the memory of a world with 10,000 personas; then the longest tick on 1,000 personas with
// another tenant's latency meanwhile; then the load runner's highest held rate.
// Figures are quoted as ratios to the baseline, since the machine is shared and noisy.
//
// Three more rows split the cost of a chat: the no-op behind the key check and rate limit; a
// canned chat (the same key check, rate limit, body validation and a response of the same size,
// but no store and no engine), which is what the platform alone lets a chat reach; and chat with
// `--db` (SQLite, fsync per write), the durable figure.
import autocannon from 'autocannon';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OPERATIONS } from '../contract/operations.ts';
import { startReference } from '../reference/index.ts';
import { benchChatCost } from './chat-cost.ts';
import { benchMaxTick } from './tick.ts';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const KEY = 'mk_test_bench_enterprise_0000001';
const headers = { 'x-api-key': KEY, 'content-type': 'application/json' };

async function run(url: string, options: { method?: 'GET' | 'POST'; body?: string } = {}) {
  const result = await autocannon({ url, duration: DURATION_S, connections: 10, headers, method: options.method ?? 'GET', body: options.body });
  if (result.non2xx || result.errors) throw new Error(`bench: ${url} answered ${result.non2xx} non-2xx and ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

async function post(url: string, body: unknown) {
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`bench: ${url} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  return ((await res.json()) as { result: Record<string, any> }).result;
}

const heapMb = () => {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

const keys = [{ key: KEY, tenantId: 'bench', plan: 'enterprise' as const, rpm: 1e9 }];
const chatOp = OPERATIONS.find((op) => op.operationId === 'chat')!;
let canned: unknown = null;
const server = await startReference({
  keys,
  extend: (app) => {
    // A route that does no work: public, so no key lookup, store or engine.
    app.get('/__noop', { config: { public: true } }, async () => 'ok');
    // The same, behind the key check and rate limit every operation passes.
    app.get('/__noop-keyed', async () => 'ok');
    app.post('/__canned-chat', { schema: { body: chatOp.body } }, async () => ({ result: canned }));
  },
});
const entities = [{ name: 'ana', type: 'persona' }, { name: 'ben', type: 'persona' }, { name: 'user', type: 'user' }];
const newWorld = (url: string) => post(`${url}/worlds`, { definition: { identity: { name: 'Bench' } }, entities });
const chatBody = JSON.stringify({ from: 'user', to: 'ana', message: 'Good morning! The harbor looks lovely today.' });
const { worldId } = await newWorld(server.url);
// The canned answer is a real chat's, so both routes send the same bytes.
canned = await post(`${server.url}/worlds/${(await newWorld(server.url)).worldId}/chat`, JSON.parse(chatBody));

const baseline = await run(`${server.url}/__noop`);
const keyedNoop = await run(`${server.url}/__noop-keyed`);
const getWorld = await run(`${server.url}/worlds/${worldId}`);
const cannedChat = await run(`${server.url}/__canned-chat`, { method: 'POST', body: chatBody });
const chat = await run(`${server.url}/worlds/${worldId}/chat`, { method: 'POST', body: chatBody });

const dir = mkdtempSync(join(tmpdir(), 'bench-db-'));
const durable = await startReference({ keys, db: join(dir, 'bench.db') });
const sqliteChat = await run(`${durable.url}/worlds/${(await newWorld(durable.url)).worldId}/chat`, { method: 'POST', body: chatBody });
await durable.close();
rmSync(dir, { recursive: true, force: true });

// Memory of a world with 10,000 personas, created in one request.
const before = heapMb();
const started = performance.now();
const big = await post(`${server.url}/worlds`, {
  definition: { identity: { name: 'Crowd' } },
  entities: Array.from({ length: 10_000 }, (_, n) => ({ name: `p${n}`, type: 'persona' })),
});
const createMs = performance.now() - started;
const after = heapMb();
const chatStarted = performance.now();
await post(`${server.url}/worlds/${big.worldId}/chat`, { from: 'p1', to: 'p2', message: 'Hello there.' });
const bigChatMs = performance.now() - chatStarted;
const snapshotBytes = (await (await fetch(`${server.url}/worlds/${big.worldId}/snapshot`, { headers })).text()).length;
await server.close();

const row = (name: string, r: { rps: number; p50: number; p99: number }) => [name, Math.round(r.rps), r.p50, r.p99, `${(r.rps / baseline.rps * 100).toFixed(1)}%`];
const rows = [['route', 'req/s', 'p50 ms', 'p99 ms', 'of baseline'], row('no-op (baseline)', baseline), row('no-op with key', keyedNoop), row('GET /worlds/{id}', getWorld),
  row('canned chat', cannedChat), row('POST …/chat', chat), row('chat, --db', sqliteChat)];
for (const r of rows) console.log(r.map((c) => String(c).padEnd(18)).join(''));
console.log(`(${DURATION_S} s each, 10 connections, loopback, memory store unless --db, one process)`);
console.log(`chat reaches ${(chat.rps / cannedChat.rps * 100).toFixed(1)}% of the canned chat: the share left after the store and the engine.`);
const cost = benchChatCost();
console.log(`one chat without HTTP: engine ${cost.engineUs.toFixed(1)} µs (a new message each chat: ${cost.engineVariedUs.toFixed(1)} µs, the reading paid every time); as the handler runs it (store edit + engine + log) ${cost.handlerUs.toFixed(1)} µs.`);
console.log(`World with 10,000 personas: +${(after - before).toFixed(1)} MB heap${(globalThis as { gc?: unknown }).gc ? '' : ' (run with --expose-gc for exact figures)'}, `
  + `snapshot ${(snapshotBytes / 2 ** 20).toFixed(1)} MB, created in ${createMs.toFixed(0)} ms, one chat in it ${bigChatMs.toFixed(0)} ms.`);

// The longest tick on 1,000 personas, and another tenant's requests meanwhile (server in its own process).
console.log(await benchMaxTick());

// The load runner: the highest arrival rate it holds within 1% next to autocannon's maximum. In a
// process of its own, as a load run is: this one's heap holds what the rows above left behind.
console.log('');
/** A bench file in a process of its own; its table printed here. */
function ownProcess(file: string): void {
  const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL(file, import.meta.url))], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`bench: bench/${file} exited with status ${child.status}`);
  process.stdout.write(child.stdout);
}
ownProcess('./load.ts');

// Another tenant's p99 while one tenant fills its quota as fast as its plan allows (server, filler
// and the other tenant each in a process of their own), against its idle p99 in the same run.
console.log('');
ownProcess('./quota-fill.ts');

// Both load engines per tier in alternating pairs against a served reference (k6 on PATH, else one
// line saying it was skipped): node/k6 ratios and verdicts per pair, about a minute a run.
console.log('');
ownProcess('./parity.ts');

// The memory of a conformance run: the peak RSS of the command's process tree against a served
// reference, against a target answering 2 GiB, and with the embedded reference (about two minutes).
console.log('');
ownProcess('./memory.ts');

// The gate's own time: a full conformance run with every key, directly and behind a slow proxy
// (about four minutes: it waits out real one-minute rate windows).
console.log('');
ownProcess('./gate.ts');
