// Per-tier parity of the two load engines: alternating pairs (Node runner then k6 in odd pairs,
// k6 then Node runner in even ones) of `npm run load` per tier, against one served reference (its
// own process, a window of BENCH_PARITY_WINDOW_MS, 20 s by default: each plan's budget counts three
// times a minute), each run on a key of its own so that no run eats another's budget. Prints per
// pair the steady phase's service time (all endpoints) of each engine and the node/k6 ratios, the
// rates achieved, where 429s began and both verdicts. A bench, not a test: the figures are the
// machine's. Needs k6 on PATH (../shared/tools/build-k6.sh builds one); says so and stops without.
//   tsx bench/parity.ts          BENCH_PARITY_PAIRS=3 BENCH_PARITY_TIERS=free,pro BENCH_PARITY_DURATION=40s
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PLANS, type Plan } from '../contract/plans.ts';
import { findK6 } from '../load/k6-host/locate.ts';
import type { LoadSummary } from '../load/model/summary.ts';

const PAIRS = Number(process.env.BENCH_PARITY_PAIRS ?? 1);
const TIERS = (process.env.BENCH_PARITY_TIERS ?? PLANS.join(',')).split(',') as Plan[];
const WINDOW_MS = Number(process.env.BENCH_PARITY_WINDOW_MS ?? 20_000);
const DURATION = process.env.BENCH_PARITY_DURATION ?? '40s';
const ENTERPRISE_RPM = 5000;
const root = fileURLToPath(new URL('../', import.meta.url));
type Engine = 'node' | 'k6';

const run = (args: string[]) => new Promise<number>((done) => execFile(process.execPath, ['--import', 'tsx', 'cli/load.ts', ...args],
  { cwd: root, maxBuffer: 64 * 2 ** 20, timeout: 15 * 60_000 }, (err) => done(err ? (typeof err.code === 'number' ? err.code : 1) : 0)));

export async function benchParity(): Promise<string[]> {
  if (!findK6()) return ['per-tier parity of k6 and the Node runner: skipped (no k6 on PATH; ../shared/tools/build-k6.sh builds one)'];
  const dir = mkdtempSync(join(tmpdir(), 'bench-parity-'));
  const keys = TIERS.flatMap((tier) => Array.from({ length: PAIRS }, (_, p) => (['node', 'k6'] as const).map((engine) => ({
    key: `mk_test_parity_${tier}_${engine}_${p}_0000000`, tenantId: `parity-${tier}-${engine}-${p}`, plan: tier, ...(tier === 'enterprise' ? { rpm: ENTERPRISE_RPM } : {}),
  }))).flat());
  writeFileSync(join(dir, 'keys.json'), JSON.stringify(keys));
  const server = spawn(process.execPath, ['--import', 'tsx', 'cli/serve.ts', '--port', '0', '--keys', join(dir, 'keys.json'), '--rate-window-ms', String(WINDOW_MS)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  let url = '';
  for (let text = ''; !url;) {
    const [chunk] = (await once(server.stdout!, 'data')) as [Buffer];
    text += chunk.toString();
    url = /listening on (http:\/\/\S+)/.exec(text)?.[1] ?? '';
  }
  const f = (x: number | undefined, d = 2) => (x === undefined ? '-' : x >= 100 ? x.toFixed(0) : x.toPrecision(3));
  const pct = (x: number | undefined) => (x === undefined ? 'none' : `${(x * 100).toFixed(1)}%`);
  const lines = [
    `per-tier parity, k6 and the Node runner: npm run load -- --tier T --engine E --base-url <served reference> --api-key <a key per run> --window-ms ${WINDOW_MS} --duration ${DURATION}${TIERS.includes('enterprise') ? ` (enterprise: --rpm ${ENTERPRISE_RPM})` : ''}`,
    '(steady phase, service time of all endpoints together, ms; node/k6 the ratio of the Node runner\'s figure to k6\'s; req/s achieved steady → ramp; where 429s began)',
    ['tier', 'pair', 'order', 'node p50/p95/p99', 'k6 p50/p95/p99', 'node/k6 p50', 'p95', 'p99', 'node req/s', 'k6 req/s', 'node 429s at', 'k6 429s at', 'verdicts node/k6'].join('  '),
  ];
  try {
    for (const tier of TIERS) {
      for (let p = 0; p < PAIRS; p++) {
        const order: Engine[] = p % 2 === 0 ? ['node', 'k6'] : ['k6', 'node'];
        const result: Partial<Record<Engine, { s: LoadSummary; code: number }>> = {};
        for (const engine of order) {
          const reports = join(dir, `${tier}-${engine}-${p}`);
          const code = await run(['--tier', tier, '--engine', engine, '--base-url', url, '--api-key', `mk_test_parity_${tier}_${engine}_${p}_0000000`, '--window-ms', String(WINDOW_MS),
            '--duration', DURATION, '--report-dir', reports, ...(tier === 'enterprise' ? ['--rpm', String(ENTERPRISE_RPM)] : [])]);
          result[engine] = { s: JSON.parse(readFileSync(join(reports, `load-${tier}.json`), 'utf8')), code };
        }
        const lat = (e: Engine) => result[e]!.s.phases[0].total.latency!;
        const ratio = (k: 'p50' | 'p95' | 'p99') => (lat('node')[k] / lat('k6')[k]).toFixed(2);
        const rates = (e: Engine) => result[e]!.s.phases.map((x) => f(x.achievedRps)).join(' → ');
        lines.push([tier, p + 1, order.join('→'), ['p50', 'p95', 'p99'].map((k) => f(lat('node')[k as 'p50'])).join('/'), ['p50', 'p95', 'p99'].map((k) => f(lat('k6')[k as 'p50'])).join('/'),
          ratio('p50'), ratio('p95'), ratio('p99'), rates('node'), rates('k6'), pct(result.node!.s.onset.fractionOfLimit), pct(result.k6!.s.onset.fractionOfLimit),
          `${result.node!.s.verdict}/${result.k6!.s.verdict} (exit ${result.node!.code}/${result.k6!.code})`].join('  '));
      }
    }
  } finally {
    server.kill();
    rmSync(dir, { recursive: true, force: true });
  }
  return lines;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) for (const line of await benchParity()) console.log(line);
