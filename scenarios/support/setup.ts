// Vitest setup file of the scenarios: after each test its exchanges go into the test's metadata.
import { afterAll, afterEach } from 'vitest';
import { take } from './recorder.ts';
import type { Exchange } from './exchange.ts';

declare module 'vitest' {
  interface TaskMeta {
    exchanges?: Exchange[];
    /** Set when a prerequisite is missing: the test is reported "not run" with the flag that enables it. */
    notRun?: string;
  }
}

afterEach((ctx) => {
  ctx.task.meta.exchanges = [...(ctx.task.meta.exchanges ?? []), ...take()];
});

// Exchanges no test took: those of a beforeAll that failed (the file's tests then never run) and of
// afterAll hooks. They go to the file, where the reporter finds them: the per-response checks
// (ENV-1…CONTRACT-2) still judge them.
afterAll(({}, suite) => {
  const left = take();
  if (left.length) suite.meta.exchanges = [...(suite.meta.exchanges ?? []), ...left];
});
