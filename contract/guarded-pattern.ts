// A served document's `pattern` is run on what the target answers, and both come from the target:
// `^(a+)+$` on 40 letters and a "!" backtracks for hours (ajv's patterns are JavaScript RegExps with
// the u flag, which V8's linear-time fallback does not cover in Node 20). So a long string is matched
// in a worker thread while the caller waits, at most PATTERN_BUDGET_MS; past it the worker is
// stopped and the match throws PatternTooSlow, which the validator reports as "not checked" (never
// a pass, never a failure: the deployment may be right). The RegExp is the same, so is the verdict.
import { Worker } from 'node:worker_threads';

/** The longest a single match may take. A pattern that took longer once is not tried again. */
export const PATTERN_BUDGET_MS = 2_000;
/** Shorter strings are matched here: at most about 2^20 steps of backtracking, milliseconds. */
const SHORT = 20;
/** After this many matches past the budget, no long string is matched against any pattern again. */
const GIVE_UP_AFTER = 3;

export class PatternTooSlow extends Error {
  constructor(readonly pattern: string, readonly length: number, why: string) {
    super(`its pattern '${pattern.slice(0, 80)}' ${why} on a string of ${length} characters: not checked`);
  }
}

// The worker says it is ready in cell 1, then compiles each pattern once and answers in cell 0:
// 1 match, 2 no match, 3 error.
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const ready = new Int32Array(workerData);
Atomics.store(ready, 1, 1);
Atomics.notify(ready, 1);
const compiled = new Map();
parentPort.on('message', ({ cell, pattern, flags, text }) => {
  const state = new Int32Array(cell);
  let answer = 3;
  try {
    const key = flags + '/' + pattern;
    let rx = compiled.get(key);
    if (!rx) { if (compiled.size > 1000) compiled.clear(); compiled.set(key, (rx = new RegExp(pattern, flags))); }
    answer = rx.test(text) ? 1 : 2;
  } catch {}
  Atomics.store(state, 0, answer);
  Atomics.notify(state, 0);
});`;

let worker: Worker | undefined;
const cell = new SharedArrayBuffer(8);
/** How long a new worker may take to start (a busy machine): not counted in a match's budget. */
const START_MS = 30_000;
const state = new Int32Array(cell);
const tooSlow = new Set<string>();
let overruns = 0;

/** Patterns found too slow are counted per document: a thread that reads another one starts afresh. */
export function forgetSlowPatterns(): void {
  tooSlow.clear();
  overruns = 0;
}

function matchAside(pattern: string, flags: string, text: string): boolean {
  if (tooSlow.has(`${flags}/${pattern}`)) throw new PatternTooSlow(pattern, text.length, `took over ${PATTERN_BUDGET_MS} ms before`);
  if (overruns >= GIVE_UP_AFTER) throw new PatternTooSlow(pattern, text.length, `was not tried: ${overruns} patterns of this document took over ${PATTERN_BUDGET_MS} ms`);
  if (!worker) {
    Atomics.store(state, 1, 0);
    worker = new Worker(SOURCE, { eval: true, workerData: cell });
    worker.unref();
    if (Atomics.wait(state, 1, 0, START_MS) === 'timed-out') {
      void worker.terminate();
      worker = undefined;
      throw new PatternTooSlow(pattern, text.length, `was not tried: no thread to match it in started within ${START_MS} ms`);
    }
  }
  Atomics.store(state, 0, 0);
  worker.postMessage({ cell, pattern, flags, text });
  if (Atomics.wait(state, 0, 0, PATTERN_BUDGET_MS) === 'timed-out') {
    void worker.terminate(); // stops the match in progress; the next long string gets a new worker
    worker = undefined;
    overruns++;
    tooSlow.add(`${flags}/${pattern}`);
    throw new PatternTooSlow(pattern, text.length, `took over ${PATTERN_BUDGET_MS} ms`);
  }
  const answer = Atomics.load(state, 0);
  if (answer === 3) throw new PatternTooSlow(pattern, text.length, 'could not be run');
  return answer === 1;
}

/**
 * ajv's `code.regExp`: the RegExp JavaScript would make (so an invalid pattern is refused when the
 * schema compiles, as before), with `test` matching a long string aside, in bounded time.
 */
export function guardedRegExp(pattern: string, flags: string): { test(text: string): boolean; toString(): string } {
  const native = new RegExp(pattern, flags);
  return {
    test: (text: string) => (text.length < SHORT ? native.test(text) : matchAside(pattern, flags, text)),
    toString: () => native.toString(),
  };
}
