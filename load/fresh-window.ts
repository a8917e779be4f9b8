// A run must start in a rate-limit window of its own: requests a previous run of the same key sent
// within the last window still count in the deployment's limiter, and would make this run's 429s
// come "early" (a second `npm run load` within a minute failed a correct deployment at "42% of the
// limit"). SPEC.md shows no rate-limit header but Retry-After, so the window cannot be read from
// the deployment; two things can be known instead, and each is waited out with a countdown:
// - this tool's own last run of the key against that deployment: its report (load-<tier>.json in
//   the report directory) records when its last request went and a fingerprint of the key; the
//   window that may hold it ends one window later;
// - a spent window: one GET with the key answered 429 says so, and its Retry-After says how long.
// A run of the key from elsewhere (another machine, another report directory) within the last
// window, that did not spend the whole budget, cannot be seen: the early-429 reason says so.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { LoadSummary } from './model/summary.ts';

/** A fingerprint of the key on a deployment: tells runs of one key apart without keeping the key. */
export function keyId(baseUrl: string, apiKey: string): string {
  return createHash('sha256').update(`${baseUrl.replace(/\/+$/, '')}\n${apiKey}`).digest('hex').slice(0, 16);
}

/** When the last request of the previous run of this key on this deployment went, from its report; undefined when unknown. */
export function lastUse(reportFile: string, id: string): number | undefined {
  let previous: Pick<LoadSummary, 'keyUse'>;
  try { previous = JSON.parse(readFileSync(reportFile, 'utf8')); } catch { return undefined; }
  if (previous?.keyUse?.id !== id) return undefined;
  const at = Date.parse(previous.keyUse.lastRequestAt);
  return Number.isFinite(at) ? at : undefined;
}

export interface WindowWait {
  write: (text: string) => void;
  tty: boolean;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** Waits until `untilMs`, saying why and counting down (each second on a terminal, every ten in a log). */
export async function waitUntil(untilMs: number, why: string, o: WindowWait): Promise<number> {
  const now = o.now ?? Date.now;
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const total = untilMs - now();
  if (total <= 0) return 0;
  o.write(`load: ${why}; waiting ${Math.ceil(total / 1000)} s for a fresh window (Ctrl-C to give up)\n`);
  const first = Math.ceil(total / 1000);
  let shown = first;
  for (let left = total; left > 0; left = untilMs - now()) {
    const s = Math.ceil(left / 1000);
    if (o.tty) o.write(`\r\x1b[2Kload: fresh window in ${s} s`);
    else if (s % 10 === 0 && s < shown) { o.write(`load: fresh window in ${s} s\n`); shown = s; }
    // Wake on the second's boundary, so the countdown reads whole seconds.
    await sleep(left % 1000 || 1000);
  }
  if (o.tty) o.write('\r\x1b[2Kload: the window is fresh\n');
  return total;
}

/** One GET with the key: the seconds its 429 asks to wait (Retry-After), or undefined when the key is not limited now. */
export async function spentWindow(baseUrl: string, apiKey: string, timeoutMs: number): Promise<number | undefined> {
  const res = await fetch(`${baseUrl.replace(/\/+$/, '')}/worlds?limit=1`, {
    headers: { 'x-api-key': apiKey, accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs),
  }).catch(() => undefined);
  if (!res) return undefined;
  await res.body?.cancel();
  if (res.status !== 429) return undefined;
  // SPEC.md: Retry-After in seconds. A missing or odd one: a second, then the probe again.
  const s = Number(res.headers.get('retry-after'));
  return Number.isFinite(s) && s > 0 ? Math.min(s, 3600) : 1;
}

/** Before a run against a deployment: waits out the window of this tool's previous run of the key (no request sent). Returns the ms waited. */
export async function awaitOwnWindow(o: WindowWait & { reportFile: string; baseUrl: string; apiKey: string; windowMs: number }): Promise<number> {
  const now = o.now ?? Date.now;
  const last = lastUse(o.reportFile, keyId(o.baseUrl, o.apiKey));
  if (last === undefined || last + o.windowMs <= now()) return 0;
  const ago = Math.max(0, Math.round((now() - last) / 1000));
  return waitUntil(last + o.windowMs, `the previous run of this key (${o.reportFile}) sent its last request ${ago} s ago, and its requests still count in the deployment's ${o.windowMs / 1000} s rate-limit window`, o);
}

/**
 * Right after the preflight (not before: a GET begins a fixed window that has expired, and the
 * run's windows should begin at its preflight's GET, load/README.md): while the key is refused
 * with a 429, waits its Retry-After. Returns the ms waited.
 */
export async function awaitSpentWindow(o: WindowWait & { baseUrl: string; apiKey: string; timeoutMs: number }): Promise<number> {
  const now = o.now ?? Date.now;
  let waited = 0;
  // At most a few rounds: a deployment that keeps refusing is the run's to find.
  for (let round = 0; round < 3; round++) {
    const retryAfter = await spentWindow(o.baseUrl, o.apiKey, o.timeoutMs);
    if (retryAfter === undefined) break;
    waited += await waitUntil(now() + retryAfter * 1000, `the key's rate-limit window is spent (a GET answered 429, Retry-After ${retryAfter} s)`, o);
  }
  return waited;
}
