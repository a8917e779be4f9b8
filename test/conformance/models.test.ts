// What PART-3 and ERR-3 read of SPEC.md's models (scenarios/support/models.ts), on answers of the
// shapes deployments give. Relationships are directed (a query's map: source key, then target key): a
// record of ana → user is not one of user → ana, and a deployment may list both. A batch mutation
// reports a failed operation in its own result entry (ok false, an error string), inside a result envelope.
import { describe, expect, it } from 'vitest';
import { directed, reportedInItsEntry } from '../../scenarios/support/models.ts';

const USER = ['user', 'ent_user'];
const ANA = ['ana', 'ent_ana'];
const toward = (r: unknown) => directed(r, USER, ANA);

describe('a relationship record read with its direction (PART-3)', () => {
  it('user → ana, by name or by id, at the top or inside the record', () => {
    expect(toward({ id: 'r1', source: 'user', target: 'ana', relationship: { trust: 0.3 } })).toBe(true);
    expect(toward({ actorId: 'ent_user', personaId: 'ent_ana', trust: 0.3 })).toBe(true);
    expect(toward({ id: 'r1', relationship: { from: 'user', to: 'ana', trust: 0.3 } })).toBe(true);
  });

  it('not ana → user: the reverse record a deployment may also keep', () => {
    expect(toward({ id: 'r1-reverse', source: 'ana', target: 'user', relationship: { trust: 0.5 } })).toBe(false);
    expect(toward({ from: 'ent_ana', to: 'ent_user', trust: 0.5 })).toBe(false);
  });

  it('of both directions listed, only the one asked for', () => {
    const list = [{ source: 'user', target: 'ana', trust: 0.3 }, { source: 'ana', target: 'user', trust: 0.5 }];
    expect(list.filter(toward).map((r) => r.trust)).toEqual([0.3]);
  });

  it('a record that names its ends under no member read as an end is read undirected (it mentions both)', () => {
    expect(toward({ pair: ['user', 'ana'], trust: 0.3 })).toBe(true);
    expect(toward({ pair: ['user', 'ben'], trust: 0.3 })).toBe(false);
  });
});

describe('a batch operation reported in its own entry (ERR-3)', () => {
  const answer = (status: number, results: unknown[]) => ({ status, body: { result: { results } } });
  it('200 with results[i] = {op, ok: false, error}', () => {
    expect(reportedInItsEntry(answer(200, [{ op: '12345', ok: false, error: 'op must be a string' }]), 0)).toBe(true);
  });
  it('not ok: true, nor an empty or missing error, nor another entry, nor a 500 or an unwrapped body', () => {
    expect(reportedInItsEntry(answer(200, [{ op: '12345', ok: true }]), 0)).toBe(false);
    expect(reportedInItsEntry(answer(200, [{ op: '12345', ok: false, error: '' }]), 0)).toBe(false);
    expect(reportedInItsEntry(answer(200, [{ op: '12345', ok: false }]), 0)).toBe(false);
    expect(reportedInItsEntry(answer(200, [{ op: 'a', ok: true }, { op: 'b', ok: false, error: 'x' }]), 0)).toBe(false);
    expect(reportedInItsEntry(answer(500, [{ op: '12345', ok: false, error: 'x' }]), 0)).toBe(false);
    expect(reportedInItsEntry({ status: 200, body: { results: [{ op: '12345', ok: false, error: 'x' }] } }, 0)).toBe(false);
  });
});
