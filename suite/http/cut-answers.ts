// An answer cut at --max-body-mb leaves the chunks read so far behind: up to that many megabytes of
// Buffers, outside V8's heap. V8 collects such memory by itself only once about 64 MB of it has
// grown since its last collection, so a target that answers every request with gigabytes kept each
// reading thread some 30–60 MB above its need (docs/benchmarks.md, "Memory"). That garbage is
// collected once 24 MB of it has gathered (every third cut answer at the default cap), when the
// requests that read it have let go of it. An answer too heavy to parse (`answer-weight.ts`) leaves
// its text and its chunks likewise. The price, a full collection, is paid only where a target has
// already failed.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Collected once this much of cut answers has gathered. */
export const GATHER_BYTES = 24 * 2 ** 20;
let gc: (() => void) | undefined;
let gathered = 0;
let pending = false;
let collections = 0;

/** Node gives a running program no collector to call unless asked to at start; this asks late. */
function collector(): () => void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  return gc;
}

/** Called when a connection was closed for an answer over the cap, or an answer was too heavy to parse (`bytes`, about what was read of it). */
export function releaseCutAnswer(bytes: number): void {
  gathered += bytes;
  if (pending || gathered < GATHER_BYTES) return;
  pending = true;
  gathered = 0;
  // After the reader's own reaction to the error (its catch, its record), which drops the chunks.
  setImmediate(() => {
    pending = false;
    collections++;
    collector()();
  }).unref();
}

/** How many collections cut answers have caused in this thread, and what has gathered since the last (tests). */
export const cutAnswers = () => ({ collections, gathered });
