// The memory of a conformance run as a CI container sees it: the peak of the summed RSS of the command
// and every process under it (sampled from /proc every 50 ms; each process's own high-water mark too),
// for the installed command (`simulation-conformance conformance`, bin/) in three runs: every area with
// every key against the reference served in a process of its own (`serve`), every area against a
// target that answers each check with 2 GiB, and the embedded reference (no --base-url). Aim: the
// first two within 300 MB. Run by `npm run bench` in a process of its own; alone:
// `node --import tsx bench/memory.ts`; `BENCH_MEMORY_ROOT=DIR` measures the command of another checkout
// (a before/after figure; the served reference and the huge target stay this checkout's).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hugeBodyServer } from '../test/conformance/loopback.ts';
import { watchTree, type TreeMemory } from '../test/tree-rss.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const COMMAND_ROOT = process.env.BENCH_MEMORY_ROOT ?? ROOT;
const AIM_MB = 300;
const dir = mkdtempSync(join(tmpdir(), 'bench-memory-'));
const id = () => Math.random().toString(16).slice(2, 12);
const keys = {
  main: `mk_test_mem_main_${id()}`, second: `mk_test_mem_second_${id()}`, free: `mk_test_mem_free_${id()}`, origin: `mk_test_mem_origin_${id()}`,
};
const origin = 'https://memory.example';
writeFileSync(join(dir, 'keys.json'), JSON.stringify([
  { key: keys.main, tenantId: 'mem-main', plan: 'pro' },
  { key: keys.second, tenantId: 'mem-second', plan: 'pro' },
  { key: keys.free, tenantId: 'mem-main', plan: 'free' },
  { key: keys.origin, tenantId: 'mem-main', plan: 'pro', origins: [origin] },
]));

/** `serve` in a process of its own, as a deployment is; a 5 s rate window keeps RATE-3's wait short. */
async function serve(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/serve.ts', '--port', '0', '--keys', join(dir, 'keys.json'), '--rate-window-ms', '5000'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => { out += d; const m = /listening on (http:\/\/\S+)/.exec(out); if (m) resolve(m[1]); });
    child.on('exit', (code) => reject(new Error(`bench: serve exited with status ${code}`)));
  });
  return { url, stop: () => child.kill() };
}

/** One run of the installed command, its process tree watched from start to exit. */
function measure(args: string[]): Promise<TreeMemory & { exit: number | null; wallS: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['bin/simulation-conformance.js', 'conformance', '--no-color', ...args], { cwd: COMMAND_ROOT, stdio: 'ignore' });
  const watch = watchTree(child.pid!, 50);
  return new Promise((resolve) => child.on('exit', (exit) => resolve({ ...watch.stop(), exit, wallS: (performance.now() - started) / 1000 })));
}

const reference = await serve();
const huge = await hugeBodyServer(readFileSync(join(ROOT, 'contract/openapi.json'), 'utf8'), 2 * 1024 ** 3);
const reports = (label: string) => ['--report-dir', join(dir, label)];
const rows: Array<[string, Awaited<ReturnType<typeof measure>>]> = [];
rows.push(['every area, every key, served reference', await measure([
  '--base-url', reference.url, '--api-key', keys.main, '--second-key', keys.second, '--rate-limit-key', keys.free,
  '--origin-key', keys.origin, '--allowed-origin', origin, ...reports('full')])]);
rows.push(['every area, a 2 GiB answer to each check', await measure([
  '--base-url', huge.url, '--api-key', keys.main, '--rpm', '0', '--timeout-ms', '20000', ...reports('huge')])]);
rows.push(['embedded reference (no --base-url)', await measure(reports('embedded'))]);
reference.stop();
await huge.close();
rmSync(dir, { recursive: true, force: true });

console.log(`Memory of a conformance run (the installed command${COMMAND_ROOT === ROOT ? '' : ` of ${COMMAND_ROOT}`}; RSS summed over its process tree, sampled every 50 ms)`);
const first = Math.max(...rows.map(([label]) => label.length)) + 2;
const widths = [first, 12, 20, 8, 8];
const line = (cells: unknown[]) => cells.map((c, i) => String(c).padEnd(widths[i] ?? 0)).join('').trimEnd();
console.log(line(['run', 'tree peak', 'processes', 'CPU s', 'wall s', 'exit']));
for (const [label, r] of rows) {
  const processes = r.processes.filter((p) => p.peakMb > 0).map((p) => p.peakMb).join('+');
  const cpu = r.processes.reduce((s, p) => s + p.cpuS, 0);
  console.log(line([label, `${r.peakMb} MB`, processes, cpu.toFixed(1), r.wallS.toFixed(1), r.exit]));
}
console.log(`(processes: each one's own peak, the command first; aim: the runs against --base-url within ${AIM_MB} MB)`);
