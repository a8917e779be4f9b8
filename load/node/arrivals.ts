// Open-model arrivals: request k is sent when the schedule says, whether or not earlier requests
// have been answered. Timers alone are too coarse (setTimeout has millisecond granularity), so the
// loop sleeps on a timer for the whole milliseconds before the next due time and yields with
// setImmediate for the rest, which also lets responses be processed meanwhile. The yielding is a
// busy wait: kept under a millisecond per arrival, since on a small machine every cycle it burns
// is taken from the target being measured (a few ms per arrival at 80 req/s is a third of a core).

export interface ArrivalOptions {
  /** Requests to send. */
  count: number;
  /** When request k is due, ms after the start. */
  dueAt(k: number): number;
  /** Sends request k; must not block (start the request, do not await it). Both times on the clock `now`. */
  fire(k: number, dueMs: number, firedMs: number): void;
  signal?: AbortSignal;
  /**
   * The clock, ms, whose zero is the schedule's: dueAt and the times given to fire are on it, so
   * that the caller measures everything from one origin. Default: ms since the call.
   */
  now?: () => number;
}

/** Bounds the work done between two yields when far behind, so responses still get read. */
const MAX_BATCH = 256;
/** Below this wait the loop yields instead of sleeping: a timer cannot be set finer. */
const TIMER_MIN_MS = 1;

/**
 * Resolves with the start time (on the clock) and how many requests were sent. Never fires a
 * request before it is due. Callbacks rather than an async loop: at tens of thousands of
 * arrivals a second, a promise per turn of the loop is a cost the runner's capacity pays
 * (bench/load.ts).
 */
export function dispatchArrivals(o: ArrivalOptions): Promise<{ startedAt: number; sent: number }> {
  const origin = performance.now();
  const now = o.now ?? (() => performance.now() - origin);
  const startedAt = now();
  let k = 0;
  return new Promise((resolve, reject) => {
    const step = () => {
      try {
        const t = now();
        for (let batch = 0; k < o.count && batch < MAX_BATCH; batch++) {
          const due = o.dueAt(k);
          if (due > t) break;
          o.fire(k, due, now());
          k++;
        }
        if (k >= o.count || o.signal?.aborted) return resolve({ startedAt, sent: k });
        const wait = o.dueAt(k) - now();
        if (wait >= TIMER_MIN_MS) setTimeout(step, Math.floor(wait));
        else setImmediate(step);
      } catch (err) {
        reject(err);
      }
    };
    if (o.signal?.aborted) resolve({ startedAt, sent: 0 });
    else step();
  });
}
