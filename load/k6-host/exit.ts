// How a k6 process ended, in k6's own terms (its exit codes: errext/exitcodes in k6's source),
// so that a run says what happened to each runner instead of one "status 130" for every signal.
import { existsSync, readFileSync } from 'node:fs';

/** A process's end as Node reports it: an exit code, or the signal that killed it. */
export interface ProcessEnd { code: number | null; signal: NodeJS.Signals | null }

/** k6's exit status when thresholds failed (the run itself completed). */
export const K6_THRESHOLDS_FAILED = 99;
/** k6's exit status when stopped from outside (SIGINT, SIGTERM): it still wrote its summary, of what it sent. */
export const K6_EXTERNAL_ABORT = 105;
/** k6's exit status when the script aborted the run (exec.test.abort). */
export const K6_SCRIPT_ABORTED = 108;

const MEANING: Record<number, string> = {
  [K6_THRESHOLDS_FAILED]: 'a threshold failed on its own samples',
  100: 'setup timed out', 101: 'teardown timed out', 103: 'stopped through its REST API', 104: 'invalid configuration',
  [K6_EXTERNAL_ABORT]: 'stopped from outside by a signal, its summary covering only what it sent',
  106: 'could not start its REST API', 107: 'a script exception', [K6_SCRIPT_ABORTED]: 'the script aborted the run', 109: 'a Go panic',
};

/** "exit status 105 (stopped from outside …)", "killed by SIGKILL". */
export function describeEnd(e: ProcessEnd): string {
  if (e.signal) return `killed by ${e.signal}`;
  const meaning = e.code === null ? undefined : MEANING[e.code];
  return `exit status ${e.code}${meaning ? ` (${meaning})` : ''}`;
}

/** The run ran to its end: k6 exits 0, or 99 when a threshold failed on its samples. */
export const ranToEnd = (e: ProcessEnd): boolean => !e.signal && (e.code === 0 || e.code === K6_THRESHOLDS_FAILED);

/** The status the summary records (a signal's death as 128 + its number, as a shell shows it). */
export function statusOf(e: ProcessEnd): number {
  if (e.code !== null) return e.code;
  const numbers: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGABRT: 6, SIGKILL: 9, SIGSEGV: 11, SIGPIPE: 13, SIGTERM: 15 };
  return 128 + (numbers[e.signal ?? ''] ?? 0);
}

/**
 * The last lines of a runner's log worth reading: k6's own log lines (level=error, warning) first,
 * else the last lines whatever they are (with --quiet k6 writes little else).
 */
export function logTail(file: string, lines = 3): string {
  if (!existsSync(file)) return '';
  const all = readFileSync(file, 'utf8').split('\n').map((l) => l.trim()).filter(Boolean);
  const logged = all.filter((l) => /level=(error|warning|fatal)|^(ERRO|WARN)\[/.test(l));
  return (logged.length ? logged : all).slice(-lines).join(' / ');
}
