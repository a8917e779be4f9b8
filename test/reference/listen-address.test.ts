// The start-up line and `server.url` name the address the server really listens on: a client given
// that URL connects, IPv6 included (`npm run serve -- --host ::1` once printed 127.0.0.1).
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { networkInterfaces } from 'node:os';
import { listeningUrl, startReference } from '../../reference/index.ts';
import { budget } from '../budget.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const hasIpv6Loopback = Object.values(networkInterfaces()).flat().some((i) => i?.family === 'IPv6' && i.internal);

describe('the address the reference listens on', () => {
  it('brackets an IPv6 address and gives a loopback for a wildcard bind', () => {
    expect(listeningUrl({ address: '::1', family: 'IPv6', port: 8080 })).toBe('http://[::1]:8080');
    expect(listeningUrl({ address: '::', family: 'IPv6', port: 1 })).toBe('http://[::1]:1');
    expect(listeningUrl({ address: '0.0.0.0', family: 'IPv4', port: 2 })).toBe('http://127.0.0.1:2');
    expect(listeningUrl({ address: '127.0.0.1', family: 'IPv4', port: 3 })).toBe('http://127.0.0.1:3');
  });

  it.runIf(hasIpv6Loopback)('serves at the URL it gives when bound to ::1', async () => {
    const server = await startReference({ host: '::1' });
    try {
      expect(server.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
      const res = await request(`${server.url}/openapi.json`);
      await res.body.dump();
      expect(res.statusCode).toBe(200);
    } finally {
      await server.close();
    }
  });

  it.runIf(hasIpv6Loopback)('npm run serve -- --host ::1 --port 0 prints an address that answers', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'cli/serve.ts', '--host', '::1', '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    try {
      await new Promise<void>((ready, fail) => {
        child.stdout.on('data', () => { if (/OpenAPI: /.test(out)) ready(); });
        child.on('exit', () => fail(new Error(`serve exited: ${out}`)));
      });
      const url = /listening on (http\S+)/.exec(out)![1];
      expect(url).toMatch(/^http:\/\/\[::1\]:\d+$/);
      const res = await request(`${url}/openapi.json`);
      await res.body.dump();
      expect(res.statusCode).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
  }, budget(30_000));
});
