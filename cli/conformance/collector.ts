// A vitest reporter that turns finished tests into RawTest records and shows progress: one line per
// check as it finishes, so a long run against a paced deployment is never silent.
import type { Reporter, TestCase } from 'vitest/node';
import { basename } from 'node:path';
import type { RawTest } from './results.ts';

const MARK = { passed: '✓', failed: '✗', skipped: '-', pending: '-' } as const;

export class Collector implements Reporter {
  readonly tests: RawTest[] = [];
  readonly unhandled: string[] = [];
  constructor(private readonly print: (line: string) => void) {}

  onTestCaseResult(test: TestCase): void {
    const result = test.result();
    const meta = test.meta();
    const area = basename(test.module.moduleId).replace(/\.test\.ts$/, '');
    const errors = (result.errors ?? []).map((e) => ({
      message: String(e.message ?? ''), name: e.name, expected: e.expected as string | undefined, actual: e.actual as string | undefined,
    }));
    const raw: RawTest = {
      area, title: test.name, state: result.state, durationMs: Math.round(test.diagnostic()?.duration ?? 0), errors,
      notRun: meta.notRun, skipNote: result.state === 'skipped' ? result.note : undefined, exchanges: meta.exchanges ?? [],
    };
    this.tests.push(raw);
    this.print(`  ${MARK[result.state]} ${area}: ${test.name}${result.state === 'skipped' && result.note ? ` (${result.note})` : ''}`);
  }

  onTestRunEnd(_modules: unknown, errors: ReadonlyArray<{ message?: string }>): void {
    for (const e of errors) this.unhandled.push(String(e.message ?? e));
  }
}
