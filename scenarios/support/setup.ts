// Vitest setup file of the scenarios: after each test its exchanges go into the test's metadata.
import { afterEach } from 'vitest';
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
