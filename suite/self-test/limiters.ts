// Rate limiters a proxy puts in front of the reference: the faulty ones (faults/rate-limit.ts) and the
// legal ones (variants/rate-limit.ts) are built from the same few counters. The proxy is the limiter
// of the keys it counts: a request it accepts from the rate-limit key goes on under the main key (same
// tenant, no tight limit), so the reference's own fixed window counts nothing of it.
import { EMBEDDED_RATE_WINDOW_MS, PLAN_RPM } from '../../contract/plans.ts';
import { applied, errorAnswer, isDocument, keyOf } from './hooks.ts';
import type { FaultContext, FaultHooks, FaultRequest } from './proxy.ts';

/** A counter: undefined when a request is accepted now; else the milliseconds until one would be. */
export type Limiter = (now: number) => number | undefined;

/** The free plan (the embedded rate-limit key's) in the embedded reference's window. */
export const FREE = PLAN_RPM.free;
export const WINDOW_MS = EMBEDDED_RATE_WINDOW_MS;

/** `limit` a window that begins with the first request after the last one ended (as the reference counts). */
export function fixedWindow(limit: number, windowMs = WINDOW_MS): Limiter {
  let start = -Infinity, count = 0;
  return (now) => {
    if (now - start >= windowMs) { start = now; count = 0; }
    if (count < limit) { count += 1; return undefined; }
    return start + windowMs - now;
  };
}

/** `limit` a window, windows aligned on the deployment's clock (multiples of the window, shifted by `offsetMs`). */
export function clockWindow(limit: number, windowMs = WINDOW_MS, offsetMs = 0): Limiter {
  let current = NaN, count = 0;
  return (now) => {
    const index = Math.floor((now - offsetMs) / windowMs);
    if (index !== current) { current = index; count = 0; }
    if (count < limit) { count += 1; return undefined; }
    return (index + 1) * windowMs + offsetMs - now;
  };
}

/** At most `limit` in any span of a window (a log of the accepted requests). */
export function slidingLog(limit: number, windowMs = WINDOW_MS): Limiter {
  let log: number[] = [];
  return (now) => {
    log = log.filter((t) => now - t < windowMs);
    if (log.length < limit) { log.push(now); return undefined; }
    return log[0] + windowMs - now;
  };
}

/** A token bucket: `capacity` tokens, refilled at `capacity` a window, one a request. */
export function tokenBucket(capacity: number, windowMs = WINDOW_MS): Limiter {
  const perMs = capacity / windowMs;
  let tokens = capacity, at = -Infinity;
  return (now) => {
    tokens = Math.min(capacity, tokens + (now - (at === -Infinity ? now : at)) * perMs);
    at = now;
    if (tokens >= 1) { tokens -= 1; return undefined; }
    return (1 - tokens) / perMs;
  };
}

/** Retry-After as the reference writes it: the wait rounded up to whole seconds, 50 ms of margin, at least 1. */
export const honestSeconds = (ms: number) => String(Math.max(1, Math.ceil((ms + 50) / 1000)));

export interface ProxyLimiterOptions {
  /** One counter per name; the counter a request goes to (undefined: not limited by the proxy). Default: the rate-limit key's own. */
  bucketOf?: (req: FaultRequest, ctx: FaultContext) => string | undefined;
  /** The Retry-After of a refusal `ms` before a request would be accepted (default: honest seconds). */
  retryAfter?: (ms: number) => string;
  /** The refusal itself (default: 429 RATE_LIMITED with that Retry-After). */
  refusal?: (retryAfter: string) => ReturnType<typeof errorAnswer>;
  /** Counts the refusals as the choice showing (legal variants). */
  countApplied?: boolean;
}

/** The rate-limit key's requests go to its own counter; the others pass. */
export const rateKeyOnly = (req: FaultRequest, ctx: FaultContext) => (ctx.keys.rateLimitKey && keyOf(req) === ctx.keys.rateLimitKey ? 'rate' : undefined);

/** Proxy hooks limiting with a counter per bucket made by `make`. */
export function proxyLimiter(make: () => Limiter, o: ProxyLimiterOptions = {}): FaultHooks {
  const bucketOf = o.bucketOf ?? rateKeyOnly;
  const retryAfter = o.retryAfter ?? honestSeconds;
  const refusal = o.refusal ?? ((after: string) => errorAnswer(429, 'RATE_LIMITED', 'rate limit exceeded for this API key', { 'retry-after': after }));
  return {
    answer(req, ctx) {
      if (isDocument(req)) return undefined;
      const bucket = bucketOf(req, ctx);
      if (bucket === undefined) return undefined;
      const counters = (ctx.state.get('limiters') as Map<string, Limiter> | undefined) ?? new Map<string, Limiter>();
      ctx.state.set('limiters', counters);
      if (!counters.has(bucket)) counters.set(bucket, make());
      const wait = counters.get(bucket)!(Date.now());
      if (wait !== undefined) {
        if (o.countApplied) applied(ctx);
        return refusal(retryAfter(wait));
      }
      // Accepted: the reference serves it under a key of the same tenant that it does not limit tightly.
      if (keyOf(req) === ctx.keys.rateLimitKey) req.headers['x-api-key'] = ctx.keys.mainKey;
      return undefined;
    },
  };
}
