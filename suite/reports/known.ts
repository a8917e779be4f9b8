// What became of each entry of --known-failures, in the words every report uses: accepted (reported,
// not failing the run), expired (failing it again), fixed (remove it), or not verified by this run.
import type { RunResult } from '../results/results.ts';
import { safe } from './text.ts';
import { knownLabel, type KnownFailure } from '../results/known-failures.ts';

export interface KnownLine {
  /** accepted: reported, not failing; bad: failing the run again; fixed: to remove; quiet: nothing to say. */
  tone: 'accepted' | 'bad' | 'fixed' | 'quiet';
  text: string;
}

export function knownFailureLines(result: RunResult): KnownLine[] {
  const k = result.knownFailures;
  if (!k) return [];
  // Entries are unique by what their label names (the file refuses one listed twice).
  const checksOf = (e: KnownFailure) => result.checks.filter((c) => c.known && knownLabel(c.known) === knownLabel(e)).length;
  return [
    ...k.expired.map((e) => ({ tone: 'bad' as const, text: `✗ ${knownLabel(e)} expired on ${e.expires} and fails the run again: ${safe(e.reason)}` })),
    ...k.fixed.map((e) => ({ tone: 'fixed' as const, text: `✓ ${knownLabel(e)} holds now: fixed, remove it from the file (${safe(e.reason)})` })),
    ...k.accepted.map((e) => ({ tone: 'accepted' as const, text: `✗ ${knownLabel(e)} accepted until ${e.expires}: ${safe(e.reason)} (${checksOf(e)} failed check${checksOf(e) === 1 ? '' : 's'}, not failing the run)` })),
    ...k.unverified.map((e) => ({ tone: 'quiet' as const, text: `○ ${knownLabel(e)} not verified by this run (${e.outcome}): ${safe(e.reason)}` })),
  ];
}
