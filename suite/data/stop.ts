// How a run stops before its end (the deadline, Ctrl-C): the command writes the reason into the run's
// stop file, and every scenario worker's client reads it before each request and each wait, so a
// check stops at its next request instead of running on. The deadline itself is a time every worker
// knows, so a worker stops on it even before the command notices.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export interface StopSignal {
  /** A file whose presence stops the run; it holds the reason. */
  stopFile: string;
  /** Epoch milliseconds at which the run's deadline (--deadline-s) is reached. */
  deadlineAt: number;
}

export const DEADLINE_REASON = 'deadline: --deadline-s was reached';

/** Why the run is stopping, or undefined while it goes on. */
export function stopReason(s: StopSignal): string | undefined {
  if (Date.now() >= s.deadlineAt) return DEADLINE_REASON;
  if (!existsSync(s.stopFile)) return undefined;
  try { return readFileSync(s.stopFile, 'utf8').trim() || 'stopped'; } catch { return 'stopped'; }
}

export function requestStop(s: StopSignal, reason: string): void {
  if (!existsSync(s.stopFile)) writeFileSync(s.stopFile, reason);
}

/** Milliseconds left before the deadline (never below 0). */
export const msLeft = (s: StopSignal) => Math.max(0, s.deadlineAt - Date.now());

/** The run is stopping: not a verdict on the target, nor a fault of the suite. The check is "not run". */
export class RunStopped extends Error {
  override readonly name = 'RunStopped';
}
