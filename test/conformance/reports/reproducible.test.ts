// A failure reproducible as shown: a requirement checked on every response is shown with the plainest
// answer that broke it (a scenario's plain GET, not the generated area's 2,000-character query), its
// curl whole (it pastes: never cut in the middle), what the run made first and that --keep leaves it;
// vitest's notes on how it compared are not in the messages.
import { describe, expect, it } from 'vitest';
import { bundledContract, loadDocuments } from '../../../suite/checks/documents.ts';
import { buildResults, type RawCheck } from '../../../suite/results/results.ts';
import { failureView } from '../../../suite/reports/failure-view.ts';
import { renderFailure } from '../../../suite/reports/terminal.ts';
import { renderHtml } from '../../../suite/reports/html.ts';
import { cut, type Exchange } from '../../../suite/data/exchange.ts';
import { failureOf } from '../../../suite/scenario/check.ts';
import { chai } from 'vitest';

const { bundled } = await loadDocuments(bundledContract(), bundledContract());
const BASE = 'http://127.0.0.1:4010';
const PROBLEM = "/result/world must have required property 'engineVersion'";

const x = (over: Partial<Exchange>): Exchange => ({
  operationId: 'getWorld', method: 'GET', url: `${BASE}/worlds/wld_plain1`, requestHeaders: { accept: 'application/json', 'x-api-key': 'mk_test_…(redacted)' },
  status: 200, responseHeaders: { 'content-type': 'application/json' }, responseBody: '{"result":{"world":{"id":"wld_plain1"}}}', durationMs: 3,
  checked: ['CONTRACT-1'], problems: { 'CONTRACT-1': [PROBLEM] }, ...over,
});
const created = x({ operationId: 'createWorld', method: 'POST', url: `${BASE}/worlds`, requestBody: '{"definition":{"identity":{"name":"w"}}}', status: 201, responseBody: '{"result":{"worldId":"wld_plain1"}}', checked: [], problems: {} });
const noisy = x({ url: `${BASE}/worlds/wld_plain1?q=${'x'.repeat(2_050)}`, requestBody: '-9007199254740994' });
const plain = x({});

const raw = (area: string, exchanges: Exchange[]): RawCheck => ({ area, title: `${area} check`, requirementIds: area === 'generated' ? ['GEN-1'] : ['WORLD-1'], state: 'passed', durationMs: 1, exchanges });
const run = (checks: RawCheck[], keep = false) => buildResults({
  checks, strict: false, runId: 'r1', startedAt: new Date(), target: { baseUrl: BASE, embedded: false },
  config: { keep }, areas: ['worlds', 'generated'], bundled, drift: [],
});
const row = (r: ReturnType<typeof run>) => r.checks.find((c) => c.id === 'CONTRACT-1 getWorld')!;

describe('the answer a per-response failure is shown with', () => {
  it('is a scenario’s plain request, not the generated one that came first', () => {
    const r = run([raw('generated', [noisy]), raw('worlds', [created, plain])]);
    expect(row(r).failure!.exchange).toBe(plain);
    expect(failureView(row(r)).curl).toBe(`curl -i -X GET '${BASE}/worlds/wld_plain1' -H 'accept: application/json' -H "X-API-Key: $API_KEY"`);
  });

  it('is the generated one when nothing plainer broke the requirement', () => {
    const r = run([raw('generated', [noisy]), raw('worlds', [created, x({ problems: {} })])]);
    expect(row(r).failure!.exchange).toBe(noisy);
  });

  it('says what the run made first, and that --keep leaves it', () => {
    const r = run([raw('worlds', [created, plain])]);
    const text = renderFailure(row(r), { kept: false });
    expect(text).toContain('# wld_plain1 was made by the run and soft-deleted at its end (--keep leaves it)');
    expect(text).toContain(`curl -i -X POST '${BASE}/worlds'`);
    expect(renderFailure(row(run([raw('worlds', [created, plain])], true)), { kept: true })).not.toContain('--keep');
  });

  it('names --keep when the run cannot say which request made what the curl names', () => {
    const r = run([raw('worlds', [plain])]);
    expect(failureView(row(r)).setup?.note).toMatch(/wld_plain1.*--keep/);
  });
});

describe('the curl of a failure', () => {
  it('is whole in the terminal and the HTML, however long (2 KB of query)', () => {
    const r = run([raw('generated', [noisy])]);
    const curl = failureView(row(r)).curl!;
    expect(curl).toContain(`q=${'x'.repeat(2_050)}' `);
    expect(curl.endsWith(`--data-raw '-9007199254740994'`)).toBe(true);
    expect(renderFailure(row(r))).toContain(curl);
    expect(renderHtml(r)).toContain(curl.replace(/'/g, '&#39;').replace(/"/g, '&quot;'));
  });

  it('is a comment saying so when the run kept only the start of the request', () => {
    const long = x({ url: cut(`${BASE}/worlds/wld_plain1?q=${'x'.repeat(10_000)}`) });
    const r = run([raw('generated', [long])]);
    const curl = failureView(row(r)).curl!;
    expect(curl).toMatch(/^# not repeatable from here: the request had a part of 10,0\d\d characters/);
  });
});

describe('a failed expect()', () => {
  it('is told without vitest’s note on how it compared', () => {
    const err = new chai.AssertionError("expected 'undefined' to be 'string' // Object.is equality", { expected: 'string', actual: 'undefined', showDiff: true });
    const f = failureOf(err, ['WORLD-5']);
    expect(f.title).toBe("expected 'undefined' to be 'string'");
    expect(f.message).not.toContain('Object.is');
  });
});
