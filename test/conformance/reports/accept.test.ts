// The known-failure entries a failure offers: pasted into a --known-failures file as printed, they
// parse, and they cover every failure of the cause (per-response rows at their member, the checks
// that needed the answer on their operation), and nothing on another member or operation.
import { describe, expect, it } from 'vitest';
import { acceptanceOf, acceptanceYaml } from '../../../suite/reports/accept.ts';
import { covers, parseKnownFailures, problemsOf, operationOf } from '../../../suite/results/known-failures.ts';
import type { CheckResult } from '../../../suite/results/results.ts';
import type { RequirementId } from '../../../contract/requirements.ts';

const row = (id: RequirementId, problems: string[]): CheckResult => ({
  id: `${id} getWorld`, area: 'contract', title: id, requirementIds: [id], level: 'MUST', outcome: 'fail', operations: ['getWorld'], durationMs: 1, responses: 3,
  failure: { requirementIds: [id], culprit: 'target', operationId: 'getWorld', title: id, message: problems.join('\n'), received: problems.join('\n') },
});
const missing = "/result/world must have required property 'engineVersion'";
const consequence: CheckResult = {
  id: 'worlds: reports an engineVersion', area: 'worlds', title: 'reports an engineVersion', requirementIds: ['WORLD-5'], level: 'MUST', outcome: 'fail', operations: [], durationMs: 1,
  failure: { requirementIds: ['WORLD-5'], culprit: 'target', operationId: 'getWorld', title: "expected 'undefined' to be 'string'", message: '' },
};

describe('the entries offered to accept a cause', () => {
  const checks = [row('CONTRACT-1', [missing]), row('CONTRACT-2', [missing]), consequence];
  const entries = acceptanceOf(checks);

  it('are one per requirement, narrowed to the operation and, on every response, the member', () => {
    expect(entries).toEqual([
      { id: 'CONTRACT-1', operation: 'getWorld', member: '/result/world/engineVersion' },
      { id: 'CONTRACT-2', operation: 'getWorld', member: '/result/world/engineVersion' },
      { id: 'WORLD-5', operation: 'getWorld' },
    ]);
  });

  it('parse as a --known-failures file as printed, and cover every failure of the cause', () => {
    const parsed = parseKnownFailures(acceptanceYaml(entries, '2026-12-02T00:00:00.000Z'), 'pasted.yaml');
    expect(parsed.map((e) => e.expires)).toEqual(['2027-01-01', '2027-01-01', '2027-01-01']);
    for (const c of checks) {
      for (const id of c.failure!.requirementIds) {
        const problems = c.responses === undefined ? [undefined] : problemsOf(c);
        for (const p of problems) expect(parsed.some((e) => covers(e, id, operationOf(c), p)), `${id} ${p ?? ''}`).toBe(true);
      }
    }
  });

  it('cover nothing on another member or operation', () => {
    const parsed = parseKnownFailures(acceptanceYaml(entries, '2026-12-02T00:00:00.000Z'), 'pasted.yaml');
    expect(parsed.some((e) => covers(e, 'CONTRACT-1', 'getWorld', "/result/world must have required property 'createdAt'"))).toBe(false);
    expect(parsed.some((e) => covers(e, 'WORLD-5', 'listWorlds'))).toBe(false);
  });

  it('name a problem about the whole answer by its requirement and operation', () => {
    expect(acceptanceOf([row('ENV-1', ['must be object'])])).toEqual([{ id: 'ENV-1', operation: 'getWorld' }]);
  });
});
