// The conformance command sets what keeps its process tree small before it loads anything large
// (cli/common/memory.ts; the figures are bench/memory.ts's). The allocator of vite's bundler reads its
// option when its library loads: a command that loaded vitest first would leave it at its default,
// which the allocator of a real run, asked to report its options, tells. Through `npm run`, the
// command is npm's only child node: tsx's launcher process held another 46 MB.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { watchTree } from '../tree-rss.ts';
import { budget } from '../budget.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'memory-settings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `conformance --list` (it loads vitest to read the checks; nothing is sent) with the allocator reporting its options. */
function listRun(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  const { MIMALLOC_ARENA_EAGER_COMMIT: _, ...rest } = process.env;
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/simulation-conformance.js', 'conformance', '--list', '--no-color', '--report-dir', dir], { cwd: ROOT, env: { ...rest, ...env, MIMALLOC_VERBOSE: '1' }, timeout: budget(60_000) },
      (err, _stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stderr }));
  });
}

describe('the conformance command\'s memory settings', () => {
  it('reach rolldown\'s allocator: it commits its arenas as it uses them, not at once', async () => {
    const r = await listRun({});
    expect(r.code, r.stderr.slice(-500)).toBe(0);
    expect(r.stderr).toMatch(/option 'arena_eager_commit': 0\b/);
  });

  it('keep a value the user set', async () => {
    const r = await listRun({ MIMALLOC_ARENA_EAGER_COMMIT: '1' });
    expect(r.code, r.stderr.slice(-500)).toBe(0);
    expect(r.stderr).toMatch(/option 'arena_eager_commit': 1\b/);
  });
});

describe('npm run conformance', () => {
  it('is npm and the command: no launcher process between them (tsx\'s held about 46 MB)', async () => {
    const child = spawn('npm', ['run', 'conformance', '--', '--list', '--no-color', '--report-dir', dir], { cwd: ROOT, stdio: 'ignore' });
    const tree = watchTree(child.pid!, 20);
    const code = await new Promise((resolve) => child.on('exit', resolve));
    const seen = tree.stop().processes.map((p) => p.command);
    expect(code).toBe(0);
    expect(seen.filter((c) => /cli\/conformance\.ts/.test(c)), seen.join('\n')).toHaveLength(1);
    expect(seen.filter((c) => /\.bin\/tsx|tsx\/dist\/cli|preflight\.cjs/.test(c)), seen.join('\n')).toEqual([]);
  });
});
