// Vitest setup file of the scenarios: after each check its exchanges go into the check's metadata.
import { afterAll, afterEach } from 'vitest';
import { take } from '../http/recorder.ts';
import './check.ts';
import { loadRunDocuments } from '../checks/documents.ts';

// Top-level await: every scenario file reads the documents synchronously afterwards.
await loadRunDocuments();

afterEach((ctx) => {
  ctx.task.meta.exchanges = [...(ctx.task.meta.exchanges ?? []), ...take()];
});

// Exchanges no check took: those of a beforeAll that failed (the file's checks then never run) and of
// afterAll hooks. They go to the file, where the reporter finds them: the per-response checks
// (ENV-1…CONTRACT-2) still judge them.
afterAll(({}, suite) => {
  const left = take();
  if (left.length) suite.meta.exchanges = [...(suite.meta.exchanges ?? []), ...left];
});
