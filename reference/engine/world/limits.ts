// Ceilings on simulated time and on what waits for it. Without them a time ratio of 1e20 (or an
// imported elapsed time) makes `elapsed + step` round back to `elapsed`, so a tick never ends, and
// a ratio of 1e308 makes the elapsed time Infinity, which JSON can only store as null. An advance or
// a timestamp past a ceiling is refused (400) and changes nothing (docs/interface-choices.md, "Time").
import { fail } from './fail.ts';

/**
 * Simulated seconds a world may have elapsed: about 31,700 years. World time in ms (createdAt +
 * 1000·elapsed) then stays a safe integer and a valid Date, and a step of 1 ms still moves it.
 */
export const MAX_ELAPSED_SECONDS = 1e12;
/** Latest timestamp (ms) a percept or a persona's clock may carry: the last valid Date. */
export const MAX_TIMESTAMP_MS = 8.64e15;
/** Events a world, or a standalone persona, may hold for later: each costs the advance that delivers it. */
export const MAX_PENDING = 100;

/** The elapsed time after advancing by `simulated` seconds, or a 400 when it passes the ceiling. */
export function elapsedAfter(elapsed: number, simulated: number): number {
  const end = elapsed + simulated;
  if (!(end <= MAX_ELAPSED_SECONDS)) {
    throw fail('VALIDATION_ERROR', `the world's elapsed time would pass ${MAX_ELAPSED_SECONDS} simulated seconds (seconds × time.ratio is too large)`);
  }
  return end;
}

export function timestampOrFail(timestamp: number | undefined, member = 'timestamp'): void {
  if (timestamp !== undefined && !(Math.abs(timestamp) <= MAX_TIMESTAMP_MS)) {
    throw fail('VALIDATION_ERROR', `${member} must be within ±${MAX_TIMESTAMP_MS} ms (the range of a Date)`);
  }
}

export function pendingRoomOrFail(pending: unknown[], holder: string): void {
  if (pending.length >= MAX_PENDING) {
    throw fail('VALIDATION_ERROR', `${holder} already holds ${MAX_PENDING} events for later; advance time to deliver them first`);
  }
}
