// Authentication: every operation of the bundled contract without a key and with a wrong one; one
// key system for worlds and personas; the origin allowlist (needs --origin-key, --allowed-origin).
import { describe, expect } from 'vitest';
import { check, api, config, inFlight, minimalBody, ok, operationsOf } from './support/index.ts';

const client = api();
const guarded = () => operationsOf((o) => o.operationId !== 'getOpenApi');
const paramsFor = (path: string) => Object.fromEntries((path.match(/\{(\w+)\}/g) ?? []).map((p) => [p.slice(1, -1), 'conformance-probe']));

describe('X-API-Key on every operation', () => {
  async function everyOperationSays401(key: string | null) {
    const answers = await inFlight(guarded(), async (op) => {
      const body = minimalBody(op.operationId);
      const reply = await client.call(op.operationId, { params: paramsFor(op.path), key, body: body === undefined ? undefined : body });
      return reply.status !== 401 || reply.body?.error?.code !== 'UNAUTHORIZED' ? `${op.method} ${op.path} → ${reply.status} ${reply.body?.error?.code ?? ''}` : undefined;
    });
    expect(answers.filter(Boolean), 'operations that did not answer 401 UNAUTHORIZED').toEqual([]);
  }

  check('AUTH-1', 'every operation answers 401 UNAUTHORIZED without a key', () => everyOperationSays401(null));
  check('AUTH-2', 'every operation answers 401 UNAUTHORIZED with an invalid key', () => everyOperationSays401('mk_test_conformance_invalid_key_0000'));

  check('AUTH-3', 'one key serves both the World API and the Persona API', async () => {
    ok(await client.call('listWorlds', { query: { limit: '1' } }), 'GET /worlds');
    ok(await client.call('listPersonas'), 'GET /personas');
  });
});

describe('origin allowlist', () => {
  check(['AUTH-4', 'AUTH-7'], 'refuses a restricted key from another origin', { needs: ['originKey'] }, async (ctx) => {
    const reply = await client.call('listWorlds', { key: config().originKey, headers: { origin: 'https://not-allowed.conformance.invalid' } });
    expect(reply.status, `a blocked origin was answered ${reply.status}`).toBeGreaterThanOrEqual(400);
    expect(reply.status).toBeLessThan(500);
    expect(reply.status, 'SPEC.md does not give the status; 403 is expected').toBe(403);
  });

  check('AUTH-5', 'accepts a restricted key from its configured origin', { needs: ['originKey'] }, async (ctx) => {
    ok(await client.call('listWorlds', { key: config().originKey, headers: { origin: config().allowedOrigin! } }));
  });

  check('AUTH-6', 'accepts a key without configured origins from any origin', async () => {
    ok(await client.call('listWorlds', { headers: { origin: 'https://anywhere.conformance.invalid' } }));
  });
});
