// A body over the limit always gets its 413 in the envelope, never a reset: the server used to
// answer at once and close the socket while the client was still sending, so some clients met EPIPE
// instead of the answer (issue 26). Also: the snapshot import takes 16 MiB, other bodies 1 MiB.
// The server runs in its own process (`npm run serve`), as in the issue: a client in the server's own
// event loop cannot be slower than the server, and the race needs one that is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SNAPSHOT_BODY_LIMIT } from '../../reference/server/limits.ts';
import { budget } from '../budget.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const KEY = 'mk_test_body_limit_0000000001';
const MiB = 1024 * 1024;
const dir = mkdtempSync(join(tmpdir(), 'body-limit-'));
let child: ChildProcess;
let base = '';

beforeAll(async () => {
  writeFileSync(join(dir, 'keys.json'), JSON.stringify([{ key: KEY, tenantId: 't', plan: 'enterprise', rpm: 1_000_000 }]));
  child = spawn(process.execPath, ['--import', 'tsx', 'cli/serve.ts', '--port', '0', '--keys', join(dir, 'keys.json')], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  await new Promise<void>((ready, fail) => {
    child.stdout!.on('data', (d) => { out += d; if (/OpenAPI: /.test(out)) ready(); });
    child.on('exit', () => fail(new Error(`serve exited: ${out}`)));
  });
  base = /listening on (http\S+)/.exec(out)![1];
}, budget(30_000));
afterAll(() => {
  child?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

type Answer = { status: number; code?: string; text: string };

/** node:http, as most clients send: the whole body handed over at once, then the answer read; a reset is an error. */
function send(method: 'POST' | 'PUT' | 'GET', path: string, body?: Buffer, chunked = false): Promise<Answer> {
  return new Promise((resolve) => {
    const url = new URL(base + path);
    const headers: Record<string, string | number> = { 'x-api-key': KEY };
    if (body) headers['content-type'] = 'application/json';
    if (body && !chunked) headers['content-length'] = body.length;
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { text += d; });
      res.on('end', () => {
        let code: string | undefined;
        try { code = (JSON.parse(text) as { error?: { code?: string } }).error?.code; } catch { code = 'not JSON'; }
        resolve({ status: res.statusCode ?? 0, code, text });
      });
      res.on('error', (err: NodeJS.ErrnoException) => resolve({ status: 0, code: err.code ?? String(err), text: '' }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ status: 0, code: err.code ?? String(err), text: '' }));
    req.end(body);
  });
}

/** A JSON body of about `bytes` under `member`. */
const bodyOf = (bytes: number, member: string, inner: object = {}) => Buffer.from(JSON.stringify({ [member]: { ...inner, pad: 'p'.repeat(bytes) } }));

describe('a body over the limit', () => {
  it('the snapshot import takes up to 16 MiB, other operations 1 MiB', async () => {
    const created = await send('POST', '/worlds', Buffer.from(JSON.stringify({ definition: { identity: { name: 'w' }, rules: { physics: {} } } })));
    const id = (JSON.parse(created.text) as { result: { worldId: string } }).result.worldId;
    // 2 MiB: over the limit of other bodies, within the import's, so it reaches validation (pad is not a member).
    const two = await send('PUT', `/worlds/${id}/snapshot`, bodyOf(2 * MiB, 'snapshot', { id }));
    expect(two.status).toBe(400);
    expect(two.code).toBe('VALIDATION_ERROR');
    expect(await send('POST', '/worlds', bodyOf(2 * MiB, 'definition'))).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    expect(await send('PUT', `/worlds/${id}/snapshot`, bodyOf(SNAPSHOT_BODY_LIMIT, 'snapshot', { id }))).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
  }, budget(30_000));

  it('gets 413 in the envelope under concurrent load, with and without Content-Length, never a reset', async () => {
    const created = await send('POST', '/worlds', Buffer.from(JSON.stringify({ definition: { identity: { name: 'w' }, rules: { physics: {} } } })));
    const id = (JSON.parse(created.text) as { result: { worldId: string } }).result.worldId;
    const big = bodyOf(20 * MiB, 'snapshot', { id });
    const answers: Answer[] = [];
    for (let round = 0; round < 6; round++) {
      const sent = Array.from({ length: 12 }, (_, i) => (i % 2
        ? send('POST', '/worlds', big, i % 4 === 1)
        : send('PUT', `/worlds/${id}/snapshot`, big, i % 4 === 0)));
      // A busy client: it reads the answers late, as a loaded one does; a server that closes the
      // socket on it meanwhile resets the connection before the answer is read.
      const until = Date.now() + 30;
      while (Date.now() < until) { /* busy */ }
      answers.push(...await Promise.all(sent));
    }
    const wrong = answers.filter((a) => a.status !== 413 || a.code !== 'PAYLOAD_TOO_LARGE').map((a) => `${a.status} ${a.code}`);
    expect(wrong).toEqual([]);
    expect((await send('GET', `/worlds/${id}`)).status).toBe(200); // and the server is fine afterwards
  }, budget(120_000));
});
