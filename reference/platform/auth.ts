// API-key authentication and the per-key origin allowlist.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type AnyFastifyInstance } from './errors.ts';
import { normaliseOrigin, type KeyRecord, type KeyRegistry, type Plan } from './keys.ts';

export interface Principal {
  tenantId: string;
  plan: Plan;
  rpm: number;
  key: KeyRecord;
}

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The authenticated caller. Set on every route that is not `config.public`; on public
     * routes, CORS preflights and unknown routes it is null at run time.
     */
    principal: Principal;
  }
  interface FastifyContextConfig {
    /** Route is reachable without an API key (and is not rate limited), e.g. GET /openapi.json. */
    public?: boolean;
  }
}

export const API_KEY_HEADER = 'x-api-key';

export function isPreflight(request: FastifyRequest): boolean {
  return request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
}

function checkOrigin(record: KeyRecord, originHeader: string | undefined): void {
  const allowed = record.origins ?? [];
  if (allowed.length === 0) return;
  if (originHeader === undefined) {
    throw new ApiError(
      403,
      'ORIGIN_NOT_ALLOWED',
      'This API key may only be used from its configured browser origins, and the request has no Origin header',
    );
  }
  const origin = normaliseOrigin(originHeader);
  if (origin === undefined || !allowed.includes(origin)) {
    const shown = originHeader.length > 200 ? `${originHeader.slice(0, 200)}…` : originHeader;
    throw new ApiError(
      403,
      'ORIGIN_NOT_ALLOWED',
      `Origin ${JSON.stringify(shown)} is not allowed to use this API key; it may only be used from its configured origins`,
    );
  }
}

/** Authenticates every request (onRequest hook) except public routes, preflights and unknown routes. */
export function registerAuth(app: AnyFastifyInstance, registry: KeyRegistry): void {
  // null, not an object: Fastify 5 refuses shared reference values as decorator defaults.
  // (The empty dependency list selects the typed overload that accepts null.)
  app.decorateRequest('principal', null, []);

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.routeOptions.config?.public === true) return;
    if (isPreflight(request)) return; // a preflight carries no key; @fastify/cors answers it
    // An answer that depends on the key (one tenant's world, a plan's rate-limit headers, a refusal)
    // is for that key alone: a shared cache in front (Varnish, a CDN with its stock configuration)
    // must neither keep it nor serve it to a request with another key or none.
    reply.header('cache-control', 'private, no-store');
    if (request.is404) return; // the not-found handler answers without revealing anything

    const header = request.headers[API_KEY_HEADER];
    const key = Array.isArray(header) ? header[0] : header;
    if (key === undefined || key === '') {
      throw new ApiError(401, 'UNAUTHORIZED', 'Missing API key: send it in the X-API-Key header');
    }
    const record = registry.lookup(key);
    // Never echo the key: it may be a real key sent to the wrong environment.
    if (record === undefined) throw new ApiError(401, 'UNAUTHORIZED', 'API key not recognised');

    checkOrigin(record, request.headers.origin);

    request.principal = { tenantId: record.tenantId, plan: record.plan, rpm: registry.rpmOf(record), key: record };
  });
}
