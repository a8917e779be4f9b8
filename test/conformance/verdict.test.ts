// A verdict that never lies: a target that is not the service is not "a broken deployment" (the run
// stops at its preflight, exit 2, one line), a run that verified nothing is not a pass (exit 2), and a
// requirement one of whose checks could not look is "partly verified", never a pass (--require-verified
// fails the run on it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { startReference, type RunningReference } from '../../reference/index.ts';
import { startFaultProxy, type FaultProxy, type FaultRequest, type FaultResponse } from '../../suite/self-test/proxy.ts';
import { is } from '../../suite/self-test/hooks.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { conformance } from './run-cli.ts';
import { htmlServer, type Loopback } from './loopback.ts';
import { budget } from '../budget.ts';

const dir = mkdtempSync(join(tmpdir(), 'conformance-verdict-'));
const KEY = 'mk_test_verdict_key_000000000001';
const open: Array<{ close(): Promise<unknown> }> = [];
afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

describe('a target that does not answer like the service', () => {
  it('an HTML server: one line, exit 2, and no run', async () => {
    const html: Loopback = await htmlServer();
    open.push(html);
    const r = await conformance(['--base-url', html.url, '--api-key', KEY, '--report-dir', join(dir, 'html')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/does not answer like the Simulation Service, so nothing was checked: GET \/openapi\.json answered 200, text\/html.*"<!doctype html>/);
    expect(r.stdout).toBe('');
    expect(html.count.requests).toBe(2);
  }, budget(60_000));

  it('a server redirecting everything: one line naming where it redirects, exit 2', async () => {
    const server = createServer((req, res) => { res.writeHead(301, { location: `https://staging.example${req.url}` }).end(); });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    open.push({ close: () => new Promise((r) => server.close(r)) });
    const r = await conformance(['--base-url', `http://127.0.0.1:${(server.address() as AddressInfo).port}`, '--api-key', KEY, '--report-dir', join(dir, 'redirect')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('answered 301 redirecting to https://staging.example/openapi.json (not followed');
    expect(r.stderr).toContain('answered 301 redirecting to https://staging.example/worlds?limit=1');
  }, budget(60_000));
});

describe('a run that verified no MUST requirement', () => {
  it('is no pass: --only generated --generated 0 exits 2, saying why', async () => {
    const r = await conformance(['--only', 'generated', '--generated', '0', '--report-dir', join(dir, 'nothing')]);
    expect(r.code, r.stdout.slice(-2000) + r.stderr).toBe(2);
    const last = r.stdout.trim().split('\n').at(-1);
    expect(last).toMatch(/^NOTHING VERIFIED: no MUST requirement was checked, so this is no pass \(areas run: generated; their MUST checks did not verify: needs --generated above 0 \(\d checks?\)\); no verdict \(exit 2\)/);
  }, budget(90_000));
});

describe('a requirement one of whose checks could not look', () => {
  // A persona whose snapshot always shows the mood at rest (0, 0, 0: a legal value): the decay check
  // of PERS-5 cannot see the mood moved, so it cannot see a decay, and skips; the other check passes.
  let server: RunningReference;
  let proxy: FaultProxy;
  beforeAll(async () => {
    server = await startReference({ keys: [{ key: KEY, tenantId: 'tenant-verdict', plan: 'enterprise', rpm: 1_000_000 }] });
    const atRest = { response: (res: FaultResponse, req: FaultRequest) => {
      const result = (res.body as { result?: { mood?: unknown } } | undefined)?.result;
      if (is(req, 'getPersonaSnapshot') && result?.mood) result.mood = { V: 0, A: 0, D: 0 };
    } };
    proxy = await startFaultProxy(server.url, atRest, { keys: { mainKey: KEY } });
    open.push(proxy, server);
  });
  const run = (name: string, ...flags: string[]) => conformance(['--base-url', proxy.url, '--api-key', KEY, '--only', 'PERS-5', '--report-dir', join(dir, name), ...flags]);

  it('is partly verified, not a pass: the verdict counts it apart, the reports name the check and why', async () => {
    const r = await run('partial');
    expect(r.code, r.stdout.slice(-2000) + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Partly verified \(1\)[^\n]*\n\n {2}◐ PERS-5 \(MUST\)[^\n]*\n {4}[-○] personas: decays the mood toward where it rests and does not lower the body budget[^:\n]*: the mood could not be moved/);
    expect(r.stdout.trim().split('\n').at(-1)).toMatch(/^PASS: \d+ of \d+ MUST requirements verified and hold; 1 partly verified \(PERS-5\), (\d+ not run \([A-Z0-9, -]+\), )?\d+ not selected \(--only\)$/);
    const results = JSON.parse(readFileSync(join(dir, 'partial', 'results.json'), 'utf8'));
    const q = results.requirements.find((x: { id: string }) => x.id === 'PERS-5');
    expect(q.outcome).toBe('partial');
    expect(q.unverified).toEqual([expect.objectContaining({ check: expect.stringMatching(/^personas: decays the mood toward where it rests and does not lower the body budget/), outcome: expect.stringMatching(/^(skip|not-run)$/) })]);
  }, budget(90_000));

  it('fails the run with --require-verified (exit 1), saying which MUST was not fully verified', async () => {
    const r = await run('required', '--require-verified');
    expect(r.code, r.stdout.slice(-2000) + r.stderr).toBe(1);
    // With --only, the requirements judged on every response may see no answer of theirs (ENV-2: no error came): not verified either.
    expect(r.stdout.trim().split('\n').at(-1)).toMatch(/^FAIL: \d+ MUST requirements? not fully verified \(--require-verified\): 1 partly verified \(PERS-5\)(, \d+ not run \([A-Z0-9, -]+\))?$/);
    expect(readFileSync(join(dir, 'required', 'junit.xml'), 'utf8')).toMatch(/<testcase name="\[run\] every MUST requirement fully verified \(--require-verified\)"[^>]*>\s*<failure message="\d+ MUST requirement\(s\) not fully verified"/);
  }, budget(90_000));
});
