// Durability of the SQLite store: every write answered 2xx survives kill -9 and a restart of
// `npm run serve -- --db FILE`, a real child process.
import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';

const dir = mkdtempSync(join(tmpdir(), 'ref-persist-'));
const db = join(dir, 'data.sqlite');
const keys = join(dir, 'keys.json');
const KEY = 'mk_test_persistence_key_000001';
writeFileSync(keys, JSON.stringify([{ key: KEY, tenantId: 'p', plan: 'enterprise', rpm: 1_000_000 }]));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function serve(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/serve.ts', '--port', '0', '--db', db, '--keys', keys], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve({ child, url: match[1] });
    });
    child.stderr!.on('data', (chunk) => { out += chunk; });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
}

async function call(url: string, method: string, path: string, body?: unknown) {
  const res = await request(url + path, {
    method: method as 'GET', headers: { 'x-api-key': KEY, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.statusCode, body: await res.body.json() as any };
}

describe('SQLite persistence across kill -9', () => {
  it('keeps every acknowledged write', async () => {
    const first = await serve();
    const acknowledged: string[] = [];
    let killed = false;
    // Writes keep coming while the process is killed: only those answered 2xx must survive. Counted,
    // not timed: a busy machine only makes the test slower.
    const writer = (async () => {
      while (!killed) {
        try {
          const r = await call(first.url, 'POST', '/worlds', { definition: { identity: { name: `w${acknowledged.length}` } }, entities: [{ name: 'a', type: 'persona' }] });
          if (r.status === 201) acknowledged.push(r.body.result.worldId);
        } catch { return; }
      }
    })();
    while (acknowledged.length < 6) await new Promise((r) => setTimeout(r, 20));
    const world = acknowledged[0];
    const chat = await call(first.url, 'POST', `/worlds/${world}/events`, { type: 'thunder', targetEntity: 'a' });
    expect(chat.status).toBe(200);
    // Two more writes after the event, so the kill lands while writes are under way.
    const before = acknowledged.length;
    while (acknowledged.length < before + 2) await new Promise((r) => setTimeout(r, 5));
    first.child.kill('SIGKILL');
    killed = true;
    await writer;
    expect(acknowledged.length).toBeGreaterThan(5);

    const second = await serve();
    try {
      for (const id of acknowledged) expect((await call(second.url, 'GET', `/worlds/${id}`)).status, id).toBe(200);
      const query = await call(second.url, 'POST', `/worlds/${world}/query`, {});
      expect(query.body.result.progression.eventCounts.thunder).toBe(1);
      const log = await call(second.url, 'GET', `/worlds/${world}/events`);
      expect(log.body.result.events.map((e: { type: string }) => e.type)).toEqual(['thunder']);
    } finally {
      second.child.kill('SIGKILL');
    }
  });
});
