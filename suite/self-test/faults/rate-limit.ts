// Faulty rate limiters, each a proxy in front of the reference (suite/self-test/limiters.ts) or a
// rewrite of the reference's own 429s: the ways real limiters get SPEC.md's "per key", "the plan's
// requests per minute" and "Retry-After with the seconds to wait" wrong. Counted in the embedded
// reference's window (the free plan's 100 a window of 3 s).
import type { Fault } from '../faults.ts';
import { keyOf } from '../hooks.ts';
import { clockWindow, fixedWindow, FREE, proxyLimiter, WINDOW_MS } from '../limiters.ts';

/** A free-plan key limited at `limit` a window instead of 100, first-request windows as the reference's. */
const limitedAt = (limit: number) => proxyLimiter(() => fixedWindow(limit));

export const RATE_LIMIT_FAULTS: Fault[] = [
  // ---- Not per key ----
  {
    id: 'rate-limit-per-ip', areas: ['rate-limit'], expected: ['RATE-5'],
    description: "one limiter of the free plan's number for every request from the client's address, whatever its key (middleware's default)",
    ...proxyLimiter(() => fixedWindow(FREE), { bucketOf: () => 'address' }),
  },
  {
    id: 'rate-limit-per-tenant', areas: ['rate-limit'], expected: ['RATE-5'],
    description: 'the keys of one tenant share one limiter of the free plan (the main key is refused with the rate-limit key)',
    ...proxyLimiter(() => fixedWindow(FREE), { bucketOf: (req, ctx) => (keyOf(req) === ctx.keys.secondKey ? 'tenant-second' : 'tenant-main') }),
  },

  // ---- The plan's number ----
  {
    id: 'rate-limit-per-second', areas: ['rate-limit'], expected: ['RATE-4', 'RATE-1'],
    // Sent faster than 100 a second the key meets the 429s and RATE-4 counts three windows' worth in one;
    // slower, it never does, and RATE-1 finds more accepted than any limit of 100 a window accepts.
    description: "the free plan's 100 counted a second instead of a window (a minute: 60 times too lenient)",
    ...proxyLimiter(() => clockWindow(FREE, 1_000)),
  },
  {
    id: 'rate-limit-twice-the-plan', areas: ['rate-limit'], expected: ['RATE-4', 'RATE-1'],
    // Fast, the burst after the wait counts 200 in a row (RATE-4); slower than 200 a window, no 429 ever
    // comes and RATE-1 finds more accepted than any limit of 100 a window accepts.
    description: 'the free-plan key is limited at 200 requests a window instead of 100',
    ...limitedAt(2 * FREE),
  },
  {
    id: 'rate-limit-one-over-tolerance', areas: ['rate-limit'], expected: ['RATE-4'],
    description: 'the free-plan key is limited at 111 a window: one over the tenth the suite tolerates',
    ...limitedAt(Math.floor(1.1 * FREE) + 1),
  },
  {
    // Caught whatever the machine's speed: only answers that came before the counted window's end
    // count, and the window began no sooner than the request that opened it (scenarios/support/rate-window.ts).
    id: 'rate-limit-one-under-tolerance', areas: ['rate-limit'], expected: ['RATE-4'],
    description: 'the free-plan key is limited at 89 a window: one under the tenth the suite tolerates',
    ...limitedAt(Math.floor(0.9 * FREE) - 1),
  },
  // ---- Retry-After ----
  {
    id: 'retry-after-whole-window', areas: ['rate-limit'], expected: ['RATE-7'],
    description: 'every 429 says Retry-After of the whole window, however soon the window ends',
    ...proxyLimiter(() => fixedWindow(FREE), { retryAfter: () => String(WINDOW_MS / 1000) }),
  },
  {
    id: 'retry-after-an-hour', areas: ['rate-limit'], expected: ['RATE-3'],
    description: 'every 429 says Retry-After: 3600 for a limit counted per window',
    ...proxyLimiter(() => fixedWindow(FREE), { retryAfter: () => '3600' }),
  },
  {
    id: 'retry-after-milliseconds', areas: ['rate-limit'], expected: ['RATE-3'],
    description: 'Retry-After gives the wait in milliseconds',
    ...proxyLimiter(() => fixedWindow(FREE), { retryAfter: (ms) => String(Math.max(1, Math.ceil(ms))) }),
  },

  // ---- The refusal ----
  {
    id: 'rate-limited-plain-text', areas: ['rate-limit'], expected: ['RATE-1'],
    description: 'a 429 of the limiter in front is text/plain "Too Many Requests" (with a true Retry-After), not RATE_LIMITED',
    ...proxyLimiter(() => fixedWindow(FREE), {
      refusal: (after) => ({ status: 429, headers: { 'content-type': 'text/plain; charset=utf-8', 'retry-after': after }, body: 'Too Many Requests' }),
    }),
  },

  // ---- The main key ----
  {
    id: 'main-key-limited-below-plan', areas: ['rate-limit'], expected: ['RATE-6'],
    description: 'the main key is limited at 4 requests a window, far below its plan (each 429 honest: a client that waits them out only gets slower)',
    ...proxyLimiter(() => fixedWindow(4), { bucketOf: (req, ctx) => (keyOf(req) === ctx.keys.mainKey ? 'main' : undefined) }),
  },
];
