// The self-test's runs share one scenario thread (suite/run/kept-thread.ts), and each run still
// checks its own target: the state a run keeps in the thread (its configuration, documents, pacing,
// connections) is forgotten when the next run enters it (suite/data/run-scope.ts).
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FAULTS } from '../../suite/self-test/faults.ts';
import { runMatrix } from '../../suite/self-test/matrix.ts';
import { keptThreadStarts } from '../../suite/run/kept-thread.ts';
import { budget } from '../budget.ts';

const dir = mkdtempSync(join(tmpdir(), 'conformance-kept-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const byId = (id: string) => FAULTS.find((f) => f.id === id)!;

describe('runs of a matrix in one kept scenario thread', () => {
  it('start one thread for a fault, a control and a fault, and each run judges its own proxy', async () => {
    const before = keptThreadStarts();
    // Each run has a proxy of its own: a run that read the last run's configuration would check a
    // proxy that is gone (the control would fail) or one without its fault (a fault would be missed).
    const faults = ['auth-key-case-insensitive', 'control-slow-but-correct', 'auth-key-truncated-accepted'].map(byId);
    const m = await runMatrix({ workDir: dir, faults, skipCleanRuns: true });
    expect(m.verdicts.map((v) => ({ id: v.id, caught: v.ok, error: v.error, failed: v.failed }))).toEqual([
      { id: 'auth-key-case-insensitive', caught: true, error: undefined, failed: ['AUTH-2'] },
      { id: 'control-slow-but-correct', caught: true, error: undefined, failed: [] },
      { id: 'auth-key-truncated-accepted', caught: true, error: undefined, failed: ['AUTH-2'] },
    ]);
    expect(keptThreadStarts() - before, 'threads started for three runs').toBe(1);
  }, budget(300_000));
});
