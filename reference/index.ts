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
  const store = await openStore({ db: options.db });
  const app = await buildApp({
    store, registry, rateLimitWindowMs: options.rateLimitWindowMs, bodyLimit: options.bodyLimit, logger: options.logger,
    requestTimeoutMs: options.requestTimeoutMs,
  });
  options.extend?.(app);
  await app.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
  return { url: listeningUrl(app.server.address()), app, registry, close: () => app.close() };
}

/**
 * The address a client can reach the server at, from what the socket really bound: an IPv6 address
 * in brackets (`http://[::1]:PORT`); a wildcard bind (`0.0.0.0`, `::`) listens on every interface,
 * so its loopback address of the same family is given, which always connects.
 */
export function listeningUrl(bound: ReturnType<FastifyInstance['server']['address']>): string {
  if (bound === null || typeof bound === 'string') throw new Error(`reference: not listening on a TCP port (${String(bound)})`);
  const v6 = bound.family === 'IPv6' || (bound.family as unknown) === 6;
  let host = bound.address;
  if (host === '0.0.0.0') host = '127.0.0.1';
  if (host === '::') host = '::1';
  return `http://${v6 ? `[${host}]` : host}:${bound.port}`;
}

export { buildApp } from './server/app.ts';
