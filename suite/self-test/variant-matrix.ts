// The legal variants' family (variants.ts), the mirror of the faults: every variant behind its own
// proxy, checked with --strict over the areas its choice concerns by the one runner (runner.ts). A
// variant passes when nothing fails or warns but the SHOULDs it allows, no check errs, its choice showed
// in at least one answer, and the same run judged as a user's (without --strict) exits 0.
import type { RequirementId } from '../../contract/requirements.ts';
import { APPLIED } from './hooks.ts';
import { messagesOf, runFamily, markedFailed, type Family, type FamilyResult, type RunFamilyOptions, type Verdict } from './runner.ts';
import { VARIANTS, type Variant } from './variants.ts';

export interface VariantVerdict extends Verdict {
  allowedWarnings: RequirementId[];
  /** Failed or warned requirements not allowed by the variant: each is a check narrower than SPEC.md. */
  unexpected: RequirementId[];
  /** Answers the variant's choice made: 0 means the run never saw it, and proves nothing. */
  applied: number;
  /** Why the choice may not show today (the variant's `quietWhy`). */
  quietWhy?: string;
}

export const variantFamily = (variants: readonly Variant[]): Family<Variant, VariantVerdict> => ({
  name: 'legal variants', entry: 'variant', column: 'areas', entries: variants,
  hooks: (variant) => variant,
  plan: () => ({ preflight: true, cleanupThroughProxy: true }),
  judge(variant, v, runs, state) {
    Object.assign(v, { allowedWarnings: variant.allowedWarnings, quietWhy: variant.quietWhy, unexpected: [], applied: (state?.get(APPLIED) as number | undefined) ?? 0 });
    const result = runs[0]?.result;
    if (!result) return;
    v.unexpected = v.failed.filter((id) => !variant.allowedWarnings.includes(id));
    // What the checks behind `unexpected` said, for whoever widens them.
    v.messages = messagesOf(result, v.unexpected);
    v.ok = result.exitCode !== 2 && !v.unexpected.length && !v.suiteErrors.length && (v.applied > 0 || !!variant.quietWhy)
      && (result.exitCode === 0 || v.failed.length > 0) && v.userExitCode === 0;
  },
  line: (v) => (v.ok
    ? `passed${v.failed.length ? ` (allowed: ${v.failed.join(', ')})` : ''}, ${v.applied ? `its choice made ${v.applied} answers` : `its choice did not show: ${v.quietWhy}`}`
    : v.applied === 0 ? `its choice never showed (0 answers): proves nothing${v.unexpected.length ? `; failed ${v.unexpected.join(', ')}` : ''}`
      : `FAILED though legal: ${v.unexpected.join(', ') || `exit ${v.exitCode}, without --strict ${v.userExitCode}`}${v.suiteErrors.length ? `; suite errors: ${v.suiteErrors.length}` : ''}`),
  cells: (v) => [v.areas.join(','), `${markedFailed(v, [], (id) => (v.allowedWarnings.includes(id) ? ' (allowed)' : ''))}${v.applied ? '' : v.quietWhy ? ' [choice did not show]' : ' [choice never showed]'}`],
  total: (vs, ms) => [`${vs.every((v) => v.ok) ? '✓' : '✗'} ${vs.filter((v) => v.ok).length} of ${vs.length} legal variants passed (--strict: only the SHOULDs a variant names may fail; without --strict: exit 0) in ${(ms / 1000).toFixed(0)} s`],
});

export type VariantMatrixResult = FamilyResult<VariantVerdict>;
export const runVariants = (options: RunFamilyOptions & { variants?: Variant[] }): Promise<VariantMatrixResult> => runFamily(variantFamily(options.variants ?? VARIANTS), options);
