// Cleanup that never leaves data: what the run made is found by its name as well as by the ledger,
// and the last line tells soft-deleted, already deleted and left behind apart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { startReference, type RunningReference } from '../../reference/index.ts';
import { cleanup, describeCleanup } from '../../suite/run/ledger.ts';
import { conformance } from './run-cli.ts';
import { brokenEnvelopeFront, type Loopback } from './loopback.ts';
import { budget } from '../budget.ts';

const dir = mkdtempSync(join(tmpdir(), 'conformance-cleanup-'));
const KEY = 'mk_test_cleanup_key_000000000001';
let reference: RunningReference;
const open: Array<{ close(): Promise<unknown> }> = [];
beforeAll(async () => {
  reference = await startReference({ keys: [{ key: KEY, tenantId: 'cleanup', plan: 'enterprise', rpm: 1_000_000 }] });
});
afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
  await reference.close();
  rmSync(dir, { recursive: true, force: true });
});

const api = async (method: string, path: string, body?: unknown) => {
  const res = await request(reference.url + path, { method: method as 'GET', headers: { 'x-api-key': KEY, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  return { status: res.statusCode, body: (await res.body.json().catch(() => undefined)) as any };
};
/** Live worlds and personas whose text holds this mark. */
const holding = async (mark: string) => {
  const worlds = (await api('GET', '/worlds?limit=100')).body.result.worlds as unknown[];
  const personas = (await api('GET', '/personas?limit=100')).body.result.personas as unknown[];
  return [...worlds, ...personas].filter((x) => JSON.stringify(x).includes(mark));
};

describe('a deployment whose success envelope is broken', () => {
  it('holds no record with the run\'s name after the run, though the ledger could read no id', async () => {
    const broken: Loopback = await brokenEnvelopeFront(reference.url);
    open.push(broken);
    const r = await conformance(['--base-url', broken.url, '--api-key', KEY, '--only', 'worlds,personas', '--rpm', '0', '--report-dir', join(dir, 'broken')]);
    expect(r.code, r.stdout.slice(-2000) + r.stderr).toBe(1);
    const runId = /conformance run (\w+)/.exec(r.stdout)?.[1];
    expect(runId).toBeTruthy();
    expect(await holding(`cf-${runId}`)).toEqual([]);
    expect(r.stdout).toMatch(/cleanup: soft-deleted (\d+) of \1 resources the run created \(\1 found by the run's name in the lists, not in the ledger\); nothing left behind/);
  }, budget(90_000));
});

describe('the counts of a cleanup', () => {
  it('tell soft-deleted, already deleted by the checks, found by name only, and left behind apart', async () => {
    const runId = 'c1eaa0c1';
    const world = async (name: string) => (await api('POST', '/worlds', { definition: { identity: { name } }, entities: [{ name: 'mara', type: 'persona' }] })).body.result.worldId as string;
    const inLedger = await world(`cf-${runId} in the ledger`);
    const deletedByCheck = await world(`cf-${runId} deleted by a check`);
    const byNameOnly = await world(`cf-${runId} not in the ledger`);
    const refused = await world(`cf-${runId} whose delete is refused`);
    const persona = (await api('POST', '/personas', { config: { identity: { name: `cf-${runId} persona` } } })).body.result.personaId as string;
    const someoneElses = await world('a world of someone else');
    await api('DELETE', `/worlds/${deletedByCheck}`);
    // A front refusing to delete one world (and passing everything else).
    const server = createServer((req, res) => {
      if (req.method === 'DELETE' && req.url === `/worlds/${refused}`) { res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"code":"INTERNAL","message":"no"}}'); return; }
      const out = httpRequest(new URL(req.url!, reference.url), { method: req.method, headers: req.headers }, (a) => { res.writeHead(a.statusCode!, a.headers); a.pipe(res); });
      req.pipe(out);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    open.push({ close: () => new Promise((r) => server.close(r)) });
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const ledgerFile = join(dir, `.created-${runId}.jsonl`);
    writeFileSync(ledgerFile, [inLedger, deletedByCheck, refused].map((id) => JSON.stringify({ kind: 'world', id, baseUrl, runId })).join('\n') + '\n'
      + JSON.stringify({ kind: 'persona', id: persona, baseUrl, runId }) + '\n');

    const done = await cleanup({ baseUrl, apiKey: KEY, ledgerFile, timeoutMs: 5000, until: Date.now() + 30_000, runId, passes: 2 });
    expect({ created: done.created, deleted: done.deleted, already: done.alreadyDeleted, byName: done.foundByName, left: done.left.map((c) => c.id) })
      .toEqual({ created: 5, deleted: 3, already: 1, byName: 1, left: [refused] });
    // The world that would not go has lost its persona; the ledger keeps only it.
    expect(done.worldPersonasRemoved).toBe(1);
    expect(readFileSync(ledgerFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l).id)).toEqual([refused]);
    expect(describeCleanup(done, ledgerFile)).toMatch(new RegExp(`^soft-deleted 3 of 5 resources the run created \\(1 already deleted by its checks; 1 found by the run's name in the lists, not in the ledger\\); 1 left behind, listed in .*: world ${refused} \\(500\\); 1 personas removed from the worlds left behind$`));
    // Nothing of anyone else was touched.
    expect((await api('GET', `/worlds/${someoneElses}`)).status).toBe(200);
    expect((await api('GET', `/worlds/${byNameOnly}`)).status).toBeGreaterThanOrEqual(404);
    expect(existsSync(ledgerFile)).toBe(true);
  }, budget(60_000));
});
