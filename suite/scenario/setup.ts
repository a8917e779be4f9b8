// Vitest setup file of the scenarios: after each check its exchanges go into the check's metadata.
import { afterAll, afterEach, inject } from 'vitest';
import { getCurrentTest } from 'vitest/suite';
import { take } from '../http/recorder.ts';
import { onWait, WAIT_ANNOTATION } from '../http/waits.ts';
import './check.ts';
import { loadRunDocuments } from '../checks/documents.ts';
import { enterRun } from '../data/run-scope.ts';

// A kept thread runs run after run (suite/run/kept-thread.ts): what the last run kept is forgotten
// first. Then, with a top-level await, the documents: every scenario file reads them synchronously.
enterRun(inject('conformance').runId);
await loadRunDocuments();

// A wait inside a check reaches the command at once, as an annotation of the check (a setup's wait
// has no check to hang on, and stays quiet).
onWait((ms, why) => {
  void getCurrentTest()?.context.annotate(JSON.stringify({ ms, why }), WAIT_ANNOTATION).catch(() => undefined);
});

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
