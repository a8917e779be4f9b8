// Legal variants, the mirror of the faults: each is the reference with ONE different choice where
// SPEC.md is silent ("not shown", or a shape it leaves open), made by a rewriting proxy (proxy.ts) in
// front of the reference. A variant keeps its own promise too: where its choice changes what the
// deployment answers, it rewrites the served /openapi.json to say so, as a deployment generating its
// document from its own schemas would. The suite must pass every one under --strict: no failed
// requirement, no warning, except the SHOULDs a variant names in `allowedWarnings` (a SHOULD that
// names that very choice). Each counts the answers its choice made (`applied`): a variant whose
// choice never showed proves nothing, and fails the matrix. One file a topic (variants/<topic>.ts),
// written with variants/helpers.ts; a new file is one line below.
import type { RequirementId, SelectableArea } from '../../contract/requirements.ts';
import type { FaultHooks } from './proxy.ts';

export interface Variant extends FaultHooks {
  id: string;
  /** The choice, in a sentence. */
  description: string;
  /** The gap of SPEC.md the choice fills (its words). */
  gap: string;
  /** Areas of the suite to run against it (`--only`): those the choice concerns. */
  areas: SelectableArea[];
  /** SHOULD requirements that may warn because they name this very choice; usually none. */
  allowedWarnings: RequirementId[];
  /**
   * Why the choice may not show in a run of today's checks (no check sends what would reveal it):
   * then a run that never met it still passes, and the matrix says so. Absent: it must show.
   */
  quietWhy?: string;
}

/** Every variant file, one line each. */
export const VARIANTS: Variant[] = [
  ...(await import('./variants/representation.ts')).VARIANTS,
  ...(await import('./variants/worlds.ts')).VARIANTS,
  ...(await import('./variants/lists.ts')).VARIANTS,
  ...(await import('./variants/states.ts')).VARIANTS,
  ...(await import('./variants/progression.ts')).VARIANTS,
  ...(await import('./variants/errors.ts')).VARIANTS,
  ...(await import('./variants/auth.ts')).VARIANTS,
  ...(await import('./variants/world-parts.ts')).VARIANTS,
  ...(await import('./variants/members.ts')).VARIANTS,
  ...(await import('./variants/sentences.ts')).VARIANTS,
  ...(await import('./variants/rate-limit.ts')).VARIANTS,
];

/** Triggers evaluated only at ticks: not a variant here, and why (docs/self-test.md, "Legal variants"). */
export const NOT_EMULATED = [
  {
    id: 'triggers-at-tick',
    why: 'a proxy could hide a firing from the event result and from query until the next tick, but the reference has already entered the phase: '
      + 'the events between the firing and the tick are appraised under the new phase\'s normMapOverride, which a deployment that fires at the tick would not do. '
      + 'Faithful emulation needs the triggers held by the proxy (stripped from the definition sent, put back in every answer) and applied at each tick by a snapshot import; '
      + 'or a switch of the reference.',
  },
];
