// Error codes of SPEC.md, provoked: unknown world, entity and persona; and negative bodies generated
// from each operation's request schema (wrong types, not JSON, not an object, a needed member missing),
// answered 400 VALIDATION_ERROR (no 5xx for a client mistake, ENV-4, is the generated area's).
import { describe, expect } from 'vitest';
import { documents } from '../suite/checks/documents.ts';
import { setup, check, api, createPersona, createWorld, fails, minimalBody, named, operationsOf } from './support/index.ts';

const client = api();
let worldId: string;
let personaId: string;
setup(async () => {
  worldId = await createWorld(client, 'errors');
  personaId = await createPersona(client, 'errors');
});

type Json = Record<string, any>;
/** The object part of a (dereferenced) schema: an Input overlay is `allOf` [members, required]. */
const objectPart = (s: Json | undefined): Json | undefined => (s?.allOf ? s.allOf.find((p: Json) => p.type !== undefined && p.properties) ?? s.allOf[0] : s);
const WRONG: Record<string, unknown> = { string: 12345, number: 'not-a-number', integer: 'not-a-number', boolean: 'yes', object: 'not-an-object', array: { not: 'an array' } };

/** Operations with a JSON body, each with one body per top-level member given a value of the wrong type. */
function negativeBodies() {
  const out: Array<{ operationId: string; path: string; shape: string; member: string; body: Json }> = [];
  for (const op of operationsOf(() => true)) {
    const { bundled } = documents();
    const schema = objectPart(bundled.requestSchema(op.operationId));
    if (!schema?.properties) continue;
    const base = (minimalBody(op.operationId) ?? {}) as Json;
    for (const [member, propSchema] of Object.entries<Json>(schema.properties)) {
      const type = objectPart(propSchema)?.type;
      if (typeof type !== 'string' || !(type in WRONG)) continue;
      out.push({ operationId: op.operationId, path: op.path, shape: bundled.operation(op.operationId)!.spec['x-shape-source'], member, body: { ...base, [member]: WRONG[type] } });
    }
  }
  return out;
}
const paramsFor = (path: string) => ({ id: path.startsWith('/personas') ? personaId : worldId, pid: 'ana', aid: 'none', rid: 'none' });

describe('error codes of SPEC.md', () => {
  check('ERR-1', 'answers 404 WORLD_NOT_FOUND for an unknown world on every world operation', async () => {
    const wrong: string[] = [];
    for (const op of operationsOf((o) => o.path.startsWith('/worlds/{id}'))) {
      const reply = await client.call(op.operationId, { params: { ...paramsFor(op.path), id: 'conformance-no-such-world' }, body: minimalBody(op.operationId) });
      if (reply.status !== 404 || reply.body?.error?.code !== 'WORLD_NOT_FOUND') wrong.push(`${op.method} ${op.path} → ${reply.status} ${reply.body?.error?.code ?? ''}`);
    }
    expect(wrong).toEqual([]);
  });

  check('ERR-2', 'answers 404 ENTITY_NOT_FOUND for an unknown entity in chat and context', async () => {
    fails(await client.call('chat', { params: { id: worldId }, body: { from: 'nobody-here', to: 'ana', message: 'hello' } }), 'ENTITY_NOT_FOUND', 404);
    fails(await client.call('chat', { params: { id: worldId }, body: { from: 'user', to: 'nobody-here', message: 'hello' } }), 'ENTITY_NOT_FOUND', 404);
    fails(await client.call('worldContext', { params: { id: worldId }, body: { entityName: 'nobody-here' } }), 'ENTITY_NOT_FOUND', 404);
  });
});

describe('unknown persona id', () => {
  /** A missing persona id that names the run (never created). */
  const missingId = () => `missing-${named('persona').replace(/\W/g, '')}`;

  /** Operations whose request SPEC.md shows (or that take none), with a body it accepts. */
  const probes: Array<{ operationId: string; body?: unknown }> = [
    { operationId: 'getPersona' },
    { operationId: 'updatePersona', body: {} },
    { operationId: 'deletePersona' },
    { operationId: 'restorePersona' },
    { operationId: 'perceive', body: { type: 'cf-probe' } },
    { operationId: 'tickPersona', body: { seconds: 1 } },
    { operationId: 'overrideEmotion', body: { vad: {} } },
    { operationId: 'getPersonaState' },
    { operationId: 'getPersonaSnapshot' },
    { operationId: 'putPersonaSnapshot', body: { snapshot: {} } },
  ];

  async function answers() {
    const id = missingId();
    const out = [];
    for (const p of probes) {
      const reply = await client.call(p.operationId, { params: { id }, ...(p.body !== undefined ? { body: p.body } : {}) });
      out.push({ operationId: p.operationId, status: reply.status, code: reply.body?.error?.code as unknown });
    }
    return out;
  }

  check('ERR-4', 'is answered with code PERSONA_NOT_FOUND', async () => {
    const wrong = (await answers()).filter((a) => a.code !== 'PERSONA_NOT_FOUND').map((a) => `${a.operationId}: ${a.status} ${String(a.code)}`);
    expect(wrong, 'operations on an unknown persona that did not answer PERSONA_NOT_FOUND').toEqual([]);
  });

  check('ERR-5', 'PERSONA_NOT_FOUND comes with status 404', async () => {
    const wrong = (await answers()).filter((a) => a.status !== 404).map((a) => `${a.operationId}: ${a.status} ${String(a.code)}`);
    expect(wrong, 'answers for an unknown persona whose status is not 404').toEqual([]);
  });
});

describe('negative bodies generated from the request schemas', () => {
  check('ERR-3', 'answers 400 VALIDATION_ERROR to a member of the wrong type (operations SPEC.md documents)', async () => {
    const wrong: string[] = [];
    for (const n of negativeBodies().filter((b) => b.shape === 'spec')) {
      const reply = await client.call(n.operationId, { params: paramsFor(n.path), body: n.body });
      if (reply.status !== 400 || reply.body?.error?.code !== 'VALIDATION_ERROR') wrong.push(`${n.operationId} ${n.member}=${JSON.stringify(n.body[n.member])} → ${reply.status} ${reply.body?.error?.code ?? ''}`);
    }
    expect(wrong, 'wrong-typed members not answered 400 VALIDATION_ERROR').toEqual([]);
  });

  check('ERR-6', 'answers 400 VALIDATION_ERROR to wrong types elsewhere, to non-JSON and non-object bodies, and to a missing needed member', async () => {
    const wrong: string[] = [];
    const expect400 = (label: string, reply: { status: number; body: any }) => {
      if (reply.status !== 400 || reply.body?.error?.code !== 'VALIDATION_ERROR') wrong.push(`${label} → ${reply.status} ${reply.body?.error?.code ?? ''}`);
    };
    for (const n of negativeBodies().filter((b) => b.shape !== 'spec')) {
      expect400(`${n.operationId} ${n.member} of the wrong type`, await client.call(n.operationId, { params: paramsFor(n.path), body: n.body }));
    }
    for (const [label, rawBody] of [['not JSON', '{"message": '], ['a JSON array', '[]'], ['a JSON string', '"hello"']]) {
      expect400(`chat with ${label}`, await client.call('chat', { params: { id: worldId }, rawBody }));
    }
    expect400('chat without message', await client.call('chat', { params: { id: worldId }, body: { from: 'user', to: 'ana' } }));
    expect400('events without type', await client.call('dispatchEvent', { params: { id: worldId }, body: { spaceId: 'x' } }));
    expect(wrong).toEqual([]);
  });
});
