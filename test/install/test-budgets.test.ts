// The tests' time budgets scale with the machine (test/budget.ts): a fixed 30/60/120 s budget for a
// step that starts a process fails `npm test` on a busy machine, where each start takes several times
// longer. This test fails when a test file gives a test, a hook or a child process a literal budget of
// 10 s or more instead of budget(…), and checks the scaling itself.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { slowness } from '../budget.ts';

const TEST = fileURLToPath(new URL('../', import.meta.url));
const files = (dir: string): string[] => readdirSync(dir, { withFileTypes: true })
  .flatMap((e) => (e.isDirectory() ? (e.name === 'fixtures' ? [] : files(join(dir, e.name))) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));

describe('the time budgets of the tests', () => {
  it('are never a literal of 10 s or more for a test, a hook or a child process', () => {
    const fixed: string[] = [];
    for (const file of files(TEST)) {
      readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
        for (const m of line.matchAll(/(?:\}, |\btimeout: )(\d[\d_]*)\b/g)) {
          const ms = Number(m[1].replace(/_/g, ''));
          // A setTimeout's delay (`}, 5_000)` after a callback) is not a budget of the test runner.
          if (ms >= 10_000 && !/setTimeout\(/.test(line)) fixed.push(`${file.slice(TEST.length)}:${i + 1}: ${line.trim()}`);
        }
      });
    }
    expect(fixed).toEqual([]);
  });

  it('grow with the load average per core, from 1 to 8 times', () => {
    const given = process.env.TEST_SLOWNESS;
    delete process.env.TEST_SLOWNESS;
    try {
      expect(slowness(0.5, 2)).toBe(1);
      expect(slowness(8, 2)).toBe(4);
      expect(slowness(64, 2)).toBe(8);
    } finally {
      if (given !== undefined) process.env.TEST_SLOWNESS = given;
    }
  });
});
