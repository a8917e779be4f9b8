// The longest tick a client can ask for (seconds = one year) on a world of 1,000 personas, and what
// it does to another tenant: while the tick runs, tenant B lists its worlds every 20 ms. The figure
// that matters is B's slowest answer; the aim is a tick within 1 s and B within 100 ms. The server
// runs in its own process (npm run serve), so the probes are sent while it is busy.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const A = 'mk_test_bench_tick_tenant_a_0001';
const B = 'mk_test_bench_tick_tenant_b_0001';
const PERSONAS = 1_000;
const YEAR = 31_536_000;
const ROUNDS = Number(process.env.BENCH_TICK_ROUNDS ?? 3);

async function call(url: string, key: string, method: string, body?: unknown) {
  const started = performance.now();
  const res = await fetch(url, { method, headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`bench: ${method} ${url} answered ${res.status}: ${text.slice(0, 200)}`);
  return { ms: performance.now() - started, json: JSON.parse(text) as { result: Record<string, any> } };
}

export async function benchMaxTick(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-tick-'));
  const keys = join(dir, 'keys.json');
  writeFileSync(keys, JSON.stringify([
    { key: A, tenantId: 'tick-a', plan: 'enterprise', rpm: 1e9 },
    { key: B, tenantId: 'tick-b', plan: 'enterprise', rpm: 1e9 },
  ]));
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/serve.ts', '--port', '0', '--keys', keys], {
    cwd: fileURLToPath(new URL('../', import.meta.url)), stdio: ['ignore', 'pipe', 'inherit'],
  });
  // The server dies with this process, whatever happens to it.
  const stop = () => child.kill();
  process.on('exit', stop);
  const server = { url: await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolve(url);
    });
    child.on('exit', (code) => reject(new Error(`bench: the server exited (${code}) before listening`)));
  }) };
  try {
    const created = await call(`${server.url}/worlds`, A, 'POST', {
      definition: { identity: { name: 'Crowd' } },
      entities: Array.from({ length: PERSONAS }, (_, n) => ({ name: `p${n}`, type: 'persona' })),
    });
    const tickUrl = `${server.url}/worlds/${created.json.result.worldId}/tick`;
    await call(tickUrl, A, 'POST', { seconds: 60 }); // warm-up
    const ticks: number[] = [];
    const others: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      let done = false;
      const tick = call(tickUrl, A, 'POST', { seconds: YEAR }).then((r) => { done = true; return r.ms; });
      const probes: Array<Promise<number>> = [];
      await new Promise((r) => setTimeout(r, 5));
      while (!done) {
        // A probe that fails (the server too busy even to accept it) counts as not answered.
        probes.push(call(`${server.url}/worlds`, B, 'GET').then((r) => r.ms, () => Infinity));
        await new Promise((r) => setTimeout(r, 20));
      }
      ticks.push(await tick);
      others.push(...(await Promise.all(probes)));
    }
    const max = (xs: number[]) => Math.max(...xs).toFixed(0);
    const failed = others.filter((ms) => ms === Infinity).length;
    return `Tick of one year on ${PERSONAS.toLocaleString('en')} personas (${ROUNDS} rounds): slowest ${max(ticks)} ms; `
      + `another tenant's GET /worlds meanwhile (${others.length} requests): slowest ${failed ? `not answered (${failed} failed)` : `${max(others)} ms`}.`;
  } finally {
    stop();
    process.off('exit', stop);
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchMaxTick());
