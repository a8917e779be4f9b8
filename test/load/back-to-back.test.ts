// Two load runs of one key, back to back, against one deployment (a release pipeline that loads in
// two stages, or retries): the second starts while the first one's requests still count in the
// limiter's window. It waits for a fresh window, saying so, and is never failed for the first
// run's requests (issue 34: "429s began at 42% of the limit" for `--duration 30s` twice within a
// minute; that case itself takes minutes, see load/README.md, so here the wait is checked on runs
// under the limit, and its timing on a fake clock). A key whose window is spent right now (a 429
// answers a GET) waits for its Retry-After.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startReference, type RunningReference } from '../../reference/index.ts';
import { awaitOwnWindow, awaitSpentWindow, keyId, lastUse } from '../../load/fresh-window.ts';
import { main } from '../../cli/load.ts';
import type { LoadSummary } from '../../load/model/summary.ts';
import { budget } from '../budget.ts';

const reports = mkdtempSync(join(tmpdir(), 'load-b2b-'));
const KEY = 'mk_test_back_to_back_free_00001';
const SPENT = 'mk_test_back_to_back_spent_0001';
/** The reference's window: longer than a run, so the first run's requests are all in the second's first window. */
const WINDOW_MS = 5000;
let server: RunningReference;
beforeAll(async () => {
  server = await startReference({ keys: [{ key: KEY, tenantId: 'b2b', plan: 'free' }, { key: SPENT, tenantId: 'b2b-2', plan: 'free' }], rateLimitWindowMs: WINDOW_MS });
});
afterAll(async () => {
  await server?.close();
  rmSync(reports, { recursive: true, force: true });
});

interface Run { code: number; stdout: string; stderr: string }
/** The CLI in this process (no start-up between the runs but its own), its output captured. */
async function load(args: string[]): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((t) => (out.push(String(t)), true));
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((t) => (err.push(String(t)), true));
  try {
    const code = await main(args, { PATH: '/nonexistent', LOAD_REPORT_DIR: reports });
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

describe('two load runs of one key, back to back', () => {
  it('the second waits for a fresh window and passes', async () => {
    // Under the limit all along (to 90%): no 429 in either run, whatever the windows.
    const args = ['--tier', 'free', '--engine', 'node', '--base-url', server.url, '--api-key', KEY, '--window-ms', String(WINDOW_MS),
      '--duration', '2s', '--ramp-to', '0.9', '--p95-ms', '5000', '--p99-ms', '5000'];
    const first = await load(args);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const last = Date.parse((JSON.parse(readFileSync(join(reports, 'load-free.json'), 'utf8')) as LoadSummary).keyUse!.lastRequestAt);
    const startedAt = Date.now();
    const second = await load(args);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(second.stdout).toContain('429s: none up to 90% of the limit');
    // In this process the second run starts within the window (were the machine to stall a whole window, there is nothing to wait for).
    if (last + WINDOW_MS > startedAt + 200) {
      expect(second.stderr).toMatch(/the previous run of this key \(.*load-free\.json\) sent its last request \d+ s ago, and its requests still count in the deployment's 5 s rate-limit window; waiting \d+ s for a fresh window/);
    }
  }, budget(120_000));

  it('waits out a spent window (a GET answered 429) for its Retry-After, counting down', async () => {
    // Spend the key's window now.
    for (let i = 0; i < 101; i++) await fetch(`${server.url}/worlds?limit=1`, { headers: { 'x-api-key': SPENT } }).then((r) => r.body?.cancel());
    const lines: string[] = [];
    const started = Date.now();
    const waited = await awaitSpentWindow({ baseUrl: server.url, apiKey: SPENT, timeoutMs: 5000, tty: false, write: (t) => lines.push(t) });
    expect(waited).toBeGreaterThan(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(waited - 50);
    expect(lines[0]).toMatch(/the key's rate-limit window is spent \(a GET answered 429, Retry-After \d s\); waiting \d s for a fresh window/);
    expect((await fetch(`${server.url}/worlds?limit=1`, { headers: { 'x-api-key': SPENT } })).status).toBe(200);
  }, budget(30_000));

  it('waits until one window after the previous run\'s last request, counting down in a log every ten seconds', async () => {
    const reportFile = join(reports, 'load-fake.json');
    let now = Date.parse('2026-01-01T00:00:30Z');
    writeFileSync(reportFile, JSON.stringify({ keyUse: { id: keyId('http://x', 'k'), lastRequestAt: '2026-01-01T00:00:05Z' } }));
    const lines: string[] = [];
    const clock = { now: () => now, sleep: async (ms: number) => { now += ms; }, tty: false, write: (t: string) => lines.push(t) };
    const waited = await awaitOwnWindow({ ...clock, reportFile, baseUrl: 'http://x', apiKey: 'k', windowMs: 60_000 });
    expect(waited).toBe(35_000);
    expect(now).toBe(Date.parse('2026-01-01T00:01:05Z'));
    expect(lines).toEqual([
      `load: the previous run of this key (${reportFile}) sent its last request 25 s ago, and its requests still count in the deployment's 60 s rate-limit window; waiting 35 s for a fresh window (Ctrl-C to give up)\n`,
      'load: fresh window in 30 s\n', 'load: fresh window in 20 s\n', 'load: fresh window in 10 s\n',
    ]);
    // Another key, or the window already over: no wait.
    expect(await awaitOwnWindow({ ...clock, reportFile, baseUrl: 'http://x', apiKey: 'other', windowMs: 60_000 })).toBe(0);
    expect(await awaitOwnWindow({ ...clock, reportFile, baseUrl: 'http://x', apiKey: 'k', windowMs: 60_000 })).toBe(0);
  });

  it('knows a run by its key and deployment only', () => {
    expect(keyId(server.url, KEY)).toBe(keyId(`${server.url}/`, KEY));
    expect(keyId(server.url, KEY)).not.toBe(keyId(server.url, SPENT));
    expect(keyId(server.url, KEY)).not.toContain(KEY.slice(8));
    expect(lastUse(join(reports, 'load-free.json'), keyId(server.url, SPENT))).toBeUndefined();
    expect(lastUse(join(reports, 'load-free.json'), keyId(server.url, KEY))).toBeGreaterThan(Date.now() - 60_000);
  });
});
