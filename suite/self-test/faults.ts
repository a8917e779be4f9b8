// Faulty deployments: each is ONE fault, injected by the proxy (proxy.ts) in front of a correct
// deployment. A fault names the areas whose checks should notice it (the matrix runs only those) and
// the requirements it must fail, each of them. Together they prove that every check can fail: every
// requirement of contract/requirements.ts is expected by some fault (a test keeps it so). One file a
// requirement area (faults/<area>.ts, a requirement's faults together, in catalogue order), written
// with faults/helpers.ts; a new file is one line below.
import type { RequirementId, SelectableArea } from '../../contract/requirements.ts';
import type { FaultHooks } from './proxy.ts';

export interface Fault extends FaultHooks {
  id: string;
  description: string;
  /** Areas of the suite to run against it (`--only`). */
  areas: SelectableArea[];
  /**
   * Only the checks of these requirements run in those areas (`--only ID`), for a fault only they
   * can see: the matrix stays fast as it grows. Default: every check of the areas.
   */
  only?: RequirementId[];
  /**
   * The requirements it must fail, each of them ([] for a control that must pass). With `expectedLabel`
   * ("any MUST", "RATE-4 or RATE-1"), one of them is enough: a fault no single requirement names, or
   * one whose catch depends on timing (measured: a limit of twice the plan fails RATE-1 on a loaded
   * machine, RATE-4 on a quiet one).
   */
  expected: RequirementId[];
  expectedLabel?: string;
  /** Request timeout of the run against this fault (ms), when it is about time. */
  timeoutMs?: number;
  /** Budget of the generated area in the run against this fault (default: the matrix's). */
  generated?: number;
}

/** Every fault file, one line each. */
export const FAULTS: Fault[] = [
  ...(await import('./faults/envelope.ts')).FAULTS,
  ...(await import('./faults/contract.ts')).FAULTS,
  ...(await import('./faults/openapi.ts')).FAULTS,
  ...(await import('./faults/auth.ts')).FAULTS,
  ...(await import('./faults/isolation.ts')).FAULTS,
  ...(await import('./faults/errors.ts')).FAULTS,
  ...(await import('./faults/urls.ts')).FAULTS,
  ...(await import('./faults/worlds.ts')).FAULTS,
  ...(await import('./faults/world-parts.ts')).FAULTS,
  ...(await import('./faults/simulation.ts')).FAULTS,
  ...(await import('./faults/progression.ts')).FAULTS,
  ...(await import('./faults/states.ts')).FAULTS,
  ...(await import('./faults/personas.ts')).FAULTS,
  ...(await import('./faults/generated.ts')).FAULTS,
  ...(await import('./faults/model.ts')).FAULTS,
  ...(await import('./faults/model-world-parts.ts')).FAULTS,
  ...(await import('./faults/model-personas.ts')).FAULTS,
  ...(await import('./faults/rate-limit.ts')).FAULTS,
  ...(await import('./faults/slow.ts')).FAULTS,
];
