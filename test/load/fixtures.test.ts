// The seeded fixtures are valid requests: against the request schemas of the bundled contract
// (ajv, strict: no coercion, no removal), and for the embedded reference, which answers 2xx.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv, type ValidateFunction } from 'ajv';
import { request } from 'undici';
import { formatErrors } from '../../contract/validate.ts';
import { startReference, type RunningReference } from '../../reference/index.ts';
import { world, entitiesOf } from '../../fixtures/worlds.ts';
import { personaConfig } from '../../fixtures/personas.ts';
import { event } from '../../fixtures/events.ts';
import { message, chatBody } from '../../fixtures/messages.ts';

const document = JSON.parse(readFileSync(new URL('../../contract/openapi.json', import.meta.url), 'utf8'));
const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, coerceTypes: false, removeAdditional: false, useDefaults: false });
ajv.addSchema({ $id: 'openapi', paths: document.paths, components: document.components }, 'openapi');
const escape = (p: string) => p.replace(/~/g, '~0').replace(/\//g, '~1');

/** The validator of an operation's request body, found by operationId in the document. */
function requestSchema(operationId: string): ValidateFunction {
  for (const [path, item] of Object.entries<Record<string, any>>(document.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (op?.operationId === operationId) {
        return ajv.compile({ $ref: `openapi#/paths/${encodeURIComponent(escape(path))}/${method}/requestBody/content/application~1json/schema` });
      }
    }
  }
  throw new Error(`no operation ${operationId}`);
}

function expectValid(operationId: string, body: unknown) {
  const validate = requestSchema(operationId);
  const ok = validate(body);
  expect(ok ? [] : formatErrors(validate.errors), `${operationId} ${JSON.stringify(body).slice(0, 200)}`).toEqual([]);
}

const SEEDS = Array.from({ length: 25 }, (_, i) => i + 1);

describe('fixtures against the contract', () => {
  it('has validators that refuse a wrong body (so a pass below means something)', () => {
    expect(requestSchema('createWorld')({ entities: [] })).toBe(false);
    expect(requestSchema('createPersona')({ config: { personality: { O: 'high' } } })).toBe(false);
    expect(requestSchema('dispatchEvent')({ type: 'x', appraisal: { goal_relevance: '1' } })).toBe(false);
    expect(requestSchema('chat')({ from: 'a', to: 'b', message: '' })).toBe(false);
  });

  it('world(seed) is a valid createWorld body with every part of a definition', () => {
    for (const seed of SEEDS) {
      const w = world(seed);
      expectValid('createWorld', w);
      expect(Object.keys(w.definition).sort()).toEqual(['culture', 'identity', 'knowledge', 'progression', 'rules', 'time', 'topology']);
      const { users, personas } = entitiesOf(w);
      expect(users.length).toBeGreaterThan(0);
      expect(personas.length).toBeGreaterThan(1);
      expect(Object.keys(w.personaConfigs).sort()).toEqual([...personas].sort());
      expect(new Set(w.entities.map((e) => e.name)).size).toBe(w.entities.length);
      expect(w.definition.progression!.triggers!.length).toBeGreaterThan(0);
    }
  });

  it('personaConfig(seed) is a valid createPersona config', () => {
    for (const seed of SEEDS) expectValid('createPersona', { config: personaConfig(seed) });
  });

  it('event(seed) is a valid event for dispatchEvent and perceive', () => {
    for (const seed of SEEDS) {
      expectValid('dispatchEvent', event(seed, world(seed)));
      expectValid('perceive', event(seed));
    }
  });

  it('message(seed) and chatBody(seed, world) are valid chat bodies', () => {
    for (const seed of SEEDS) {
      expectValid('chat', chatBody(seed, world(seed)));
      expectValid('chat', { from: 'a', to: 'b', message: message(seed) });
    }
  });

  it('is deterministic per seed and differs between seeds', () => {
    expect(world(7)).toEqual(world(7));
    expect(personaConfig(7)).toEqual(personaConfig(7));
    expect(event(7, world(7))).toEqual(event(7, world(7)));
    expect(message(7)).toBe(message(7));
    expect(world(7)).not.toEqual(world(8));
    expect(new Set(SEEDS.map(message)).size).toBe(SEEDS.length);
  });
});

describe('fixtures against the embedded reference', () => {
  const KEY = 'mk_test_fixtures_enterprise_01';
  let server: RunningReference;
  beforeAll(async () => { server = await startReference({ keys: [{ key: KEY, tenantId: 't', plan: 'enterprise', rpm: 1_000_000 }] }); });
  afterAll(async () => server.close());

  const post = async (path: string, body: unknown) => {
    const res = await request(server.url + path, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await res.body.text();
    expect(res.statusCode, `POST ${path} → ${text.slice(0, 300)}`).toBeGreaterThanOrEqual(200);
    expect(res.statusCode, `POST ${path} → ${text.slice(0, 300)}`).toBeLessThan(300);
    return JSON.parse(text).result;
  };

  it('accepts worlds, personas, events and chat made from them', async () => {
    for (const seed of SEEDS.slice(0, 8)) {
      const w = world(seed);
      const { worldId } = await post('/worlds', w);
      await post(`/worlds/${worldId}/events`, event(seed, w));
      await post(`/worlds/${worldId}/chat`, chatBody(seed, w));
      const { personaId } = await post('/personas', { config: personaConfig(seed) });
      await post(`/personas/${personaId}/perceive`, event(seed));
    }
  });
});
