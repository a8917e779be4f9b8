// Legal rate limiters, each a proxy in front of the reference (suite/self-test/limiters.ts): the
// counts and Retry-Afters SPEC.md leaves open ("100 requests per minute per API key" says no more about
// how a minute is counted). Each must pass the rate-limit area under --strict. Counted in the embedded
// reference's window (the free plan's 100 a window of 3 s).
import type { Variant } from '../variants.ts';
import { clockWindow, fixedWindow, FREE, proxyLimiter, slidingLog, tokenBucket, WINDOW_MS } from '../limiters.ts';

const GAP = 'Limits: "Rate, plan Free: 100 requests per minute, per API key"; how the minute is counted and how Retry-After is rounded: not shown.';

export const RATE_LIMIT_VARIANTS: Variant[] = [
  {
    id: 'rate-limit-clock-windows', areas: ['rate-limit'], allowedWarnings: [], gap: GAP,
    description: "fixed windows counted by the deployment's clock (each starts at a multiple of the window, shifted 1.3 s from the suite's), not from the key's first request",
    ...proxyLimiter(() => clockWindow(FREE, WINDOW_MS, 1_300), { countApplied: true }),
  },
  {
    id: 'rate-limit-sliding-log', areas: ['rate-limit'], allowedWarnings: [], gap: GAP,
    description: 'at most 100 requests in any span of a window (a log of accepted requests), Retry-After until the oldest leaves it',
    ...proxyLimiter(() => slidingLog(FREE), { countApplied: true }),
  },
  {
    id: 'rate-limit-token-bucket', areas: ['rate-limit'], allowedWarnings: [], gap: GAP,
    description: 'a token bucket of 100, refilled at 100 a window (one every 30 ms), Retry-After until the next token',
    ...proxyLimiter(() => tokenBucket(FREE), { countApplied: true }),
  },
  {
    id: 'rate-limit-retry-after-exact-ceiling', areas: ['rate-limit'], allowedWarnings: [], gap: GAP,
    description: 'Retry-After is the wait rounded up to whole seconds with no margin (1 for 1 ms, 3 for exactly 3 s), first-request windows',
    ...proxyLimiter(() => fixedWindow(FREE), { countApplied: true, retryAfter: (ms) => String(Math.max(1, Math.ceil(ms / 1000))) }),
  },
];
