// A verdict that never lies: a target that is not the service is not "a broken deployment" (the run
// stops at its preflight, exit 2, one line), and a run that verified nothing is not a pass (exit 2).
import { afterAll, describe, expect, it } from 'vitest';
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
