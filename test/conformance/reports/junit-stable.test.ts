// CI tracks a test by its JUnit name (history, flaky-test detection): two identical runs must name
// their testcases alike. Neither a count nor an id of the run may be in a name: per-response rows
// once said "(createWorld, 37 responses)", and the generated area's random seed moves such counts.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { conformance } from '../run-cli.ts';
import { parseXml, type XmlElement } from './xml.ts';
import { budget } from '../../budget.ts';

const dir = mkdtempSync(join(tmpdir(), 'junit-stable-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const testcases = (e: XmlElement): string[] => (e.name === 'testcase' ? [`${e.attrs.classname} › ${e.attrs.name}`] : e.children.flatMap(testcases));

async function names(label: string): Promise<string[]> {
  const reports = join(dir, label);
  // No --seed: each run draws its own, as two CI runs would.
  const run = await conformance(['--only', 'worlds,generated', '--generated', '40', '--report-dir', reports]);
  expect(run.code, run.stdout.slice(-2000) + run.stderr).toBe(0);
  return testcases(parseXml(readFileSync(join(reports, 'junit.xml'), 'utf8'))).sort();
}

describe('JUnit testcase names', () => {
  it('are the same in two identical embedded runs, and carry no count', async () => {
    const first = await names('first');
    const second = await names('second');
    expect(first.length).toBeGreaterThan(10);
    expect(second).toEqual(first);
    expect(first.filter((n) => /\d+ responses?\b/.test(n))).toEqual([]);
  }, budget(180_000));
});
