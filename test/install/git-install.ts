// The README's install from a repository, as a user runs it: `npm install -g --prefix DIR git+file://CLONE`
// (standing in for `github:your-org/…`) and a local `npm install git+file://CLONE` in an empty folder,
// each then answering `conformance --help` and checking the embedded reference's auth area. It prints
// the time and size of each install. Not part of `npm test`: npm clones the repository, installs its
// dev dependencies to pack it, then installs the package, minutes on a 2-core machine. Run it on its own:
//   npx tsx test/install/git-install.ts            (exit 0: both installs work; 1: one failed)
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'git-install-'));
const clone = join(dir, 'clone');
// The committed state, as a repository URL would give it: a clone of HEAD.
execFileSync('git', ['clone', '--quiet', ROOT, clone]);
const url = `git+file://${clone}`;

const sizeMb = (path: string) => Number(execFileSync('du', ['-sm', path], { encoding: 'utf8' }).split('\t')[0]);

function attempt(label: string, args: string[], cwd: string, bin: string, installed: string): boolean {
  const started = Date.now();
  const r = spawnSync('npm', [...args, '--prefer-offline', '--no-audit', '--no-fund', url], { cwd, encoding: 'utf8', maxBuffer: 256 * 2 ** 20 });
  const seconds = Math.round((Date.now() - started) / 1000);
  const tarErrors = (r.stderr.match(/TAR_ENTRY_ERROR/g) ?? []).length;
  if (r.status !== 0) {
    console.log(`✗ ${label}: exit ${r.status} after ${seconds} s (${tarErrors} TAR_ENTRY_ERROR)\n${r.stderr.split('\n').filter((l) => /npm error/.test(l)).slice(0, 8).join('\n')}`);
    return false;
  }
  const help = spawnSync(bin, ['conformance', '--help'], { cwd, encoding: 'utf8' });
  const run = spawnSync(bin, ['conformance', '--only', 'auth', '--no-color', '--report-dir', join(dir, `${label}-reports`)], { cwd, encoding: 'utf8', timeout: 300_000 });
  const ok = help.status === 0 && run.status === 0;
  console.log(`${ok ? '✓' : '✗'} ${label}: installed in ${seconds} s, ${sizeMb(installed)} MB; conformance --help exit ${help.status}, conformance --only auth exit ${run.status}${ok ? '' : `\n${run.stdout.slice(-1500)}${run.stderr}`}`);
  return ok;
}

try {
  const prefix = join(dir, 'global');
  const global = attempt('global', ['install', '-g', '--prefix', prefix], dir, join(prefix, 'bin', 'simulation-conformance'), join(prefix, 'lib', 'node_modules'));
  const app = join(dir, 'app');
  execFileSync('mkdir', [app]);
  writeFileSync(join(app, 'package.json'), '{ "private": true }\n');
  const local = attempt('local', ['install'], app, join(app, 'node_modules', '.bin', 'simulation-conformance'), join(app, 'node_modules'));
  process.exitCode = global && local ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
