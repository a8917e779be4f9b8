// CORS for browser clients. Per-key origin allowlists are NOT enforced here: a preflight carries
// no API key, so the allowlist is checked by auth.ts on the actual request.
import cors from '@fastify/cors';
import type { AnyFastifyInstance } from './errors.ts';

export const CORS_ALLOWED_HEADERS = ['X-API-Key', 'Content-Type'];
export const CORS_EXPOSED_HEADERS = ['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
export const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

export async function registerCors(app: AnyFastifyInstance): Promise<void> {
  await app.register(cors, {
    origin: true, // reflect the request Origin (and add Vary: Origin)
    credentials: false, // auth is a header, never cookies
    methods: CORS_METHODS,
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    optionsSuccessStatus: 204,
    maxAge: 600,
    // The strict mode answers a bare OPTIONS with a text/plain 400 from inside its hook, outside
    // our error envelope; without it every OPTIONS gets the 204 with the CORS headers.
    strictPreflight: false,
    hook: 'onRequest',
  });
}
