// The JUnit report is read by CI tools, not people: it must parse, and its counts must say the same
// as the run (a SHOULD warning passes, not run is skipped, a suite fault is an error).
import { describe, expect, it } from 'vitest';
import { renderJUnit } from '../../../suite/reports/junit.ts';
import { all, parseXml } from './xml.ts';
import { check, failingRun, run } from './fixtures.ts';

describe('the XML checker used below', () => {
  it('rejects what a CI parser would reject', () => {
    expect(() => parseXml('<a><b></a>')).toThrow(/closes/);
    expect(() => parseXml('<a x=1/>')).toThrow(/unquoted/);
    expect(() => parseXml('<a x="1" x="2"/>')).toThrow(/duplicate/);
    expect(() => parseXml('<a>fish & chips</a>')).toThrow(/reference|entity/);
    expect(() => parseXml('<a>1 < 2</a>')).toThrow();
    expect(() => parseXml('<a>\u0001</a>')).toThrow(/forbidden/);
    expect(() => parseXml('<a>&#1;</a>')).toThrow(/forbidden/);
    expect(() => parseXml('<a/><b/>')).toThrow(/after the root/);
    expect(parseXml('<a x="&lt;&#10;">t&amp;t<b/></a>')).toEqual({ name: 'a', attrs: { x: '<\n' }, text: 't&t', children: [{ name: 'b', attrs: {}, text: '', children: [] }] });
  });
});

describe('renderJUnit', () => {
  const result = failingRun();
  const root = parseXml(renderJUnit(result));
  const cases = all(root, 'testcase');

  it('has one testsuite per area and one testcase per check', () => {
    expect(root.name).toBe('testsuites');
    expect(all(root, 'testsuite').map((s) => s.attrs.name).sort()).toEqual([...new Set(result.checks.map((c) => c.area))].sort());
    expect(cases).toHaveLength(result.checks.length);
  });

  it('maps outcomes: fail → failure, warn → passed with system-out, skip and not run → skipped, error → error', () => {
    expect(all(root, 'failure')).toHaveLength(1);
    expect(all(root, 'skipped')).toHaveLength(4);
    expect(all(root, 'error')).toHaveLength(1);
    const warn = cases.find((c) => c.attrs.name.startsWith('[ERR-5]'))!;
    expect(warn.children.map((c) => c.name)).toEqual(['system-out']);
    expect(warn.children[0].text).toContain('SHOULD warning');
    expect(root.attrs).toMatchObject({ tests: '8', failures: '1', errors: '1', skipped: '4' });
    for (const suite of all(root, 'testsuite')) {
      const mine = all(suite, 'testcase');
      expect(suite.attrs.tests).toBe(String(mine.length));
      expect(suite.attrs.failures).toBe(String(all(suite, 'failure').length));
      expect(suite.attrs.skipped).toBe(String(all(suite, 'skipped').length));
      expect(suite.attrs.errors).toBe(String(all(suite, 'error').length));
    }
  });

  it('names each testcase by its requirement ids, with the area as classname', () => {
    expect(cases.map((c) => c.attrs.name)).toContain('[WORLD-1] creates a world and answers with its id');
    for (const suite of all(root, 'testsuite')) {
      for (const c of all(suite, 'testcase')) {
        expect(c.attrs.name).toMatch(/^\[[A-Z]+-\d+(, [A-Z]+-\d+)*\] /);
        expect(c.attrs.classname).toBe(suite.attrs.name);
      }
    }
  });

  it('puts the rendered failure in <failure>, and the reason in <skipped>', () => {
    const failure = all(root, 'failure')[0];
    expect(failure.attrs.type).toBe('MUST AUTH-2');
    expect(failure.attrs.message).toContain('expected 401 UNAUTHORIZED, got 200');
    expect(failure.text).toMatch(/^✗ \[AUTH-2\][\s\S]*Expected: 401\n[\s\S]*Reproduce with:\n {4}curl .*"X-API-Key: \$API_KEY"/);
    expect(failure.text).toContain('"name": "<script>alert(1)</script>"'); // escaped in the file, intact once parsed
    expect(all(root, 'skipped').map((s) => s.attrs.message)).toContain('not run: needs --second-key');
  });

  it('carries runId, target and embedded as properties', () => {
    const props = Object.fromEntries(all(all(root, 'testsuite')[0], 'property').map((p) => [p.attrs.name, p.attrs.value]));
    expect(props).toMatchObject({ runId: result.runId, target: result.target.baseUrl, embedded: 'false' });
  });

  it('escapes markup and quotes, and drops characters XML 1.0 forbids', () => {
    const title = `a & b < c > d "e" 'f' ]]> g\uD800\uFFFE\u{1F600}`;
    const xml = renderJUnit(run([check('worlds', ['WORLD-1'], title, 'not-run', { reason: `needs "--x" <y>\nand & z` })], [], 0));
    const c = all(parseXml(xml), 'testcase')[0];
    expect(c.attrs.name).toBe(`[WORLD-1] a & b < c > d "e" 'f' ]]> g\u{1F600}`);
    expect(c.children[0].attrs.message).toBe('not run: needs "--x" <y>\nand & z');
  });
});

describe('the name of a check that covers many requirements', () => {
  it('lists up to four ids; beyond that the first two and how many more', () => {
    const ids = ['MODEL-1', 'WORLD-1', 'WORLD-6', 'ERR-1', 'ERR-4', 'PERS-3', 'SIM-1'] as const;
    const four = check('model', [...ids.slice(0, 4)], 'random sequences', 'pass');
    const seven = check('model', [...ids], 'random sequences', 'pass');
    const names = all(parseXml(renderJUnit(run([four, seven], [], 0))), 'testcase').map((c) => c.attrs.name);
    expect(names).toEqual(['[MODEL-1, WORLD-1, WORLD-6, ERR-1] random sequences', '[MODEL-1, WORLD-1 and 5 more] random sequences']);
  });
});
