// The deployment a command runs against: a given --base-url after a preflight, or the embedded
// reference started in-process with the keys the run needs. Refuses a live key without --allow-live.
import { request } from 'undici';
import { randomBytes } from 'node:crypto';
import SwaggerParser from '@apidevtools/swagger-parser';
import { startReference, type RunningReference } from '../../reference/index.ts';
import type { KeyRecord, Plan } from '../../reference/platform/index.ts';
import { UsageError } from '../data/errors.ts';
import { redactKey } from '../data/redact.ts';

export interface Target {
  baseUrl: string;
  /** The key the run uses. */
  apiKey: string;
  /** Keys provisioned for the embedded reference (second tenant, free plan, origin-restricted). */
  extraKeys: { secondKey?: string; rateLimitKey?: string; originKey?: string; allowedOrigin?: string };
  embedded: boolean;
  /** The OpenAPI document the target serves (validated). */
  document: Record<string, any>;
  close(): Promise<void>;
}

export interface TargetOptions {
  baseUrl?: string;
  apiKey?: string;
  allowLive?: boolean;
  timeoutMs?: number;
  /** Plan of the main key the embedded reference provisions. */
  plan?: Plan;
  rpm?: number;
  /** Rate-limit window of the embedded reference (tests shorten it). */
  rateLimitWindowMs?: number;
}

export function guardLiveKey(key: string | undefined, allowLive: boolean | undefined): void {
  if (key?.startsWith('mk_live_') && !allowLive) {
    throw new UsageError(`refusing the production key ${redactKey(key)}: live keys are billed; pass --allow-live if you mean it`);
  }
}

const genKey = (label: string) => `mk_test_${label}_${randomBytes(8).toString('hex')}`;

export async function resolveTarget(options: TargetOptions): Promise<Target> {
  guardLiveKey(options.apiKey, options.allowLive);
  if (!options.baseUrl) return embedded(options);
  if (!options.apiKey) throw new UsageError('--api-key is required with --base-url');
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  try {
    new URL(baseUrl);
  } catch {
    throw new UsageError(`--base-url '${options.baseUrl}' is not a URL`);
  }
  const document = await preflight(baseUrl, options.apiKey, options.timeoutMs ?? 10_000);
  return { baseUrl, apiKey: options.apiKey, extraKeys: {}, embedded: false, document, close: async () => {} };
}

/** Reachable, serves a valid /openapi.json, and accepts the key: else one clear line. */
async function preflight(baseUrl: string, apiKey: string, timeoutMs: number): Promise<Record<string, any>> {
  const get = async (path: string, headers: Record<string, string> = {}) => {
    try {
      const res = await request(baseUrl + path, { headers, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
      return { status: res.statusCode, text: await res.body.text() };
    } catch (err) {
      throw new UsageError(`cannot reach ${baseUrl}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  };
  const openapi = await get('/openapi.json', { 'x-api-key': apiKey });
  if (openapi.status !== 200) throw new UsageError(`${baseUrl}/openapi.json answered ${openapi.status}; a deployment must serve its OpenAPI description there`);
  let document: Record<string, any>;
  try {
    document = JSON.parse(openapi.text);
    await SwaggerParser.validate(structuredClone(document) as never);
  } catch (err) {
    throw new UsageError(`${baseUrl}/openapi.json is not a valid OpenAPI document: ${(err as Error).message.split('\n')[0]}`);
  }
  const probe = await get('/worlds?limit=1', { 'x-api-key': apiKey });
  if (probe.status === 401 || probe.status === 403) throw new UsageError(`${baseUrl} refused the key ${redactKey(apiKey)} (${probe.status})`);
  return document;
}

async function embedded(options: TargetOptions): Promise<Target> {
  const plan = options.plan ?? 'enterprise';
  const main = genKey('main');
  const allowedOrigin = 'https://conformance.example';
  const keys: KeyRecord[] = [
    { key: main, tenantId: 'tenant-main', plan, ...(plan === 'enterprise' ? { rpm: options.rpm ?? 100_000 } : {}) },
    { key: genKey('second'), tenantId: 'tenant-second', plan: 'enterprise', rpm: 100_000 },
    { key: genKey('free'), tenantId: 'tenant-main', plan: 'free' },
    { key: genKey('origin'), tenantId: 'tenant-main', plan: 'enterprise', rpm: 100_000, origins: [allowedOrigin] },
  ];
  let server: RunningReference;
  try {
    server = await startReference({ keys, rateLimitWindowMs: options.rateLimitWindowMs });
  } catch (err) {
    throw new UsageError(`cannot start the embedded reference: ${(err as Error).message}`);
  }
  const res = await request(`${server.url}/openapi.json`);
  return {
    baseUrl: server.url,
    apiKey: main,
    extraKeys: { secondKey: keys[1].key, rateLimitKey: keys[2].key, originKey: keys[3].key, allowedOrigin },
    embedded: true,
    document: await res.body.json() as Record<string, any>,
    close: () => server.close(),
  };
}
