// `npm run serve` as a user meets it: a bad start is one line on stderr and exit 2; --log writes one
// JSON line per request.
import { describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { request } from 'undici';
import { fileURLToPath } from 'node:url';
import { budget } from '../budget.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const serve = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'cli/serve.ts', ...args], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8', timeout: budget(30_000) });

describe('npm run serve', () => {
  for (const [label, args, env, pattern] of [
    ['an unknown flag', ['--bogus'], {}, /Unknown option '--bogus'/],
    ['a port that is not a number', ['--port', 'abc'], {}, /--port: expected a whole number/],
    ['a missing key file', ['--keys', 'no-such-keys.json'], {}, /no-such-keys\.json: cannot read the key file/],
    ['a bad environment twin', [], { SERVE_PORT: 'soon' }, /SERVE_PORT: expected a whole number/],
  ] as const) {
    it(`refuses ${label} in one line with exit 2`, () => {
      const run = serve([...args], { ...env });
      expect(run.status, run.stderr).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(pattern);
    });
  }

  it('logs one JSON line per request with --log', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'cli/serve.ts', '--port', '0', '--log'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    try {
      await new Promise<void>((ready, fail) => {
        child.stdout.on('data', () => { if (/listening on http/.test(out)) ready(); });
        child.on('exit', () => fail(new Error(`serve exited: ${out}`)));
      });
      const url = /listening on (http\S+)/.exec(out)![1];
      for (const path of ['/openapi.json', '/worlds']) await (await request(url + path)).body.dump();
      await new Promise((r) => setTimeout(r, 300));
      // Every line about a request carries its reqId; the line saying where it listens does not.
      const logged = out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)).filter((l) => l.reqId !== undefined);
      expect(logged.map((l) => `${l.method} ${l.url} ${l.statusCode}`)).toEqual(['GET /openapi.json 200', 'GET /worlds 401']);
    } finally {
      child.kill('SIGTERM');
    }
  }, budget(30_000));

  it('lists every option with its environment twin in --help', () => {
    const run = serve(['--help']);
    expect(run.status).toBe(0);
    for (const flag of ['--port', '--host', '--keys', '--db', '--rate-window-ms', '--log']) expect(run.stdout).toContain(flag);
    expect(run.stdout).toContain('SERVE_DB');
  });
});
