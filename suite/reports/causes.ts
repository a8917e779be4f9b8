// Failures grouped by cause, the cause first. A response that breaks an envelope or contract
// requirement (ENV-*, CONTRACT-*) usually breaks every check that needed it: a deployment that renames
// the success envelope fails ENV-1 once per operation, and then a setup or check in every area. Those
// checks are consequences: each failed on an answer that already broke a per-response requirement, so
// they are folded under that requirement, which is shown first and in full. A failure on an answer
// that broke nothing of the kind is its own cause.
import { PER_RESPONSE, type RequirementId } from '../../contract/requirements.ts';
import { perResponseCheckId, type CheckResult } from '../results/results.ts';

export interface CauseGroup {
  /** The requirement every row of the group breaks, when the cause is a per-response one. */
  requirementId?: RequirementId;
  /** The rows of the cause: one per operation for a per-response requirement (the first shown in full). */
  rows: CheckResult[];
  /** Checks that failed on an answer the cause had already broken. */
  consequences: CheckResult[];
}

/** A per-response row's own requirement. */
const perResponseOf = (c: CheckResult) => (c.responses !== undefined && c.requirementIds.length === 1 && PER_RESPONSE.includes(c.requirementIds[0]) ? c.requirementIds[0] : undefined);

/**
 * The per-response requirement the check's answer broke first (catalogue order: the envelope before
 * the contracts), whose row failed in this run. A per-response row looks only before its own
 * requirement: CONTRACT-2 fails because ENV-1 did, not the other way round.
 */
function causeOf(check: CheckResult, failing: ReadonlyMap<string, CheckResult>): RequirementId | undefined {
  const x = check.failure?.exchange;
  if (!x) return undefined;
  const own = perResponseOf(check);
  const candidates = own ? PER_RESPONSE.slice(0, PER_RESPONSE.indexOf(own)) : PER_RESPONSE;
  return candidates.find((id) => x.problems[id]?.length && failing.has(perResponseCheckId(id, x)));
}

/**
 * `checks`: the failures to group (fail or warn), in the run's order. Groups with consequences come
 * first, the largest first; the remaining failures follow, each its own group, in the run's order.
 */
export function groupByCause(checks: readonly CheckResult[]): CauseGroup[] {
  const failing = new Map(checks.map((c) => [c.id, c]));
  const byRequirement = new Map<RequirementId, CauseGroup>();
  const alone: CauseGroup[] = [];
  const groupOf = (id: RequirementId) => {
    if (!byRequirement.has(id)) byRequirement.set(id, { requirementId: id, rows: [], consequences: [] });
    return byRequirement.get(id)!;
  };
  for (const c of checks) {
    const cause = causeOf(c, failing);
    const own = perResponseOf(c);
    if (cause) groupOf(cause).consequences.push(c);
    else if (own) groupOf(own).rows.push(c);
    else alone.push({ rows: [c], consequences: [] });
  }
  // A per-response requirement whose every row is itself a consequence (CONTRACT-2 behind ENV-1) has
  // no row left to show: its consequences go with the group that took its rows.
  const groups = [...byRequirement.values()].filter((g) => g.rows.length);
  for (const g of byRequirement.values()) {
    if (g.rows.length) continue;
    const home = groups.find((h) => g.consequences.some((c) => h.consequences.includes(c))) ?? groups[0];
    if (home) home.consequences.push(...g.consequences);
    else alone.push(...g.consequences.map((c) => ({ rows: [c], consequences: [] })));
  }
  // The rows of a cause are shown from the most telling operation: the one with the most consequences.
  for (const g of groups) {
    const weight = (row: CheckResult) => g.consequences.filter((c) => c.failure?.exchange?.operationId === row.operations[0]).length;
    g.rows.sort((a, b) => weight(b) - weight(a));
  }
  return [...groups.sort((a, b) => b.consequences.length - a.consequences.length), ...alone];
}
