// Another tenant's p99 while one tenant fills its quota as fast as its plan allows (issue 26): the
// server runs in its own process (`npm run serve`, memory store) and is warmed first (small and 1 MB
// creates of other tenants, 2 s of B's reads). Tenant B then reads its list of worlds (GET /worlds)
// every 2 ms, alone (idle), then while tenant A, on a pro key, creates worlds of about 1 MB on four
// connections for as long as the server takes them (its plan's fixed window lets 2,000 requests
// through at once), then while A goes on being refused. The ratio of B's p99 to its idle p99 is
// measured in the same run. A runs in a process of its own at nice 19: it stands for another
// customer's machine, so its own CPU should take as little from the server's as a shared machine allows.
// `tsx bench/quota-fill.ts` prints the lines; BENCH_SERVE_ROOT runs the `cli/serve.ts` of another
// tree (a checkout of the code before, for a before/after figure); BENCH_SERVER_ARGS passes node
// options to the server (`--cpu-prof`, `--trace-gc`); BENCH_DURATION sets the idle phase in seconds;
// BENCH_DB=1 runs the server with `--db` (SQLite) instead of the memory store.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Agent, request } from 'undici';

const PHASE_S = Number(process.env.BENCH_DURATION ?? 10);
const FILLER = 'mk_test_bench_quota_filler_0001';
const OBSERVER = 'mk_test_bench_quota_observer_01';
const WARMER = 'mk_test_bench_quota_warmer_0001';
const ROOT = resolve(process.env.BENCH_SERVE_ROOT ?? fileURLToPath(new URL('../', import.meta.url)));
/** Just under the 1 MiB body limit of a create. */
const BIG_WORLD = Buffer.from(JSON.stringify({ definition: { identity: { name: 'fill', description: 'f'.repeat(1_000_000) }, rules: { physics: {} } } }));
const SMALL_WORLD = JSON.stringify({ definition: { identity: { name: 'mine' }, rules: { physics: {} } }, entities: [{ name: 'u', type: 'user' }] });

async function startServer(dir: string): Promise<{ url: string; child: ChildProcess }> {
  const keys = join(dir, 'keys.json');
  writeFileSync(keys, JSON.stringify([
    { key: FILLER, tenantId: 'filler', plan: 'pro' },
    { key: OBSERVER, tenantId: 'observer', plan: 'enterprise', rpm: 1_000_000 },
    { key: WARMER, tenantId: 'warmer', plan: 'pro' },
  ]));
  const child = spawn(process.execPath, [...(process.env.BENCH_SERVER_ARGS?.split(' ').filter(Boolean) ?? []), '--import', 'tsx', join(ROOT, 'cli/serve.ts'), '--port', '0', '--keys', keys, ...(process.env.BENCH_DB ? ['--db', join(dir, 'bench.db')] : [])], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  await new Promise<void>((ready, fail) => {
    child.stdout!.on('data', (d) => { out += d; if (/OpenAPI: /.test(out)) ready(); });
    if (process.env.BENCH_SERVER_ARGS) child.stdout!.on('data', (d) => process.stderr.write(d)); // what --trace-gc and the like print
    child.on('exit', () => fail(new Error(`bench: serve exited: ${out}`)));
  });
  return { url: /listening on (http\S+)/.exec(out)![1], child };
}

const rssMb = (pid: number) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
  } catch {
    return NaN;
  }
};

const p = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

/** Tenant B: GET /worlds on one connection, a request every 2 ms (enough samples for a p99 of a fill that lasts about a second), latencies by phase. */
async function observe(url: string, agent: Agent, until: () => string | undefined): Promise<Map<string, number[]>> {
  const byPhase = new Map<string, number[]>();
  for (let phase = until(); phase !== undefined; phase = until()) {
    const t0 = performance.now();
    const res = await request(`${url}/worlds?limit=20`, { headers: { 'x-api-key': OBSERVER }, dispatcher: agent });
    await res.body.dump();
    if (res.statusCode !== 200) throw new Error(`bench: tenant B's GET /worlds answered ${res.statusCode}`);
    const list = byPhase.get(phase) ?? [];
    list.push(performance.now() - t0);
    byPhase.set(phase, list);
    await new Promise((r) => setTimeout(r, 2));
  }
  return byPhase;
}

