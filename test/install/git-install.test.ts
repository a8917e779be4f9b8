// The README's install from a repository URL: `npm install -g --prefix DIR git+file://CLONE` (standing
// in for `github:your-org/…`), then the installed command run from there. The local install from a
// repository URL gets the same package (npm clones and packs it the same way, whatever the install's
// place): that package is compared with the tarball `npm pack` makes, which pack.test.ts installs
// locally and runs.
//
// npm prepares a git dependency (clones it, runs `npm install` in the clone with its dev dependencies,
// then packs) when its package.json has any of the scripts below. In a global install that inner
// `npm install` inherits the global flag and replaces the very folder the outer one is extracting into:
// thousands of TAR_ENTRY_ERROR lines, then `spawn sh ENOENT` (npm/cli#6984). Without those scripts npm
// packs the clone as it is, in seconds.
//
// Cheap enough for `npm test`: one install, from npm's cache (`npm ci` filled it), install scripts
// skipped as in pack.test.ts (better-sqlite3 would compile SQLite for minutes; its absence is tested
// there). Deadlines are generous: a busy machine only makes it slower.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/index.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const KEY = 'mk_test_git_install_main_key_00001';
/** The scripts that make npm prepare a git dependency (pacote's git fetcher) before packing it. */
const PREPARING_SCRIPTS = ['preinstall', 'install', 'postinstall', 'build', 'prepack', 'prepare'];

interface Run { code: number; stdout: string; stderr: string }
function run(file: string, args: string[], cwd: string): Promise<Run> {
  return new Promise((done) => {
    execFile(file, args, { cwd, timeout: 600_000, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } }, (err, stdout, stderr) =>
      done({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }));
  });
}

const dir = mkdtempSync(join(tmpdir(), 'git-install-'));
const clone = join(dir, 'clone');
const url = `git+file://${clone}`;
const prefix = join(dir, 'global');
const bin = join(prefix, 'bin', 'simulation-conformance');
let installed: Run;
let server: RunningReference;

/** The files of a package as `npm pack --json` lists them. */
async function packedFiles(args: string[], cwd: string): Promise<string[]> {
  const packed = await run('npm', ['pack', '--dry-run', '--json', ...args], cwd);
  expect(packed.code, packed.stderr).toBe(0);
  return (JSON.parse(packed.stdout)[0].files as Array<{ path: string }>).map((f) => f.path).sort();
}

beforeAll(async () => {
  // The committed state, as a repository URL gives it.
  const cloned = await run('git', ['clone', '--quiet', ROOT, clone], dir);
  expect(cloned.code, cloned.stderr).toBe(0);
  installed = await run('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', url], dir);
  server = await startReference({ keys: [{ key: KEY, tenantId: 'git', plan: 'enterprise', rpm: 1_000_000 }] });
}, 900_000);

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('simulation-conformance installed from a repository URL', () => {
  it('has none of the scripts that make npm prepare a git dependency', () => {
    const scripts = JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')).scripts ?? {};
    expect(PREPARING_SCRIPTS.filter((name) => name in scripts)).toEqual([]);
  });

  it('installs globally, every file extracted', () => {
    expect(installed.code, installed.stderr.split('\n').filter((l) => /npm error/.test(l)).slice(0, 12).join('\n')).toBe(0);
    expect(installed.stderr).not.toMatch(/TAR_ENTRY_ERROR|ENOENT/);
  });

  it('runs from the global prefix: --help, and a check of a deployment given by --base-url', async () => {
    const help = await run(bin, ['conformance', '--help'], dir);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain('Usage: simulation-conformance conformance');
    const r = await run(bin, ['conformance', '--base-url', server.url, '--api-key', KEY, '--only', 'AUTH-1', '--report-dir', join(dir, 'reports')], dir);
    expect(r.code, r.stdout.slice(-2000) + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/✓ auth: \[AUTH-1\]/);
  }, 120_000);

  it('is, from the URL, the package `npm pack` makes (the one pack.test.ts installs locally)', async () => {
    const fromUrl = await packedFiles([url], dir);
    expect(fromUrl).toContain('bin/simulation-conformance.js');
    expect(fromUrl).toEqual(await packedFiles([], clone));
  }, 600_000);
});
