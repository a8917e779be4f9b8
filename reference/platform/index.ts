// The platform layer of the reference deployment: errors, CORS, API keys, rate limits.
import { registerAuth } from './auth.ts';
import { registerCors } from './cors.ts';
import { registerErrorHandling, type AnyFastifyInstance } from './errors.ts';
import type { KeyRegistry } from './keys.ts';
import { registerRateLimit } from './rate-limit.ts';

export interface PlatformOptions {
  registry: KeyRegistry;
  /** Rate-limit window, default one minute; tests shorten it. */
  rateLimitWindowMs?: number;
}

/**
 * Installs the platform on `app`. Await it BEFORE declaring routes, and call
 * registerMethodNotAllowed(app, routes) AFTER them. Order, and why:
 *  1. error handling: the error and not-found handlers must be in place for everything below.
 *  2. CORS (instance onRequest hook): answers preflights before auth (they carry no key) and puts the
 *     CORS headers on every response, errors included, so browsers can read a 401/403/429.
 *  3. auth (instance onRequest hook, after CORS): 401/403 and request.principal.
 *  4. rate limit (ROUTE-level onRequest hook, which Fastify runs after all instance onRequest hooks):
 *     counts only authenticated requests; registered via onRoute, hence before the routes.
 */
export async function registerPlatform(app: AnyFastifyInstance, options: PlatformOptions): Promise<void> {
  registerErrorHandling(app);
  await registerCors(app);
  registerAuth(app, options.registry);
  await registerRateLimit(app, options.registry, { windowMs: options.rateLimitWindowMs });
}

export { registerAuth, isPreflight, API_KEY_HEADER, type Principal } from './auth.ts';
export { registerCors, CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS, CORS_METHODS } from './cors.ts';
export {
  ApiError,
  ERROR_CODES,
  DEFAULT_BODY_LIMIT,
  describeValidationIssue,
  fastifyServerOptions,
  registerErrorHandling,
  registerMethodNotAllowed,
  type AnyFastifyInstance,
  type ErrorCode,
  type ErrorEnvelope,
} from './errors.ts';
export {
  KeyRegistry,
  KeyRecordSchema,
  PLAN_RPM,
  PLANS,
  loadKeyFile,
  normaliseOrigin,
  validateKeyRecord,
  type KeyRecord,
  type Plan,
} from './keys.ts';
export { PLAN_QUOTAS, QUOTA_NAMES, quotasOf, type Quotas } from './quotas.ts';
export { registerRateLimit, retryAfterSeconds, RETRY_AFTER_MARGIN_MS, type RateLimitOptions } from './rate-limit.ts';