export async function benchQuotaFill(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-quota-'));
  const { url, child } = await startServer(dir);
  // Each tenant its own client, as two customers are: a shared pool would queue B behind A's uploads.
  const agent = new Agent({ connections: 1 });
  try {
    // A server that has run a while: B's worlds, and large creates of a third tenant, compile the paths both take.
    for (let i = 0; i < 30; i++) {
      const [key, body] = i < 20 ? [OBSERVER, SMALL_WORLD] : [WARMER, BIG_WORLD];
      const res = await request(`${url}/worlds`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body, dispatcher: agent });
      await res.body.dump();
    }
    // Phases: B warming up (not measured), B alone, then (A's process starting: not measured) A filling, then A refused, until A stops.
    let phase = 'warm';
    let fillStarted = Infinity;
    let full = Infinity; // when A's first create was refused
    const observing = observe(url, agent, () => (phase === 'done' ? undefined : phase));
    await new Promise((r) => setTimeout(r, 2000));
    phase = 'idle';
    await new Promise((r) => setTimeout(r, PHASE_S * 1000));
    phase = 'starting';
    const rssIdle = rssMb(child.pid!);
    // Tenant A in a process of its own (another customer's machine): its uploads must not slow B's client.
    const filler = spawn('nice', ['-n', '19', process.execPath, '--import', 'tsx', fileURLToPath(import.meta.url), 'filler', url, String(2 * PHASE_S * 1000)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let report = '';
    filler.stdout!.on('data', (d) => {
      report += d;
      if (fillStarted === Infinity && /^start$/m.test(report)) { fillStarted = performance.now(); phase = 'filling'; }
      if (full === Infinity && /^full$/m.test(report)) { full = performance.now(); phase = 'refused'; }
    });
    await new Promise((done) => filler.on('exit', done));
    phase = 'done';
    const { statuses, accepted } = JSON.parse(report.split('\n').filter(Boolean).at(-1)!) as { statuses: Record<string, number>; accepted: number };

    const rssEnd = rssMb(child.pid!);
    const lat = await observing;
    const stats = (name: string) => {
      const l = [...(lat.get(name) ?? [])].sort((a, b) => a - b);
      return { n: l.length, p50: p(l, 0.5), p99: p(l, 0.99) };
    };
    const idle = stats('idle');
    const fmt = (s: { n: number; p50: number; p99: number }) => (s.n ? `p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms (${s.n} requests)` : 'none');
    const ratio = (s: { n: number; p99: number }) => (s.n ? `${(s.p99 / idle.p99).toFixed(1)}× idle` : '');
    const filled = stats('filling');
    const refused = stats('refused');
    const fillS = Number.isFinite(full) ? ((full - fillStarted) / 1000).toFixed(1) : `not within ${2 * PHASE_S}`;
    return [
      `quota fill (server in its own process, ${process.env.BENCH_DB ? 'SQLite store' : 'memory store'}; tenant A on a pro key creating ~1 MB worlds on 4 connections; tenant B's GET /worlds every 2 ms), ${ROOT === resolve(fileURLToPath(new URL('../', import.meta.url))) ? 'this tree' : ROOT}:`,
      `  tenant B idle:              ${fmt(idle)}`,
      `  while A fills its quota:    ${fmt(filled)} ${ratio(filled)}`,
      `  after A is full (refused):  ${fmt(refused)} ${ratio(refused)}`,
      `  A: ${(accepted / 2 ** 20).toFixed(0)} MB accepted, full after ${fillS} s; answers ${Object.entries(statuses).map(([k, v]) => `${k} ×${v}`).join(', ')}; server RSS ${rssIdle.toFixed(0)} → ${rssEnd.toFixed(0)} MB`,
    ];
  } finally {
    await agent.close();
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Tenant A (a child process): four connections of 1 MB creates for `ms`; prints `full` at its first refusal, then a summary. */
async function fill(url: string, ms: number): Promise<void> {
  const agent = new Agent({ connections: 4 });
  const statuses: Record<string, number> = {};
  let accepted = 0;
  let full = false;
  const end = performance.now() + ms;
  process.stdout.write('start\n');
  await Promise.all(Array.from({ length: 4 }, async () => {
    while (performance.now() < end) {
      const res = await request(`${url}/worlds`, { method: 'POST', headers: { 'x-api-key': FILLER, 'content-type': 'application/json' }, body: BIG_WORLD, dispatcher: agent });
      const text = await res.body.text();
      const code = res.statusCode === 201 ? '201' : `${res.statusCode} ${(JSON.parse(text) as { error?: { code?: string } }).error?.code}`;
      statuses[code] = (statuses[code] ?? 0) + 1;
      if (res.statusCode === 201) accepted += BIG_WORLD.length;
      else if (!full) { full = true; process.stdout.write('full\n'); }
      // A client that waits as told, but not past the end of its run.
      if (res.statusCode === 429) await new Promise((r) => setTimeout(r, Math.max(0, Math.min(1000 * Number(res.headers['retry-after'] ?? 1), end - performance.now()))));
    }
  }));
  await agent.close();
  process.stdout.write(`${JSON.stringify({ statuses, accepted })}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.argv[2] === 'filler') await fill(process.argv[3], Number(process.argv[4]));
  else for (const line of await benchQuotaFill()) console.log(line);
}
