// Faults of rate limits (RATE-1..7): the reference's own 429s rewritten, or faulty limiters in front of
// it (../limiters.ts), the ways real limiters get "per key", "the plan's requests per minute" and
// "Retry-After with the seconds to wait" wrong. Counted in the embedded reference's window (the free
// plan's 100 a window of 3 s).
import type { Fault } from '../faults.ts';
import { EMBEDDED_RATE_WINDOW_MS } from '../../../contract/plans.ts';
import { json, keyOf, renameCode } from './helpers.ts';
import { clockWindow, fixedWindow, FREE, proxyLimiter, WINDOW_MS } from '../limiters.ts';

/** A free-plan key limited at `limit` a window instead of 100, first-request windows as the reference's. */
const limitedAt = (limit: number) => proxyLimiter(() => fixedWindow(limit));

export const FAULTS: Fault[] = [
  {
    id: 'rate-limited-renamed', areas: ['rate-limit'], expected: ['RATE-1'],
    description: 'RATE_LIMITED is renamed TOO_MANY_REQUESTS',
    response: renameCode('RATE_LIMITED', 'TOO_MANY_REQUESTS'),
  },
  {
    id: 'rate-limit-not-enforced', areas: ['rate-limit'], expected: ['RATE-1'],
    description: "the free-plan key's requests are never limited (forwarded as an unlimited key)",
    request: (req, ctx) => { if (keyOf(req) === ctx.keys.rateLimitKey) req.headers['x-api-key'] = ctx.keys.mainKey; },
  },
  {
    id: 'rate-limited-plain-text', areas: ['rate-limit'], expected: ['RATE-1'],
    description: 'a 429 of the limiter in front is text/plain "Too Many Requests" (with a true Retry-After), not RATE_LIMITED',
    ...proxyLimiter(() => fixedWindow(FREE), {
      refusal: (after) => ({ status: 429, headers: { 'content-type': 'text/plain; charset=utf-8', 'retry-after': after }, body: 'Too Many Requests' }),
    }),
  },
  {
    id: 'retry-after-missing', areas: ['rate-limit'], expected: ['RATE-2'],
    description: '429 answers lose Retry-After',
    response: (res) => { if (res.status === 429) delete res.headers['retry-after']; },
  },
  {
    id: 'retry-after-zero', areas: ['rate-limit'], expected: ['RATE-3'],
    description: '429 answers say Retry-After: 0 (a lie: the window is still closed)',
    response: (res) => { if (res.status === 429) res.headers['retry-after'] = '0'; },
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
  {
    id: 'rate-limit-half-the-plan', areas: ['rate-limit'], expected: ['RATE-4'],
    description: 'the free-plan key is limited at 50 requests a window instead of 100',
    answer: (req, ctx) => {
      if (keyOf(req) !== ctx.keys.rateLimitKey) return undefined;
      const now = Date.now();
      const w = (ctx.state.get('window') as { start: number; count: number } | undefined) ?? { start: now, count: 0 };
      if (now - w.start >= EMBEDDED_RATE_WINDOW_MS) { w.start = now; w.count = 0; }
      w.count += 1;
      ctx.state.set('window', w);
      if (w.count <= 50) return undefined;
      return json(429, { error: { code: 'RATE_LIMITED', message: 'fault: limited' } }, { 'retry-after': String(Math.max(1, Math.ceil((w.start + EMBEDDED_RATE_WINDOW_MS - now) / 1000))) });
    },
  },
  {
    id: 'rate-limit-per-second', areas: ['rate-limit'], expected: ['RATE-4', 'RATE-1'], expectedLabel: 'RATE-4 or RATE-1',
    // Sent faster than 100 a second the key meets the 429s and RATE-4 counts three windows' worth in one;
    // slower, it never does, and RATE-1 finds more accepted than any limit of 100 a window accepts.
    description: "the free plan's 100 counted a second instead of a window (a minute: 60 times too lenient)",
    ...proxyLimiter(() => clockWindow(FREE, 1_000)),
  },
  {
    id: 'rate-limit-twice-the-plan', areas: ['rate-limit'], expected: ['RATE-4', 'RATE-1'], expectedLabel: 'RATE-4 or RATE-1',
    // Fast, the burst after the wait counts 200 in a row (RATE-4); slower than 200 a window, no 429 ever
    // comes and RATE-1 finds more accepted than any limit of 100 a window accepts.
    description: 'the free-plan key is limited at 200 requests a window instead of 100',
    ...limitedAt(2 * FREE),
  },
  {
    // Caught whatever the machine's speed: only answers that came before the counted window's end
    // count, and the window began no sooner than the request that opened it (scenarios/support/rate-window.ts).
    id: 'rate-limit-one-under-tolerance', areas: ['rate-limit'], expected: ['RATE-4'],
    description: 'the free-plan key is limited at 89 a window: one under the tenth the suite tolerates',
    ...limitedAt(Math.floor(0.9 * FREE) - 1),
  },
  {
    id: 'rate-limit-one-over-tolerance', areas: ['rate-limit'], expected: ['RATE-4'],
    description: 'the free-plan key is limited at 111 a window: one over the tenth the suite tolerates',
    ...limitedAt(Math.floor(1.1 * FREE) + 1),
  },
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
  {
    id: 'main-key-limited-below-plan', areas: ['rate-limit'], expected: ['RATE-6'],
    description: 'the main key is limited at 4 requests a window, far below its plan (each 429 honest: a client that waits them out only gets slower)',
    ...proxyLimiter(() => fixedWindow(4), { bucketOf: (req, ctx) => (keyOf(req) === ctx.keys.mainKey ? 'main' : undefined) }),
  },
  {
    id: 'retry-after-whole-window', areas: ['rate-limit'], expected: ['RATE-7'],
    description: 'every 429 says Retry-After of the whole window, however soon the window ends',
    ...proxyLimiter(() => fixedWindow(FREE), { retryAfter: () => String(WINDOW_MS / 1000) }),
  },
];
