// A vitest reporter that turns finished tests into RawTest records and shows progress: one line per
// check as it finishes, so a long run against a paced deployment is never silent.
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';
import { basename } from 'node:path';
import type { RawTest } from './results.ts';

const MARK = { passed: '✓', failed: '✗', skipped: '-', pending: '-' } as const;

export class Collector implements Reporter {
  readonly tests: RawTest[] = [];
  readonly unhandled: string[] = [];
  constructor(private readonly print: (line: string) => void, private readonly started?: (vitest: Vitest) => void) {}

  onInit(vitest: Vitest): void {
    this.started?.(vitest);
  }

  onTestCaseResult(test: TestCase): void {
    const result = test.result();
    const meta = test.meta();
    const area = basename(test.module.moduleId).replace(/\.test\.ts$/, '');
    const errors = (result.errors ?? []).map((e) => ({
      message: String(e.message ?? ''), name: e.name, expected: asText(e.expected), actual: asText(e.actual),
    }));
    const raw: RawTest = {
      area, title: test.name, state: result.state, durationMs: Math.round(test.diagnostic()?.duration ?? 0), errors,
      notRun: meta.notRun, skipNote: result.state === 'skipped' ? result.note : undefined, exchanges: meta.exchanges ?? [],
    };
    this.tests.push(raw);
    this.print(`  ${MARK[result.state]} ${area}: ${test.name}${result.state === 'skipped' && result.note ? ` (${result.note})` : ''}`);
  }

  /** A scenario file that cannot load ran no check: that is a fault of the suite, never a pass. */
  onTestModuleEnd(module: TestModule): void {
    const errors = module.errors();
    if (!errors.length) return;
    // Exchanges of the file's hooks that no test took (a failed beforeAll): the per-response checks judge them.
    const exchanges = module.meta().exchanges ?? [];
    const area = basename(module.moduleId).replace(/\.test\.ts$/, '');
    this.tests.push({
      area, title: `scenario file ${basename(module.moduleId)} could not run`, state: 'failed', durationMs: 0, suiteError: true,
      errors: errors.map((e) => ({ message: String(e.message ?? e), name: e.name })), exchanges,
    });
    this.print(`  ✗ ${area}: the scenario file could not run: ${String(errors[0].message ?? '').split('\n')[0]}`);
  }

  onTestRunEnd(_modules: unknown, errors: ReadonlyArray<{ message?: string }>): void {
    for (const e of errors) this.unhandled.push(String(e.message ?? e));
  }
}

/** Assertion values as text (vitest may hand over numbers, arrays or objects). */
function asText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2) ?? String(value);
}
