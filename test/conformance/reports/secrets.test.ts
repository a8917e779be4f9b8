// No key ever appears in output or reports. Redaction is the Exchange's job; these tests
// check that the reports neither reintroduce the run's key nor pass on a key the deployment echoed.
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderJson, writeReports } from '../../../suite/reports/index.ts';
import { renderSummary } from '../../../suite/reports/terminal.ts';
import { renderJUnit } from '../../../suite/reports/junit.ts';
import { renderHtml } from '../../../suite/reports/html.ts';
import { failingRun, LEAKED, SECRET } from './fixtures.ts';

const secretPart = (key: string) => key.replace(/^mk_(live|test)_/, '');

describe('keys in reports', () => {
  const result = failingRun();
  const reports = {
    terminal: renderSummary(result, { color: true }), junit: renderJUnit(result), json: renderJson(result), html: renderHtml(result),
  };

  it('the fixture really carries a key past the Exchange (else the next test proves nothing)', () => {
    expect(JSON.stringify(result)).toContain(LEAKED);
  });

  for (const [name, text] of Object.entries(reports)) {
    it(`${name}: neither the run's key nor an echoed key appears, the redacted form does`, () => {
      for (const key of [SECRET, LEAKED]) expect(text).not.toContain(secretPart(key));
      expect(text).toContain('mk_live_…(redacted)');
    });
  }

  it('results.json keeps everything else: the whole exchange, all headers', () => {
    const back = JSON.parse(reports.json);
    const failure = back.checks.find((c: any) => c.outcome === 'fail').failure;
    expect(failure.exchange.responseHeaders['x-debug-key']).toBe('mk_live_…(redacted)');
    expect(failure.exchange.responseHeaders['set-cookie']).toBe('…(redacted)');
    expect(back.config.note).toBe('pasted by mistake: mk_live_…(redacted)');
    expect(back.summary).toEqual(result.summary);
    expect(back.checks).toHaveLength(result.checks.length);
  });
});

describe('writeReports', () => {
  it('creates the directory and writes junit.xml, results.json and report.html', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'reports-')), 'nested', 'run');
    const result = failingRun();
    const paths = writeReports(result, dir);
    expect(paths).toEqual({ junit: join(dir, 'junit.xml'), json: join(dir, 'results.json'), html: join(dir, 'report.html') });
    for (const p of Object.values(paths)) expect(existsSync(p)).toBe(true);
    expect(readFileSync(paths.junit, 'utf8')).toBe(renderJUnit(result));
    expect(readFileSync(paths.html, 'utf8')).toBe(renderHtml(result));
    const json = readFileSync(paths.json, 'utf8');
    expect(json).toMatch(/^\{\n {2}"tool": "simulation-conformance",/);
    expect(JSON.parse(json).runId).toBe(result.runId);
  });
});
