// Per-key rate limiting on top of @fastify/rate-limit (fixed window per key, in-memory).
import rateLimit from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import { ApiError, type AnyFastifyInstance } from './errors.ts';
import type { KeyRegistry } from './keys.ts';

export interface RateLimitOptions {
  /** Window length; the interface says per minute, tests shorten it. The budget per window is the key's rpm. */
  windowMs?: number;
}

/**
 * Slack added before rounding Retry-After up to whole seconds. The library's own value, ceil(ttl/1000),
 * is exact, so when the remaining ttl is a whole number of seconds (a 2 s window exceeded at once) a
 * client that sleeps exactly that long arrives on the boundary, where a timer firing a millisecond
 * early relative to Date.now() still sees the old window. The margin keeps Retry-After true.
 */
export const RETRY_AFTER_MARGIN_MS = 50;

export function retryAfterSeconds(ttlMs: number): number {
  return Math.max(1, Math.ceil((ttlMs + RETRY_AFTER_MARGIN_MS) / 1000));
}

function describeWindow(windowMs: number): string {
  if (windowMs === 60_000) return 'minute';
  if (windowMs % 60_000 === 0) return `${windowMs / 60_000} minutes`;
  return `${windowMs / 1000} seconds`;
}

/**
 * Registers @fastify/rate-limit globally, keyed by API key, with the key's rpm as budget.
 * Must be awaited before routes are declared: the limiter attaches itself to routes in onRoute.
 */
export async function registerRateLimit(
  app: AnyFastifyInstance,
  registry: KeyRegistry,
  { windowMs = 60_000 }: RateLimitOptions = {},
): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    // Route-level onRequest hooks run after every instance-level onRequest hook, so this runs
    // after auth: unauthenticated or wrong-origin requests are answered 401/403 and never counted,
    // while over-budget requests are still refused before their body is read and parsed.
    hook: 'onRequest',
    timeWindow: windowMs,
    max: (request: FastifyRequest) => request.principal.rpm,
    keyGenerator: (request: FastifyRequest) => request.principal?.key.key ?? '',
    // No principal means auth did not run: public route, preflight, unknown route, 405 helper.
    allowList: (request: FastifyRequest) => request.principal == null,
    // The LRU evicts (and so resets) counters beyond this many keys; keep it above the key count.
    cache: Math.max(10_000, registry.size * 2),
    errorResponseBuilder: (request: FastifyRequest, context: { max: number; ttl: number }) =>
      new ApiError(
        429,
        'RATE_LIMITED',
        `Rate limit of ${context.max} requests per ${describeWindow(windowMs)} exceeded for this API key; ` +
          'retry after the number of seconds in Retry-After',
        // Replaces the library's Retry-After (set just before) with the value including the margin.
        { headers: { 'Retry-After': String(retryAfterSeconds(context.ttl)) } },
      ),
  });
}
