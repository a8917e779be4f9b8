// The command as someone who never cloned the repository gets it: `npm pack`, the tarball installed
// in an empty folder, and the installed `simulation-conformance` run from there: `conformance`
// against a deployment given by --base-url, and `load` on the Node runner. What the package lacks
// (a file left out of "files", a run-time dependency kept in devDependencies) fails here.
//
// The install takes what the project's own `npm ci` already cached, and skips install scripts:
// better-sqlite3, the reference's SQLite store, is an optional dependency (only `serve --db` loads it)
// and would compile SQLite for minutes. Every command must work without it, and `serve --db` must say
// in one line what it lacks: installed without its native part (as here), or absent (as npm leaves it
// when its build fails, an optional dependency's failure).
// The same package installed globally from a repository URL: git-install.test.ts.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/index.ts';
import { budget } from '../budget.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const KEY = 'mk_test_pack_main_key_00000000001';

interface Run { code: number; stdout: string; stderr: string }
function run(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((done) => {
    execFile(file, args, { cwd, timeout: budget(120_000), maxBuffer: 32 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1', ...env } }, (err, stdout, stderr) =>
      done({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }));
  });
}

// Outside the repository, so that nothing resolves from the project's own node_modules.
const dir = mkdtempSync(join(tmpdir(), 'pack-install-'));
const app = join(dir, 'app');
const bin = join(app, 'node_modules', '.bin', 'simulation-conformance');
let server: RunningReference;

beforeAll(async () => {
  const packed = await run('npm', ['pack', '--pack-destination', dir], ROOT);
  expect(packed.code, packed.stderr).toBe(0);
  const tarball = join(dir, packed.stdout.trim().split('\n').pop()!);
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), '{ "private": true }\n');
  const installed = await run('npm', ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', tarball], app);
  expect(installed.code, installed.stderr).toBe(0);
  server = await startReference({ keys: [{ key: KEY, tenantId: 'pack', plan: 'enterprise', rpm: 1_000_000 }] });
}, budget(180_000));

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the installed simulation-conformance', () => {
  it('holds its command and none of the project\'s own tests', () => {
    const pkg = join(app, 'node_modules', 'simulation-conformance');
    expect(existsSync(bin)).toBe(true);
    expect(existsSync(join(pkg, 'scenarios', 'worlds.test.ts'))).toBe(true);
    expect(existsSync(join(pkg, 'test'))).toBe(false);
    // Run-time dependencies only: the project's test tools are not installed with it, and SQLite is optional.
    expect(existsSync(join(app, 'node_modules', 'typescript'))).toBe(false);
    const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8'));
    expect(lock.packages['node_modules/better-sqlite3']?.optional).toBe(true);
  });

  it('says in one line that serve --db needs the optional better-sqlite3, built or at all', async () => {
    for (const state of ['not built', 'absent']) {
      if (state === 'absent') rmSync(join(app, 'node_modules', 'better-sqlite3'), { recursive: true, force: true });
      const r = await run(bin, ['serve', '--port', '0', '--db', join(app, 'data.sqlite')], app);
      expect(r.code, `${state}: ${r.stdout}${r.stderr}`).toBe(2);
      expect(r.stderr.trim().split('\n'), state).toHaveLength(1);
      expect(r.stderr, state).toMatch(/--db needs the optional package better-sqlite3, which is not installed here/);
    }
  }, budget(60_000));

  it('names its commands, and each answers --help', async () => {
    const top = await run(bin, ['--help'], app);
    expect(top.code).toBe(0);
    expect(top.stdout).toMatch(/conformance[\s\S]*load[\s\S]*serve/);
    for (const command of ['conformance', 'load', 'serve']) {
      const help = await run(bin, [command, '--help'], app);
      expect(help.code, help.stderr).toBe(0);
      expect(help.stdout).toContain(`Usage: simulation-conformance ${command}`);
    }
  }, budget(60_000));

  it('checks a deployment given by --base-url and writes its reports', async () => {
    const reports = join(app, 'reports');
    const r = await run(bin, ['conformance', '--base-url', server.url, '--api-key', KEY, '--only', 'openapi,AUTH-1', '--report-dir', reports], app);
    expect(r.code, r.stdout.slice(-2000) + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/✓ auth: \[AUTH-1\]/);
    expect(r.stdout).toMatch(/PASS/);
    const junit = readFileSync(join(reports, 'junit.xml'), 'utf8');
    expect(junit).toContain('[AUTH-1]');
    // The package's folder stays as installed: vitest writes no cache beside the scenarios.
    expect(existsSync(join(app, 'node_modules', 'simulation-conformance', 'node_modules', '.vite'))).toBe(false);
  }, budget(120_000));

  it('loads the embedded reference on the Node runner', async () => {
    // Latency bounds out of reach: this proves the installed runner works, not this machine's speed
    // (a busy machine's p95 passed 250 ms and failed the verdict by timing alone).
    const r = await run(bin, ['load', '--tier', 'free', '--duration', '2s', '--window-ms', '1000', '--engine', 'node', '--p95-ms', '60000', '--p99-ms', '60000', '--report-dir', join(app, 'reports')], app);
    expect(r.code, r.stdout.slice(-2000) + r.stderr).toBe(0);
    expect(r.stdout).toContain('verdict: PASS');
    expect(existsSync(join(app, 'reports', 'load-free.json'))).toBe(true);
  }, budget(120_000));
});
