// Runs `npm run conformance` as a user would (a child process), capturing output and exit status.
// A run given no --report-dir writes into a temporary folder of its own, removed when it exits: a
// test never writes into the clone's reports/ (a refused start writes its junit.xml there too).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface CliRun { code: number | null; stdout: string; stderr: string; child: ChildProcess }

export function conformance(args: string[], opts: { env?: Record<string, string>; onStdout?: (text: string, child: ChildProcess) => void; onStart?: (child: ChildProcess) => void } = {}): Promise<CliRun> {
  const env = { ...process.env, ...opts.env };
  const own = args.includes('--report-dir') || env.CONFORMANCE_REPORT_DIR ? undefined : mkdtempSync(join(tmpdir(), 'conformance-reports-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/conformance.ts', '--no-color', ...args], {
    cwd: ROOT, env: own ? { ...env, CONFORMANCE_REPORT_DIR: own } : env, stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (own) child.on('exit', () => rmSync(own, { recursive: true, force: true }));
  opts.onStart?.(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => { stdout += d; opts.onStdout?.(stdout, child); });
  child.stderr!.on('data', (d) => { stderr += d; });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr, child })));
}
