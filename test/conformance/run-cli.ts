// Runs `npm run conformance` as a user would (a child process), capturing output and exit status.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface CliRun { code: number | null; stdout: string; stderr: string; child: ChildProcess }

export function conformance(args: string[], opts: { env?: Record<string, string>; onStdout?: (text: string, child: ChildProcess) => void; onStart?: (child: ChildProcess) => void } = {}): Promise<CliRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/conformance.ts', '--no-color', ...args], {
    cwd: ROOT, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  opts.onStart?.(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => { stdout += d; opts.onStdout?.(stdout, child); });
  child.stderr!.on('data', (d) => { stderr += d; });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr, child })));
}
