// What a failure shows of a large answer or a long request: every long value cut, saying its length
// (the curl excepted: it is whole or not given, reproducible.test.ts);
// nothing shown twice; the member a failure is about never cut away; the per-response rows of a
// requirement folded into one line in the HTML matrix; the seed of the generated area in every report.
import { describe, expect, it } from 'vitest';
import { shownBody } from '../../../suite/reports/focus.ts';
import { failureView } from '../../../suite/reports/failure-view.ts';
import { renderFailure, renderSummary } from '../../../suite/reports/terminal.ts';
import { renderHtml } from '../../../suite/reports/html.ts';
import { renderJUnit } from '../../../suite/reports/junit.ts';
import { curlOf, cut, type Exchange } from '../../../suite/data/exchange.ts';
import type { CheckResult } from '../../../suite/results/results.ts';
import { failingRun } from './fixtures.ts';

/** A world as GET /worlds/{id} answers it, without engineVersion, large enough to be cut. */
const world = {
  result: {
    world: {
      id: 'w_1', name: 'big', createdAt: '2026-01-01T00:00:00Z',
      entities: Array.from({ length: 30 }, (_, i) => ({ id: `ent-${i}`, name: `n${i}`, profile: { role: 'persona', description: 'x'.repeat(40) } })),
      spaces: [], knowledge: [], updatedAt: '2026-01-02T00:00:00Z',
    },
  },
};
const problem = "/result/world must have required property 'engineVersion'";

describe('the body a failure shows', () => {
  const shown = shownBody(JSON.stringify(world), ['Every response matches the contract', problem, problem, `${problem}; ${problem}`], 1024);

  it('shows a named member once', () => {
    expect(shown.match(/result\.world = /g)).toHaveLength(1);
  });

  it('shows every member of a named object too large to show whole, each value cut with its length', () => {
    for (const member of Object.keys(world.result.world)) expect(shown).toContain(`"${member}"`);
    expect(shown).toMatch(/"entities": \[…30 items, \d+ characters\]/);
    expect(shown.length).toBeLessThan(1400);
  });
});

describe('a request of a 100 KB URL', () => {
  const url = `http://127.0.0.1:4010/worlds?name=${'a'.repeat(100_000)}`;
  const x: Exchange = {
    operationId: 'listWorlds', method: 'GET', url: cut(url), requestHeaders: { 'x-api-key': 'mk_test_…(redacted)' }, status: 414,
    responseHeaders: { 'content-type': 'application/json' }, responseBody: '{"error":{"code":"URI_TOO_LONG"}}', durationMs: 3, checked: [], problems: {},
  };
  const check: CheckResult = {
    id: 'generated: long', area: 'generated', title: 'answers in the error envelope', requirementIds: ['ERR-1'], level: 'MUST', outcome: 'fail', operations: ['listWorlds'], durationMs: 1,
    failure: { requirementIds: ['ERR-1'], title: 'answers in the error envelope', expected: '4xx', received: '414', message: 'x', exchange: x, curl: curlOf(x), culprit: 'target' },
  };

  it('is printed cut, saying its whole length, in the response line; no curl pretends to repeat it', () => {
    const text = renderFailure(check);
    for (const line of text.split('\n')) expect(line.length, line.slice(0, 120)).toBeLessThan(600);
    expect(text).toMatch(/GET http:\/\/127\.0\.0\.1:4010\/worlds\?name=a+…\(100,034 characters\)/);
    expect(failureView(check).curl).toMatch(/^# not repeatable from here: the request had a part of 100,034 characters/);
  });
});

describe('the reports of a run', () => {
  const result = { ...failingRun(), seed: 1234567 };

  it('fold the per-operation rows of a requirement checked on every response into one line of the matrix, the broken ones linked', () => {
    const ops = Array.from({ length: 40 }, (_, i) => `operation${i}`);
    const rows: CheckResult[] = ops.map((op, i) => ({
      id: `ENV-1 ${op}`, area: 'envelope', title: `envelope (${op})`, requirementIds: ['ENV-1'], level: 'MUST', outcome: i === 7 ? 'fail' : 'pass', operations: [op], durationMs: 0, responses: 2,
    }));
    const run = { ...result, checks: [...result.checks, ...rows], requirements: [
      ...result.requirements.filter((q) => q.id !== 'ENV-1'),
      { id: 'ENV-1' as const, level: 'MUST' as const, area: 'envelope', title: 'envelope', clause: 'every 2xx has result', outcome: 'fail' as const, checks: rows.map((r) => r.id) },
    ] };
    const row = /<tr id="req-ENV-1">[\s\S]*?<\/tr>/.exec(renderHtml(run))![0];
    expect(row.match(/<li>/g)).toHaveLength(2);
    expect(row).toMatch(/<a href="#check-\d+">ENV-1 operation7<\/a>/);
    expect(row).toContain('holds on 39 operations');
  });

  it('carry the seed of the generated area', () => {
    expect(renderHtml(result)).toMatch(/<dt>Seed<\/dt><dd>1234567/);
    expect(renderJUnit(result)).toContain('<property name="seed" value="1234567"/>');
    expect(renderSummary(result)).toMatch(/Seed: +1234567/);
  });
});
