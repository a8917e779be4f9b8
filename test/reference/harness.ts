// Starts the reference in-process with keys for two tenants, and a client that calls operations by
// operationId and validates every response against the document the server serves (ajv, strict).
import { request } from 'undici';
import { expect } from 'vitest';
import { startReference, type ReferenceOptions, type RunningReference } from '../../reference/index.ts';
import { ResponseValidator } from '../../contract/validate.ts';
import { OpenApiReader } from '../../contract/openapi-reader.ts';
import type { KeyRecord } from '../../reference/platform/index.ts';

export const KEYS = {
  a: 'mk_test_tenant_a_enterprise_0001',
  b: 'mk_test_tenant_b_enterprise_0001',
  free: 'mk_test_tenant_a_free_00000001',
  origin: 'mk_test_tenant_a_origin_000001',
} as const;
export const ALLOWED_ORIGIN = 'https://app.example';

/** Enterprise keys with a large budget so that tests are never rate limited by accident. */
export const TEST_KEYS: KeyRecord[] = [
  { key: KEYS.a, tenantId: 'tenant-a', plan: 'enterprise', rpm: 1_000_000 },
  { key: KEYS.b, tenantId: 'tenant-b', plan: 'enterprise', rpm: 1_000_000 },
  { key: KEYS.free, tenantId: 'tenant-a', plan: 'free' },
  { key: KEYS.origin, tenantId: 'tenant-a', plan: 'enterprise', rpm: 1_000_000, origins: [ALLOWED_ORIGIN] },
];

export interface Reply<T = any> { status: number; headers: Record<string, string | string[] | undefined>; body: T; text: string }

export interface CallOptions {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** Key to send; null sends none. Default: tenant A. */
  key?: string | null;
  headers?: Record<string, string>;
}

export interface Harness {
  url: string;
  server: RunningReference;
  validator: ResponseValidator;
  reader: OpenApiReader;
  document: any;
  /** Calls an operation and checks the response against the served document. */
  call<T = any>(operationId: string, options?: CallOptions): Promise<Reply<T>>;
  /** A raw request (any method, path, body text), for what is not an operation. */
  raw(method: string, path: string, options?: { key?: string | null; body?: string; headers?: Record<string, string> }): Promise<Reply>;
  close(): Promise<void>;
}

export function expandPath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (params[name] === undefined) throw new Error(`missing path parameter ${name} for ${path}`);
    return encodeURIComponent(params[name]);
  });
}

export async function startHarness(options: ReferenceOptions = {}): Promise<Harness> {
  const server = await startReference({ keys: TEST_KEYS, ...options });
  const url = server.url;
  const raw: Harness['raw'] = async (method, path, o = {}) => {
    const headers: Record<string, string> = { ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}), ...o.headers };
    const key = o.key === undefined ? KEYS.a : o.key;
    if (key !== null) headers['x-api-key'] = key;
    const res = await request(url + path, { method: method as any, headers, body: o.body });
    const text = await res.body.text();
    let body: unknown = text;
    try { body = JSON.parse(text); } catch { /* not JSON: kept as text */ }
    return { status: res.statusCode, headers: res.headers as Reply['headers'], body, text };
  };
  const document = (await raw('GET', '/openapi.json', { key: null })).body;
  const reader = await OpenApiReader.load(document);
  const validator = new ResponseValidator(reader);
  const ops = new Map(reader.operations().map((o) => [o.operationId, o]));
  return {
    url, server, validator, reader, document, raw,
    async call(operationId, o = {}) {
      const op = ops.get(operationId);
      if (!op) throw new Error(`no operation ${operationId} in the served document`);
      const qs = o.query ? '?' + new URLSearchParams(o.query).toString() : '';
      const reply = await raw(op.method.toUpperCase(), expandPath(op.path, o.params) + qs, {
        key: o.key, headers: o.headers, body: o.body === undefined ? undefined : JSON.stringify(o.body),
      });
      const check = validator.check(operationId, reply.status, reply.headers['content-type'] as string | undefined, reply.body);
      expect(check.problems, `${operationId} → ${reply.status} ${reply.text.slice(0, 300)}`).toEqual([]);
      return reply;
    },
    close: () => server.close(),
  };
}

/** Asserts an error envelope with the given status and code. */
export function expectError(reply: Reply, status: number, code: string): void {
  expect({ status: reply.status, code: reply.body?.error?.code }, reply.text.slice(0, 300)).toEqual({ status, code });
  expect(typeof reply.body.error.message).toBe('string');
  expect(reply.body.error.message.length).toBeGreaterThan(0);
}

/** A small world: two personas and a user in one space. */
export function sampleWorld(name = 'Harbor') {
  return {
    definition: {
      identity: { name, description: 'A fishing harbor' },
      rules: { physics: { gravity: true } },
      topology: { connections: [{ from: 'dock', to: 'tavern', distance: 50, traversalTime: 60, accessibility: 'open', bidirectional: true }] },
      knowledge: { facts: [{ id: 'f1', content: 'The storm is coming', visibility: 'public' }, { id: 'f2', content: 'Mara hid the map', visibility: 'private', knownBy: ['mara'] }] },
      progression: {
        initialPhase: 'calm',
        phases: { calm: { description: 'Quiet days', normMapOverride: {} }, storm: { description: 'The storm', normMapOverride: { caution: 0.9 } }, flood: { description: 'High water', normMapOverride: {} } },
        triggers: [
          { id: 't-storm', condition: { type: 'event_count', eventType: 'thunder', threshold: 3 }, targetPhase: 'storm', oneShot: true },
          { id: 't-sun', condition: { type: 'event_count', eventType: 'sun', threshold: 1 }, targetPhase: 'calm', oneShot: false },
          { id: 't-high', condition: { type: 'event_count', eventType: 'high', threshold: 2 }, targetPhase: 'flood', oneShot: false },
          { id: 't-low', condition: { type: 'event_count', eventType: 'low', threshold: 2 }, targetPhase: 'calm', oneShot: false },
        ],
      },
    },
    entities: [{ name: 'mara', type: 'persona' }, { name: 'olek', type: 'persona' }, { name: 'visitor', type: 'user' }],
    personaConfigs: { mara: { identity: { name: 'Mara', role: 'fisher', speakingStyle: 'terse' } } },
  };
}
