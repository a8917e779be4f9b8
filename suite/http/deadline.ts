// A request's deadline joined with a signal that abandons it (cleanup's, when the user presses Ctrl-C
// again). Node 20's AbortSignal.any([AbortSignal.timeout(ms), other]) holds the timeout signal only
// weakly, and a garbage collection before the deadline loses it: the request then waits forever on a
// target that never finishes its answer (nodejs/node#57736; seen as a cleanup that hung on a target
// drip-feeding its answers). Here the timer holds the controller until the deadline or `clear`.

export interface Deadline {
  signal: AbortSignal;
  /** Ends the timer once the request is done (it would otherwise keep the signal until the deadline). */
  clear(): void;
}

/** Aborts after `ms` with a TimeoutError (as AbortSignal.timeout does), or when `also` aborts, with its reason. */
export function deadline(ms: number, also?: AbortSignal): Deadline {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`no answer within ${ms} ms`, 'TimeoutError')), ms);
  const follow = () => controller.abort(also!.reason);
  if (also?.aborted) follow(); else also?.addEventListener('abort', follow, { once: true });
  return {
    signal: controller.signal,
    clear: () => { clearTimeout(timer); also?.removeEventListener('abort', follow); },
  };
}
