// Failures as a person needs to read them: the cause first (a broken envelope, with the checks it
// broke folded under it, one line each), a large body shown at the member the failure names, the
// body said once, and a reproduction that says what it needs once cleanup has removed the run's data.
import { describe, expect, it } from 'vitest';
import { curlOf } from '../../../suite/data/exchange.ts';
import type { CheckResult } from '../../../suite/results/results.ts';
import { groupByCause } from '../../../suite/reports/causes.ts';
import { renderFailure, renderSummary } from '../../../suite/reports/terminal.ts';
import { renderHtml } from '../../../suite/reports/html.ts';
import { shownBody } from '../../../suite/reports/focus.ts';
import { check, exchange, requirement, run } from './fixtures.ts';

/** A deployment that answers its 2xx bodies without `result`: ENV-1 on createWorld, and what it broke. */
function unwrappedRun() {
  const created = exchange({ operationId: 'createWorld', method: 'POST', path: '/worlds', status: 201, body: { worldId: 'w_1', createdAt: 1 }, requestBody: '{"definition":{}}' });
  created.checked = ['ENV-1', 'CONTRACT-2'];
  created.problems = { 'ENV-1': ['a 2xx body must be an object with a result member'], 'CONTRACT-2': ['/ must have required property result'] };
  const listed = exchange({ operationId: 'listWorlds', method: 'GET', path: '/worlds', status: 200, body: { worlds: [] } });
  listed.checked = ['ENV-1'];
  listed.problems = { 'ENV-1': ['a 2xx body must be an object with a result member'] };
  const row = (id: 'ENV-1' | 'CONTRACT-2', op: string, x: typeof created, responses: number): CheckResult =>
    check(id === 'ENV-1' ? 'envelope' : 'contract', [id], `${id} title (${op})`, 'fail', {
      id: `${id} ${op}`, operations: [op], responses,
      failure: { requirementIds: [id], operationId: op, title: `${id} title`, expected: `${id} title`, received: x.problems[id]!.join('\n'), message: x.problems[id]!.join('; '), exchange: x, curl: curlOf(x), culprit: 'target' },
    });
  const brokenSetup = check('worlds', ['WORLD-1', 'WORLD-2'], 'setup of scenarios/worlds.test.ts', 'fail', {
    failure: { requirementIds: ['WORLD-1', 'WORLD-2'], title: 'creating a world: expected a 2xx with a result member', expected: '2xx {"result": …}', received: '201 {"worldId":"w_1","createdAt":1}', message: 'creating a world: expected a 2xx with a result member\nexpected: 2xx {"result": …}\nreceived: 201 {"worldId":"w_1","createdAt":1}', exchange: created, culprit: 'target' },
  });
  const other = check('errors', ['ERR-1'], 'answers 404 WORLD_NOT_FOUND', 'fail', {
    failure: { requirementIds: ['ERR-1'], title: 'expected 404 WORLD_NOT_FOUND', message: 'expected 404 WORLD_NOT_FOUND', culprit: 'target' },
  });
  const checks = [other, brokenSetup, row('ENV-1', 'createWorld', created, 13), row('ENV-1', 'listWorlds', listed, 2), row('CONTRACT-2', 'createWorld', created, 13)];
  const requirements = ['ERR-1', 'WORLD-1', 'WORLD-2', 'ENV-1', 'CONTRACT-2'].map((id) => requirement(id as never, 'fail', checks.filter((c) => c.requirementIds.includes(id as never)).map((c) => c.id)));
  return run(checks, requirements, 1);
}

