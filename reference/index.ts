// Starts the reference deployment in-process: what `npm run serve`, the tests and (later) the
// conformance command use. Memory store unless a SQLite file is given.
import type { FastifyInstance } from 'fastify';
import { KeyRegistry, type KeyRecord } from './platform/index.ts';
import { openStore } from './store/index.ts';
import { buildApp } from './server/app.ts';

export interface ReferenceOptions {
  port?: number;
  host?: string;
  keys?: KeyRecord[];
  /** SQLite file; memory when absent. */
  db?: string;
  rateLimitWindowMs?: number;
  bodyLimit?: number;
  /** Time a client has to send a whole request, headers and body (default 30 s); 408 after it. */
  requestTimeoutMs?: number;
  logger?: boolean;
  /** Adds to the app before it listens (e.g. the benchmark's no-op route). */
  extend?: (app: FastifyInstance) => void;
}

export interface RunningReference {
  url: string;
  app: FastifyInstance;
  registry: KeyRegistry;
  close(): Promise<void>;
}

export async function startReference(options: ReferenceOptions = {}): Promise<RunningReference> {
  const registry = new KeyRegistry();
  for (const key of options.keys ?? []) registry.add(key);
  const store = openStore({ db: options.db });
  const app = await buildApp({
    store, registry, rateLimitWindowMs: options.rateLimitWindowMs, bodyLimit: options.bodyLimit, logger: options.logger,
    requestTimeoutMs: options.requestTimeoutMs,
  });
  options.extend?.(app);
  const address = await app.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
  return { url: address.replace('[::1]', '127.0.0.1'), app, registry, close: () => app.close() };
}

export { buildApp } from './server/app.ts';
