// Legal rate limiters, each a proxy in front of the reference (suite/self-test/limiters.ts): the
// counts and Retry-Afters SPEC.md leaves open ("100 requests per minute per API key" says no more about
// how a minute is counted). Each must pass the rate-limit area under --strict. Counted in the embedded
// reference's window (the free plan's 100 a window of 3 s).
import type { Variant } from '../variants.ts';
import { EMBEDDED_RATE_WINDOW_MS, PLAN_RPM } from '../../../contract/plans.ts';
import { type FaultHooks, type FaultRequest, applied, errorAnswer, isDocument, keyOf } from './helpers.ts';
import { clockWindow, fixedWindow, FREE, proxyLimiter, slidingLog, tokenBucket, WINDOW_MS } from '../limiters.ts';

const GAP = 'Limits: "Rate, plan Free: 100 requests per minute, per API key"; how the minute is counted and how Retry-After is rounded: not shown.';

function slidingWindowHooks(limit = PLAN_RPM.free, windowMs = EMBEDDED_RATE_WINDOW_MS): FaultHooks {
  const LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
  const remainingAfter = new WeakMap<FaultRequest, number>();
  return {
    answer(req, ctx) {
      if (!ctx.keys.rateLimitKey || keyOf(req) !== ctx.keys.rateLimitKey || isDocument(req)) return undefined;
      const now = Date.now();
      const log = ((ctx.state.get('log') as number[] | undefined) ?? []).filter((t) => now - t < windowMs);
      ctx.state.set('log', log);
      if (log.length >= limit) {
        applied(ctx);
        // True: the oldest request counted leaves the window then (50 ms margin, as the reference).
        const retryAfter = Math.max(1, Math.ceil((log[0] + windowMs - now + 50) / 1000));
        return errorAnswer(429, 'RATE_LIMITED', `more than ${limit} requests in the last ${windowMs} ms`, { 'retry-after': String(retryAfter) });
      }
      log.push(now);
      // The proxy is this key's limiter: the reference serves its requests under a key of the same
      // tenant without a tight limit (its own fixed window would otherwise count them too).
      req.headers['x-api-key'] = ctx.keys.mainKey;
      remainingAfter.set(req, limit - log.length);
      return undefined;
    },
    response(res, req) {
      const remaining = remainingAfter.get(req);
      if (remaining === undefined) return;
      for (const h of LIMIT_HEADERS) delete res.headers[h];
      res.headers['x-ratelimit-limit'] = String(limit);
      res.headers['x-ratelimit-remaining'] = String(remaining);
    },
  };
}

export const VARIANTS: Variant[] = [
  {
    id: 'sliding-rate-window', areas: ['rate-limit'], allowedWarnings: [],
    description: 'the free plan\'s limit is a sliding window (at most 100 requests in any window), with a true Retry-After, instead of a fixed one',
    gap: 'Limits: "100 requests per minute … per API key"; the kind of window is not shown.',
    ...slidingWindowHooks(),
  },
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