describe('failures grouped by cause', () => {
  it('puts the per-response requirement first, its operations together, and folds what it broke under it', () => {
    const result = unwrappedRun();
    const groups = groupByCause(result.checks);
    expect(groups.map((g) => [g.requirementId, g.rows.map((r) => r.id), g.consequences.map((c) => c.id)])).toEqual([
      ['ENV-1', ['ENV-1 createWorld', 'ENV-1 listWorlds'], ['worlds: setup of scenarios/worlds.test.ts', 'CONTRACT-2 createWorld']],
      [undefined, ['errors: answers 404 WORLD_NOT_FOUND'], []],
    ]);
  });

  it('shows the cause in full first in the terminal, the broken checks one line each, counting requirements', () => {
    const text = renderSummary(unwrappedRun());
    expect(text).toMatch(/^Failures: 5 requirements broken, in 5 checks, from 2 causes\n\n✗ \[ENV-1\] ENV-1 title \(createWorld\) \(envelope, 13 responses checked\)/);
    expect(text).toContain('  Also on: listWorlds (2 responses)');
    expect(text).toMatch(/Checks it broke \(2\): each failed on an answer that had already broken ENV-1.*\n {4}✗ \[WORLD-1, WORLD-2\] setup of scenarios\/worlds\.test\.ts \(worlds\): creating a world: expected a 2xx with a result member\n {4}✗ \[CONTRACT-2\] CONTRACT-2 title \(createWorld\) \(contract\): \/ must have required property result/);
    // The body of the answer is shown once, in the cause: never again under each check it broke.
    expect(text.split('"worldId": "w_1"')).toHaveLength(2);
  });

  it('folds the broken checks under the cause in report.html too', () => {
    const html = renderHtml(unwrappedRun());
    expect(html).toContain('<h2>Failures: 5 requirements broken, in 5 checks, from 2 causes</h2>');
    expect(html.indexOf('[ENV-1] ENV-1 title (createWorld)')).toBeLessThan(html.indexOf('[ERR-1] answers 404 WORLD_NOT_FOUND'));
    expect(html).toMatch(/Checks it broke \(2\):<\/span> each failed on an answer that had already broken ENV-1<\/p>\n<ul class="folded also"><li>/);
    expect(html).toMatch(/<details><summary>Their failures in full \(2\)<\/summary>/);
  });
});

describe('a failure card', () => {
  it('says a body once: a received that is the body below names only the status', () => {
    const result = unwrappedRun();
    const text = renderFailure(result.checks[1]);
    expect(text).toContain('Received: 201 (the response below)');
    expect(text).toContain('creating a world: expected a 2xx with a result member');
    expect(text.split('"worldId"')).toHaveLength(2);
  });

  it('shows the member a failure names when the body is too large to show whole', () => {
    const big = { result: { entities: Array.from({ length: 40 }, (_, i) => ({ id: `ent-${i}`, name: `n${i}`, profile: { role: 'persona', description: 'x'.repeat(20) } })), progression: { currentPhase: 'calm', phaseHistory: [], firedTriggerIds: [] } } };
    const shown = shownBody(JSON.stringify(big), ['phaseHistory should have one entry with triggerId to-storm: expected +0 to be 1'], 1024);
    expect(shown).toMatch(/^\(\d+ characters; shown: the members this failure names, by path\)\nresult\.progression\.phaseHistory = \[\]$/);
    // A body that fits is shown whole, and a large one naming nothing is cut at the limit.
    expect(shownBody('{"result":{"ok":true}}', ['anything'], 1024)).toBe('{\n  "result": {\n    "ok": true\n  }\n}');
    expect(shownBody(JSON.stringify(big), ['nothing named here'], 1024)).toMatch(/…\(\d+ more characters\)$/);
  });

  it('puts the request that made what the reproduction names first, and says cleanup removed it', () => {
    const made = exchange({ operationId: 'createWorld', method: 'POST', path: '/worlds', status: 201, body: { result: { worldId: 'w_9' } }, requestBody: '{"definition":{}}' });
    const used = exchange({ operationId: 'queryWorld', method: 'POST', path: '/worlds/w_9/query', status: 200, body: { result: {} }, requestBody: '{}' });
    const c = check('progression', ['PROG-3'], 'records the firing', 'fail', {
      failure: { requirementIds: ['PROG-3'], title: 'phaseHistory should have one entry', message: 'phaseHistory should have one entry', exchange: used, curl: curlOf(used), setup: { id: 'w_9', curl: curlOf(made) }, culprit: 'target' },
    });
    const text = renderFailure(c);
    expect(text).toMatch(/Reproduce with:\n {4}# w_9 was made by the run and soft-deleted at its end \(--keep leaves it\): make one first, then put its id in place of w_9\n {4}curl -i -X POST 'http:\/\/127\.0\.0\.1:4010\/worlds' .*\n {4}curl -i -X POST 'http:\/\/127\.0\.0\.1:4010\/worlds\/w_9\/query'/);
    expect(renderFailure(c, { kept: true })).not.toContain('soft-deleted');
  });
});
