// A path sent as written (Client `asIs`): a URL parser resolves dot segments before the request leaves
// (undici's request(), a browser, curl without --path-as-is), so a check whose subject is a dot segment
// (ERR-11) puts it on the request line itself; without the option the client sends what a parser makes.
import { afterAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../../suite/http/client.ts';
import { bundledContract, loadDocuments } from '../../suite/checks/documents.ts';

const dir = mkdtempSync(join(tmpdir(), 'conformance-as-is-'));
// Answers the request line's path, as the server received it.
const server = createServer((req, res) => { res.setHeader('content-type', 'application/json'); res.end(JSON.stringify({ result: { url: req.url } })); });
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
afterAll(async () => { await new Promise((r) => server.close(r)); rmSync(dir, { recursive: true, force: true }); });

const client = new Client({
  runId: 'as-is', areas: ['errors'], baseUrl: base, apiKey: 'mk_test_asis000000000000', plan: 'enterprise', planNamed: true, rateWindowMs: 60_000, paceRpm: 0, allowBillable: false, timeoutMs: 5_000,
  generated: 0, seed: 1, modelCommands: 0, ledgerFile: join(dir, 'ledger.jsonl'), servedDocument: bundledContract(), bundledDocument: bundledContract(), maxBodyBytes: 4 * 2 ** 20,
  stopFile: join(dir, 'stop'), deadlineAt: Date.now() + 60_000,
}, await loadDocuments(bundledContract(), bundledContract()));

describe('a path sent as written', () => {
  it('keeps its dot segments, encoded or not, under the base URL\'s own path; without asIs they are resolved', async () => {
    for (const path of ['/worlds/x-a/../x', '/worlds/x/%2e%2e/y', '/worlds/..%2Fx']) {
      expect((await client.raw('GET', path, { asIs: true })).body.result.url).toBe(`/api${path}`);
    }
    expect((await client.raw('GET', '/worlds/x-a/../x')).body.result.url).toBe('/api/worlds/x');
  });
});
