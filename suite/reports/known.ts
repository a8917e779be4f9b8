// What became of each entry of --known-failures, in the words every report uses: accepted (reported,
// not failing the run), expired (failing it again), fixed (remove it), or not verified by this run.
import type { RunResult } from '../results/results.ts';
import { safe } from './text.ts';

export interface KnownLine {
  /** accepted: reported, not failing; bad: failing the run again; fixed: to remove; quiet: nothing to say. */
  tone: 'accepted' | 'bad' | 'fixed' | 'quiet';
  text: string;
}

export function knownFailureLines(result: RunResult): KnownLine[] {
  const k = result.knownFailures;
  if (!k) return [];
  const checksOf = (id: string) => result.checks.filter((c) => c.known?.id === id).length;
  return [
    ...k.expired.map((e) => ({ tone: 'bad' as const, text: `✗ ${e.id} expired on ${e.expires} and fails the run again: ${safe(e.reason)}` })),
    ...k.fixed.map((e) => ({ tone: 'fixed' as const, text: `✓ ${e.id} holds now: fixed, remove it from the file (${safe(e.reason)})` })),
    ...k.accepted.map((e) => ({ tone: 'accepted' as const, text: `✗ ${e.id} accepted until ${e.expires}: ${safe(e.reason)} (${checksOf(e.id)} failed check${checksOf(e.id) === 1 ? '' : 's'}, not failing the run)` })),
    ...k.unverified.map((e) => ({ tone: 'quiet' as const, text: `○ ${e.id} not verified by this run (${e.outcome}): ${safe(e.reason)}` })),
  ];
}
