// The reference deployment as a Fastify app: platform (errors, CORS, keys, rate limits) first, then
// one route per operation of the contract, each validated with the contract's schemas.
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { COMPONENTS } from '../../contract/components.ts';
import { OPERATIONS, type Operation } from '../../contract/operations.ts';
import { buildOpenApi } from '../../contract/openapi.ts';
import { DEFAULT_BODY_LIMIT, fastifyServerOptions, quotasOf, registerMethodNotAllowed, registerPlatform, PLAN_QUOTAS, type KeyRecord, type KeyRegistry, type Quotas } from '../platform/index.ts';
import type { Store } from '../store/index.ts';
import type { Handler, ServerContext } from './context.ts';
import { WriteQueues } from './exclusive.ts';
import { SNAPSHOT_BODY_LIMIT } from './limits.ts';
import { giveWay, LargeBodyGate, refuseWhenFull } from './admission.ts';
import { worldHandlers } from './handlers/worlds.ts';
import { worldSimulationHandlers } from './handlers/world-simulation.ts';
import { worldPartHandlers } from './handlers/world-parts.ts';
import { personaHandlers } from './handlers/personas.ts';

export interface AppOptions {
  store: Store;
  registry: KeyRegistry;
  /** Rate-limit window in ms (default: SPEC.md's minute). */
  rateLimitWindowMs?: number;
  bodyLimit?: number;
  requestTimeoutMs?: number;
  logger?: boolean;
  now?: () => number;
}

const document = buildOpenApi();
const HANDLERS: Record<string, Handler> = {
  ...worldHandlers, ...worldSimulationHandlers, ...worldPartHandlers, ...personaHandlers,
  getOpenApi: () => document,
};

/** Fastify's path syntax for a contract path: /worlds/{id} → /worlds/:id. */
export const fastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** One log line per request, once it is answered (Fastify's own writes a second when it comes in). */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = { method: request.method, url: request.url, statusCode: reply.statusCode, responseTimeMs: Math.round(reply.elapsedTime) };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request');
  }
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const missing = OPERATIONS.filter((op) => !HANDLERS[op.operationId]).map((op) => op.operationId);
  if (missing.length) throw new Error(`reference: no handler for ${missing.join(', ')}`);

  const app = Fastify({ ...fastifyServerOptions({ bodyLimit: options.bodyLimit, requestTimeoutMs: options.requestTimeoutMs }), logger: options.logger ?? false, logController: new OneLinePerRequest() });
  for (const component of COMPONENTS) app.addSchema(component);
  await registerPlatform(app, { registry: options.registry, rateLimitWindowMs: options.rateLimitWindowMs });

  const ctx: ServerContext = { store: options.store, now: options.now ?? Date.now };
  const writes = new WriteQueues();
  const gate = new LargeBodyGate();
  // A snapshot import takes what any export can be (limits.ts); other bodies keep the server's limit.
  const snapshotLimit = Math.max(SNAPSHOT_BODY_LIMIT, options.bodyLimit ?? DEFAULT_BODY_LIMIT);
  for (const op of OPERATIONS) registerOperation(app, op, ctx, writes, gate, SNAPSHOT_IMPORTS.has(op.operationId) ? snapshotLimit : undefined);
  registerMethodNotAllowed(app, OPERATIONS.map((op) => ({ method: op.method, url: fastifyPath(op.path) })));
  app.addHook('onClose', async () => options.store.close());
  return app;
}

/** The quotas of each key, worked out once (records are never changed once registered). */
const quotaCache = new WeakMap<KeyRecord, Quotas>();
function quotasFor(key: KeyRecord | undefined): Quotas {
  if (!key) return PLAN_QUOTAS.free; // public routes store nothing
  let q = quotaCache.get(key);
  if (!q) quotaCache.set(key, (q = quotasOf(key)));
  return q;
}

const SNAPSHOT_IMPORTS = new Set(['putWorldSnapshot', 'putPersonaSnapshot']);

const CREATES: Record<string, 'world' | 'persona'> = { createWorld: 'world', createPersona: 'persona' };

function registerOperation(app: FastifyInstance, op: Operation, shared: ServerContext, writes: WriteQueues, gate: LargeBodyGate, bodyLimit?: number) {
  const ctxOf = (request: FastifyRequest): ServerContext => ({ ...shared, quotas: quotasFor(request.principal?.key) });
  // Before the body is read (admission.ts): a create from a full tenant is refused, then a tenant's large bodies queue.
  const preParsing = op.public ? [] : [...(CREATES[op.operationId] ? [refuseWhenFull(CREATES[op.operationId], ctxOf)] : []), ...(op.body ? [gate.hook] : [])];
  const handler = HANDLERS[op.operationId];
  // Changes of one world queue behind a sliced tick of it (exclusive.ts); reads never wait.
  const writesWorld = op.path.startsWith('/worlds/{id}') && op.method !== 'GET';
  app.route({
    method: op.method,
    url: fastifyPath(op.path),
    config: { operationId: op.operationId, public: op.public === true },
    ...(bodyLimit ? { bodyLimit } : {}),
    ...(preParsing.length ? { preParsing: preParsing as never } : {}),
    ...(op.body ? { preValidation: giveWay as never, preHandler: giveWay as never } : {}),
    schema: {
      ...(op.params ? { params: op.params } : {}),
      ...(op.query ? { querystring: op.query } : {}),
      ...(op.body ? { body: op.body } : {}),
    },
    handler: async (request, reply) => {
      const ctx = ctxOf(request);
      const call = {
        tenantId: request.principal?.tenantId ?? '',
        params: request.params as Record<string, string>,
        query: request.query as Record<string, string>,
        body: request.body,
      };
      const result = writesWorld
        ? await writes.run(`${call.tenantId}\u0000${call.params.id}`, () => handler(ctx, call))
        : handler(ctx, call);
      reply.code(op.status);
      return op.raw ? result : { result };
    },
  });
}
