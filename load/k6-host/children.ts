// The k6 processes a run started, so that the command never leaves one running: each in a
// process group of its own (a Ctrl-C at the terminal reaches the command alone, which passes it on
// exactly once: k6 takes a second signal as "leave at once", without its summary), signalled once
// each, and killed if the command exits while one still runs.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import type { ProcessEnd } from './exit.ts';

export interface Tracked { child: ChildProcess; end: Promise<ProcessEnd>; signalled?: NodeJS.Signals }

const live = new Set<Tracked>();
let hooked = false;

export function spawnTracked(file: string, args: string[], options: SpawnOptions): Tracked {
  if (!hooked) {
    hooked = true;
    // Synchronous, as 'exit' handlers must be: whatever still runs is killed.
    process.on('exit', () => { for (const t of live) t.child.kill('SIGKILL'); });
  }
  const child = spawn(file, args, { ...options, detached: true });
  const t: Tracked = { child, end: undefined as unknown as Promise<ProcessEnd> };
  t.end = new Promise<ProcessEnd>((done, fail) => {
    child.on('error', (err) => { live.delete(t); fail(err); });
    child.on('exit', (code, signal) => { live.delete(t); done({ code, signal }); });
  });
  live.add(t);
  return t;
}

/** Signals a process once (a second SIGINT or SIGTERM would make k6 leave without its summary); SIGKILL always goes. */
export function signalOnce(t: Tracked, signal: NodeJS.Signals): void {
  if (t.child.exitCode !== null || t.child.signalCode !== null) return;
  if (t.signalled && signal !== 'SIGKILL') return;
  t.signalled = signal;
  t.child.kill(signal);
}

/** Every k6 process of the run still running. */
export const running = (): Tracked[] => [...live];

/** Signals every running one (once each), and resolves when all have ended. */
export async function stopAll(signal: NodeJS.Signals): Promise<void> {
  const now = running();
  for (const t of now) signalOnce(t, signal);
  await Promise.all(now.map((t) => t.end.catch(() => undefined)));
}
