// The known-failure entries that would accept one cause's failures for a while, written out to paste
// into the file --known-failures reads: one per requirement and operation, narrowed to the member for
// the requirements judged on every response. A member missing from one answer breaks CONTRACT-1,
// CONTRACT-2 and the check that needed it: three entries a team should not have to work out.
import { PER_RESPONSE, type RequirementId } from '../../contract/requirements.ts';
import { memberOf, operationOf, problemsOf } from '../results/known-failures.ts';
import type { CheckResult } from '../results/results.ts';

export interface Acceptance { id: RequirementId; operation?: string; member?: string }

/** The entries that cover every failure of these checks, each once. */
export function acceptanceOf(checks: readonly CheckResult[]): Acceptance[] {
  const out = new Map<string, Acceptance>();
  const add = (a: Acceptance) => out.set(`${a.id} ${a.operation ?? ''} ${a.member ?? ''}`, a);
  for (const c of checks) {
    const operation = operationOf(c);
    for (const id of c.failure?.requirementIds ?? c.requirementIds) {
      const members = c.responses !== undefined && PER_RESPONSE.includes(id) ? problemsOf(c).map(memberOf) : [];
      // A problem without a member (the whole answer) is accepted by the requirement on its operation.
      if (!members.length || members.some((m) => m === undefined)) add({ id, ...(operation ? { operation } : {}) });
      else for (const member of new Set(members as string[])) add({ id, ...(operation ? { operation } : {}), member });
    }
  }
  return [...out.values()];
}

/** The entries as YAML, with a reason to write and a date 30 days after the run (an entry needs both). */
export function acceptanceYaml(entries: readonly Acceptance[], startedAt: string): string {
  const day = new Date(Date.parse(startedAt) + 30 * 86_400_000).toISOString().slice(0, 10);
  const quote = (v: string) => JSON.stringify(v);
  return entries.map((e) => [
    `- id: ${e.id}`,
    ...(e.operation ? [`  operation: ${quote(e.operation)}`] : []),
    ...(e.member ? [`  member: ${quote(e.member)}`] : []),
    '  reason: "why it is accepted, and the ticket that fixes it"',
    `  expires: ${day}`,
  ].join('\n')).join('\n');
}
