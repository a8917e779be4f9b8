// The gate's own time: a full conformance run with every key (main on the pro plan, paced at 90%; a
// second tenant; a free-plan key for the rate-limit checks, whose minute window RATE-3 waits out; an
// origin-restricted key) against the reference as `npm run serve` starts it (real one-minute rate
// windows), directly and behind a proxy adding 50 ms to every request (staging across a network).
// Beside each: the ideal, the larger of (requests ÷ the paced rate) and the longest single wait (one
// rate window), and the ratio to it. Run by `npm run bench` in a process of its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PLAN_RPM } from '../contract/plans.ts';
import { startReference } from '../reference/index.ts';
import type { KeyRecord } from '../reference/platform/index.ts';
import { AREAS } from '../contract/requirements.ts';
import { createSession, paceOf } from '../suite/run/session.ts';
import { cleanup } from '../suite/run/ledger.ts';
import { startFaultProxy } from '../suite/self-test/proxy.ts';
import type { Target } from '../suite/run/target.ts';

const WINDOW_MS = 60_000;
const DELAY_MS = 50;
const key = (label: string) => `mk_test_gate_${label}_${Math.random().toString(16).slice(2, 12)}`;
const origin = 'https://gate.example';
const keys: KeyRecord[] = [
  { key: key('main'), tenantId: 'gate-main', plan: 'pro' },
  { key: key('second'), tenantId: 'gate-second', plan: 'pro' },
  { key: key('free'), tenantId: 'gate-main', plan: 'free' },
  { key: key('origin'), tenantId: 'gate-main', plan: 'pro', origins: [origin] },
];
const reference = await startReference({ keys, rateLimitWindowMs: WINDOW_MS });
const dir = mkdtempSync(join(tmpdir(), 'bench-gate-'));

async function fullRun(baseUrl: string, label: string) {
  const target: Target = { baseUrl, apiKey: keys[0].key, extraKeys: {}, embedded: false, document: await (await fetch(`${baseUrl}/openapi.json`)).json() as Record<string, unknown>, close: async () => undefined };
  const session = createSession(target, {
    areas: [...AREAS], strict: false, keep: false, timeoutMs: 10_000, deadlineAt: Date.now() + 600_000, workDir: dir, plan: 'pro', rateLimitPlan: 'free',
    secondKey: keys[1].key, rateLimitKey: keys[2].key, originKey: keys[3].key, allowedOrigin: origin, allowBillable: true, shownConfig: {}, print: () => undefined,
  });
  const t0 = performance.now();
  const result = await session.run();
  const wallS = (performance.now() - t0) / 1000;
  await cleanup({ baseUrl: reference.url, apiKey: keys[0].key, ledgerFile: session.config.ledgerFile, timeoutMs: 10_000, until: Date.now() + 60_000 }).catch(() => undefined);
  const paced = result.requestCount / (paceOf('pro') / 60);
  const ideal = Math.max(paced, WINDOW_MS / 1000);
  return { label, wallS, requests: result.requestCount, paced, ideal, ratio: wallS / ideal, exit: result.exitCode };
}

const rows = [await fullRun(reference.url, 'direct')];
// The free key's window must be fresh again before the second run provokes its 429.
await sleep(WINDOW_MS);
const proxy = await startFaultProxy(reference.url, { request: () => sleep(DELAY_MS) });
rows.push(await fullRun(proxy.url, `behind a ${DELAY_MS} ms proxy`));
await proxy.close();
await reference.close();
rmSync(dir, { recursive: true, force: true });

console.log(`The gate: a full run with every key (pro ${PLAN_RPM.pro}/min paced at ${paceOf('pro')}/min, free-plan window ${WINDOW_MS / 1000} s)`);
// The first column as wide as its longest label: the others line up under their heads.
const first = Math.max(4, ...rows.map((r) => r.label.length)) + 2;
const line = (cells: unknown[]) => cells.map((c, i) => String(c).padEnd(i === 0 ? first : 14)).join('').trimEnd();
console.log(line(['run', 'wall s', 'requests', 'paced s', 'ideal s', 'wall ÷ ideal', 'exit']));
for (const r of rows) console.log(line([r.label, r.wallS.toFixed(1), r.requests, r.paced.toFixed(1), r.ideal.toFixed(1), `${r.ratio.toFixed(2)}×`, r.exit]));
console.log('(ideal: the larger of requests ÷ the paced rate and the longest single wait, one rate window; aim ≤ 1.2×, and ≤ 70 s behind the proxy)');
