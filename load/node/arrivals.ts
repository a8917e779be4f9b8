// Open-model arrivals: request k is sent when the schedule says, whether or not earlier requests
// have been answered. Timers alone are too coarse (setTimeout has millisecond granularity and
// often fires a few ms late), so the loop sleeps on a timer until a few milliseconds before the
// next due time and then yields with setImmediate until it is due, which also lets responses be
// processed meanwhile.
import { setImmediate as immediate, setTimeout as sleep } from 'node:timers/promises';

export interface ArrivalOptions {
  /** Requests to send. */
  count: number;
  /** When request k is due, ms after the start. */
  dueAt(k: number): number;
  /** Sends request k; must not block (start the request, do not await it). */
  fire(k: number, dueMs: number, sentMs: number): void;
  signal?: AbortSignal;
  /** The clock, ms (tests inject one). */
  now?: () => number;
}

/** Bounds the work done between two yields when far behind, so responses still get read. */
const MAX_BATCH = 256;
/** How late a Node timer may fire on a busy machine; the rest of the wait is spent yielding. */
const TIMER_SLACK_MS = 4;

/** Resolves with the start time (on the clock) and how many requests were sent. */
export async function dispatchArrivals(o: ArrivalOptions): Promise<{ startedAt: number; sent: number }> {
  const now = o.now ?? (() => performance.now());
  const startedAt = now();
  let k = 0;
  while (k < o.count && !o.signal?.aborted) {
    const t = now() - startedAt;
    for (let batch = 0; k < o.count && batch < MAX_BATCH; batch++) {
      const due = o.dueAt(k);
      if (due > t) break;
      o.fire(k, due, now() - startedAt);
      k++;
    }
    if (k >= o.count) break;
    const wait = o.dueAt(k) - (now() - startedAt);
    if (wait > TIMER_SLACK_MS) await sleep(wait - TIMER_SLACK_MS);
    else await immediate();
  }
  return { startedAt, sent: k };
}
