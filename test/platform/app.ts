// A tiny app with the platform installed and a few dummy routes, shared by the platform tests.
import Fastify, { type InjectOptions, type LightMyRequestResponse } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { expect } from 'vitest';
import {
  KeyRegistry,
  fastifyServerOptions,
  registerMethodNotAllowed,
  registerPlatform,
  type KeyRecord,
} from '../../reference/platform/index.ts';

export const KEYS = {
  free: 'mk_test_free_0123456789',
  live: 'mk_live_pro_0123456789',
  web: 'mk_test_web_0123456789',
  entA: 'mk_test_enta_0123456789',
  entB: 'mk_test_entb_0123456789',
} as const;

export const ALLOWED_ORIGIN = 'https://app.example.com';

export const RECORDS: KeyRecord[] = [
  { key: KEYS.free, tenantId: 't_free', plan: 'free' },
  { key: KEYS.live, tenantId: 't_pro', plan: 'pro' },
  { key: KEYS.web, tenantId: 't_web', plan: 'starter', origins: [ALLOWED_ORIGIN] },
  { key: KEYS.entA, tenantId: 't_ent_a', plan: 'enterprise', rpm: 5 },
  { key: KEYS.entB, tenantId: 't_ent_b', plan: 'enterprise', rpm: 5 },
];

const WorldBody = Type.Object(
  {
    definition: Type.Object(
      {
        identity: Type.Object({ name: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
        tags: Type.Optional(Type.Array(Type.String())),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const ROUTES = [
  { method: 'GET', url: '/worlds' },
  { method: 'POST', url: '/worlds' },
  { method: 'GET', url: '/worlds/:worldId' },
  { method: 'DELETE', url: '/worlds/:worldId' },
  { method: 'GET', url: '/boom' },
  { method: 'GET', url: '/openapi.json' },
];

export async function buildApp(opts: { windowMs?: number; bodyLimit?: number } = {}) {
  const app = Fastify({ ...fastifyServerOptions({ bodyLimit: opts.bodyLimit }), logger: false }).withTypeProvider<TypeBoxTypeProvider>();
  await registerPlatform(app, { registry: new KeyRegistry(RECORDS), rateLimitWindowMs: opts.windowMs ?? 60_000 });

  app.get('/openapi.json', { config: { public: true } }, async () => ({ openapi: '3.1.0' }));
  app.get('/worlds', async (request) => ({ tenantId: request.principal.tenantId, rpm: request.principal.rpm }));
  app.post('/worlds', { schema: { body: WorldBody } }, async (request, reply) => reply.status(201).send(request.body));
  app.get(
    '/worlds/:worldId',
    { schema: { params: Type.Object({ worldId: Type.String({ pattern: '^w_[a-z0-9]+$' }) }) } },
    async (request) => ({ id: request.params.worldId }),
  );
  app.delete('/worlds/:worldId', async (_request, reply) => reply.status(204).send());
  app.get('/boom', async () => {
    throw new Error('database password is hunter2');
  });
  registerMethodNotAllowed(app, ROUTES);
  await app.ready();
  return app;
}

export type TestApp = Awaited<ReturnType<typeof buildApp>>;

/** inject + the invariant that no response ever contains an API key, in its body or its headers. */
export async function call(app: TestApp, options: InjectOptions): Promise<LightMyRequestResponse> {
  const res = await app.inject(options);
  const everything = res.body + JSON.stringify(res.headers);
  for (const key of Object.values(KEYS)) expect(everything).not.toContain(key);
  const sent = options.headers?.['x-api-key'];
  if (typeof sent === 'string' && sent.length > 0) expect(everything).not.toContain(sent);
  return res;
}

/** The error envelope, asserted to be exactly `{ error: { code, message } }`. */
export function envelope(res: LightMyRequestResponse): { code: string; message: string } {
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json() as { error: { code: string; message: string } };
  expect(Object.keys(body)).toEqual(['error']);
  expect(Object.keys(body.error).sort()).toEqual(['code', 'message']);
  expect(typeof body.error.code).toBe('string');
  expect(typeof body.error.message).toBe('string');
  expect(body.error.message.length).toBeGreaterThan(0);
  return body.error;
}
