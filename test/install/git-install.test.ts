// The README's install from a repository URL: `npm install -g --prefix DIR git+file://CLONE` (standing
// in for `github:your-org/…`), then the installed command run from there. A local install from the
// URL gets the same package (npm clones and packs it the same way, whatever the install's place): the
// installed package's files are compared with those of the tarball `npm pack` makes, which
// pack.test.ts installs locally and runs against a deployment.
//
// npm prepares a git dependency (clones it, runs `npm install` in the clone with its dev dependencies,
// then packs) when its package.json has any of the scripts below. In a global install that inner
// `npm install` inherits the global flag and replaces the very folder the outer one is extracting into:
// thousands of TAR_ENTRY_ERROR lines, then `spawn sh ENOENT` (npm/cli#6984). Without those scripts npm
// packs the clone as it is, in seconds.
//
// One install, from npm's cache (`npm ci` filled it), install scripts skipped as in pack.test.ts
// (better-sqlite3 would compile SQLite for minutes; its absence is tested there). Deadlines are
// generous: a busy machine only makes it slower.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budget } from '../budget.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The scripts that make npm prepare a git dependency (pacote's git fetcher) before packing it. */
const PREPARING_SCRIPTS = ['preinstall', 'install', 'postinstall', 'build', 'prepack', 'prepare'];

interface Run { code: number; stdout: string; stderr: string }
function run(file: string, args: string[], cwd: string): Promise<Run> {
  return new Promise((done) => {
    execFile(file, args, { cwd, timeout: budget(600_000), maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } }, (err, stdout, stderr) =>
      done({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }));
  });
}

const dir = mkdtempSync(join(tmpdir(), 'git-install-'));
const clone = join(dir, 'clone');
const url = `git+file://${clone}`;
const prefix = join(dir, 'global');
const bin = join(prefix, 'bin', 'simulation-conformance');
const installedPackage = join(prefix, 'lib', 'node_modules', 'simulation-conformance');
let installed: Run;

/** Every file under a folder, its own dependencies left out, as paths relative to it. */
const filesUnder = (root: string) => readdirSync(root, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile())
  .map((e) => relative(root, join(e.parentPath, e.name)))
  .filter((path) => !path.startsWith('node_modules'))
  .sort();

beforeAll(async () => {
  // The committed state, as a repository URL gives it.
  const cloned = await run('git', ['clone', '--quiet', ROOT, clone], dir);
  expect(cloned.code, cloned.stderr).toBe(0);
  installed = await run('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', url], dir);
}, budget(900_000));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('simulation-conformance installed from a repository URL', () => {
  it('has none of the scripts that make npm prepare a git dependency', () => {
    const scripts = JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')).scripts ?? {};
    expect(PREPARING_SCRIPTS.filter((name) => name in scripts)).toEqual([]);
  });

  it('installs globally, every file extracted, no dependency refusing this Node (EBADENGINE)', () => {
    expect(installed.code, installed.stderr.split('\n').filter((l) => /npm error/.test(l)).slice(0, 12).join('\n')).toBe(0);
    expect(installed.stderr).not.toMatch(/TAR_ENTRY_ERROR|ENOENT/);
    expect(installed.stderr.split('\n').filter((l) => /EBADENGINE\s+package:/.test(l))).toEqual([]);
  });

  it('runs from the global prefix: --help, and --list (the catalogue, its modules loaded, nothing sent)', async () => {
    const help = await run(bin, ['conformance', '--help'], dir);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain('Usage: simulation-conformance conformance');
    const list = await run(bin, ['conformance', '--list'], dir);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/\[AUTH-1\]/);
  }, budget(120_000));

  it('is the package `npm pack` makes (the one pack.test.ts installs locally and runs)', async () => {
    const packed = await run('npm', ['pack', '--dry-run', '--json'], clone);
    expect(packed.code, packed.stderr).toBe(0);
    const files = (JSON.parse(packed.stdout)[0].files as Array<{ path: string }>).map((f) => f.path).sort();
    expect(files).toContain('bin/simulation-conformance.js');
    expect(filesUnder(installedPackage)).toEqual(files);
  }, budget(120_000));
});
