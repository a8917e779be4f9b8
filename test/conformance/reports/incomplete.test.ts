// A run that did not end as planned must never read as green in CI: a stopped run (Ctrl-C, the
// deadline) lists every check, the unfinished ones skipped with the reason, plus one failed testcase
// saying it stopped; a run that never started (the preflight) leaves a JUnit whose one failure names
// the cause, and a results.json. Testcase names are unique in every case (CI tracks tests by them).
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundledContract, loadDocuments } from '../../../suite/checks/documents.ts';
import { buildResults, type RawCheck } from '../../../suite/results/results.ts';
import { notStartedResult } from '../../../suite/results/not-started.ts';
import { unfinished } from '../../../suite/run/unfinished.ts';
import { renderJUnit } from '../../../suite/reports/junit.ts';
import { writeReports } from '../../../suite/reports/index.ts';
import { all, parseXml } from './xml.ts';

const { bundled } = await loadDocuments(bundledContract(), bundledContract());
const STOP = 'interrupted (SIGINT)';

const raw = (area: string, requirementIds: RawCheck['requirementIds'], title: string, state: RawCheck['state'], extra: Partial<RawCheck> = {}): RawCheck =>
  ({ area, title, requirementIds, state, durationMs: 5, exchanges: [], ...extra });

const names = (xml: string) => all(parseXml(xml), 'testcase').map((c) => `${c.attrs.classname} ${c.attrs.name}`);

describe('a run stopped before its end', () => {
  // What the collector saw: one check passed, one stopped in flight and reported twice (a cancelled
  // run reports the check it stopped again); the rest of the run's files never started.
  const seen = [
    raw('worlds', ['WORLD-1'], 'creates a world', 'passed'),
    raw('personas', ['PERS-9'], 'GET answers the listed members', 'skipped', { notRun: STOP }),
    raw('personas', ['PERS-9'], 'GET answers the listed members', 'skipped', { notRun: STOP }),
  ];
  const listed = [
    raw('worlds', ['WORLD-1'], 'creates a world', 'skipped', { notRun: STOP }),
    raw('personas', ['PERS-9'], 'GET answers the listed members', 'skipped', { notRun: STOP }),
    raw('personas', ['PERS-10'], 'export, import, export', 'skipped', { notRun: STOP }),
    raw('isolation', ['ISO-1'], 'hides the worlds of another tenant', 'skipped', { notRun: 'needs --second-key' }),
  ];
  const result = buildResults({
    checks: [...seen, ...unfinished(seen, listed)], strict: false, runId: 'r1', startedAt: new Date(), target: { baseUrl: 'http://127.0.0.1:1', embedded: false },
    config: {}, areas: ['worlds', 'personas', 'isolation'], bundled, drift: [], stopped: STOP,
  });
  const xml = renderJUnit(result);

  it('lists every check once, those not done as skipped with the reason', () => {
    expect(result.checks.filter((c) => c.responses === undefined).map((c) => `${c.id} ${c.outcome}`)).toEqual([
      'worlds: creates a world pass',
      'personas: GET answers the listed members not-run',
      'personas: export, import, export not-run',
      'isolation: hides the worlds of another tenant not-run',
    ]);
    const skipped = all(parseXml(xml), 'skipped').map((s) => s.attrs.message);
    expect(skipped).toContain(`not run: ${STOP}`);
    expect(skipped).toContain('not run: needs --second-key');
  });

  it('adds one failed testcase saying the run was interrupted', () => {
    const root = parseXml(xml);
    expect(root.attrs.failures).toBe('1');
    const failed = all(root, 'testcase').filter((c) => c.children.some((x) => x.name === 'failure'));
    expect(failed.map((c) => c.attrs.name)).toEqual(['[run] the run ran to its end']);
    expect(failed[0].children[0].attrs.message).toBe(`the run stopped before its end: ${STOP}; 3 of 4 checks not run`);
  });

  it('names every testcase once', () => {
    const list = names(xml);
    expect(list.length).toBeGreaterThan(4);
    expect(new Set(list).size).toBe(list.length);
  });
});

describe('a run that never started', () => {
  it('writes a JUnit with one failed testcase naming the cause, and results.json', () => {
    const dir = mkdtempSync(join(tmpdir(), 'not-started-'));
    try {
      const cause = 'cannot reach http://127.0.0.1:9: connection refused (ECONNREFUSED)';
      const paths = writeReports(notStartedResult({ cause, startedAt: new Date(), target: { baseUrl: 'http://127.0.0.1:9', embedded: false }, config: { plan: 'pro' } }), dir);
      const root = parseXml(readFileSync(paths.junit, 'utf8'));
      expect(root.attrs).toMatchObject({ failures: '1', errors: '0' });
      const failed = all(root, 'testcase').filter((c) => c.children.some((x) => x.name === 'failure'));
      expect(failed).toHaveLength(1);
      expect(failed[0].children[0].attrs.message).toBe(`the run did not start: ${cause}`);
      expect(new Set(names(readFileSync(paths.junit, 'utf8'))).size).toBe(all(root, 'testcase').length);
      const json = JSON.parse(readFileSync(paths.json, 'utf8'));
      expect(json).toMatchObject({ exitCode: 2, notStarted: cause });
      expect(json.requirements.every((q: { outcome: string }) => q.outcome === 'not-run')).toBe(true);
      expect(readFileSync(paths.html, 'utf8')).toContain(`NOT RUN: ${cause}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
