// Quotas per tenant (issue 26): worlds, personas, entities per world, stored bytes, from the key's
// plan or its own `quotas`. A request over a quota gets 403 QUOTA_EXCEEDED in the envelope, declared
// in the served document, and stores nothing; another tenant is not affected. Pages are bounded in
// bytes as well as in items.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, KEYS, sampleWorld, startHarness, TEST_KEYS, type Harness } from './harness.ts';
import { PLAN_QUOTAS } from '../../reference/platform/index.ts';

const Q = {
  worlds: 'mk_test_quota_worlds_0000000001',
  personas: 'mk_test_quota_personas_00000001',
  entities: 'mk_test_quota_entities_00000001',
  bytes: 'mk_test_quota_bytes_00000000001',
} as const;

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    keys: [
      ...TEST_KEYS,
      { key: Q.worlds, tenantId: 'q-worlds', plan: 'pro', quotas: { worlds: 2 } },
      { key: Q.personas, tenantId: 'q-personas', plan: 'pro', quotas: { personas: 2 } },
      { key: Q.entities, tenantId: 'q-entities', plan: 'pro', quotas: { entitiesPerWorld: 3 } },
      { key: Q.bytes, tenantId: 'q-bytes', plan: 'pro', quotas: { storedBytes: 120_000 } },
    ],
  });
});
afterAll(() => h.close());

const world = (name: string, entities = [{ name: 'me', type: 'user' }]) => ({ definition: { identity: { name }, rules: { physics: {} } }, entities });
const ids = async (key: string, op = 'listWorlds', member = 'worlds') =>
  ((await h.call(op, { key, query: { limit: '100' } })).body.result[member] as Array<{ id: string }>).map((w) => w.id);

describe('quota of worlds', () => {
  it('refuses the world past the quota with 403 QUOTA_EXCEEDED and stores nothing; a deleted world makes room; a restore past it is refused', async () => {
    const a = await h.call('createWorld', { key: Q.worlds, body: world('a') });
    const b = await h.call('createWorld', { key: Q.worlds, body: world('b') });
    expect([a.status, b.status]).toEqual([201, 201]);
    const over = await h.call('createWorld', { key: Q.worlds, body: world('c') });
    expectError(over, 403, 'QUOTA_EXCEEDED');
    expect(over.body.error.message).toMatch(/2 worlds.*quota.*2/);
    expect(await ids(Q.worlds)).toHaveLength(2);

    const gone = a.body.result.worldId;
    expect((await h.call('deleteWorld', { key: Q.worlds, params: { id: gone } })).status).toBe(200);
    expect((await h.call('createWorld', { key: Q.worlds, body: world('d') })).status).toBe(201);
    expectError(await h.call('restoreWorld', { key: Q.worlds, params: { id: gone } }), 403, 'QUOTA_EXCEEDED');
    expect(await ids(Q.worlds)).not.toContain(gone);
  });

  it('does not touch another tenant, nor the same tenant through a key with a larger quota', async () => {
    expect((await h.call('createWorld', { key: KEYS.b, body: world('other') })).status).toBe(201);
  });
});

describe('quota of personas', () => {
  it('refuses the persona past the quota, and a restore past it', async () => {
    const made = [];
    for (let i = 0; i < 2; i++) made.push((await h.call('createPersona', { key: Q.personas, body: { config: {} } })).body.result.personaId);
    expectError(await h.call('createPersona', { key: Q.personas, body: { config: {} } }), 403, 'QUOTA_EXCEEDED');
    expect(await ids(Q.personas, 'listPersonas', 'personas')).toHaveLength(2);
    await h.call('deletePersona', { key: Q.personas, params: { id: made[0] } });
    expect((await h.call('createPersona', { key: Q.personas, body: { config: {} } })).status).toBe(201);
    expectError(await h.call('restorePersona', { key: Q.personas, params: { id: made[0] } }), 403, 'QUOTA_EXCEEDED');
  });
});

describe('quota of entities per world', () => {
  const four = [{ name: 'me', type: 'user' }, { name: 'p1', type: 'persona' }, { name: 'p2', type: 'persona' }, { name: 'p3', type: 'persona' }];

  it('refuses a world created with more, and every way of adding one past it; the world is unchanged', async () => {
    expectError(await h.call('createWorld', { key: Q.entities, body: world('big', four) }), 403, 'QUOTA_EXCEEDED');
    expect(await ids(Q.entities)).toHaveLength(0);
    const created = await h.call('createWorld', { key: Q.entities, body: world('three', four.slice(0, 3)) });
    const params = { id: created.body.result.worldId };
    const before = (await h.call('getWorldSnapshot', { key: Q.entities, params })).body.result;

    expectError(await h.call('addWorldPersona', { key: Q.entities, params, body: { name: 'p3' } }), 403, 'QUOTA_EXCEEDED');
    expectError(await h.call('mutateWorld', { key: Q.entities, params, body: { operations: [{ op: 'add_entity', name: 'p3', type: 'persona' }] } }), 403, 'QUOTA_EXCEEDED');
    const grown = { ...before, entities: [...before.entities, { ...before.entities[1], id: 'e-99', name: 'p3', relationships: [] }] };
    expectError(await h.call('putWorldSnapshot', { key: Q.entities, params, body: { snapshot: grown } }), 403, 'QUOTA_EXCEEDED');

    expect((await h.call('getWorldSnapshot', { key: Q.entities, params })).body.result).toEqual(before);
    // Changes that add no entity still work at the quota.
    expect((await h.call('chat', { key: Q.entities, params, body: { from: 'me', to: 'p1', message: 'hello' } })).status).toBe(200);
  });
});

describe('quota of stored bytes', () => {
  it('refuses what would pass it, storing nothing, whatever the operation', async () => {
    const pad = (n: number) => ({ ...world('pad'), definition: { ...world('pad').definition, identity: { name: 'pad', description: 'x'.repeat(n) } } });
    let made = 0;
    let refused;
    for (let i = 0; i < 10 && !refused; i++) {
      const r = await h.call('createWorld', { key: Q.bytes, body: pad(30_000) });
      if (r.status === 201) made++;
      else refused = r;
    }
    expect(made).toBeGreaterThanOrEqual(2);
    expectError(refused!, 403, 'QUOTA_EXCEEDED');
    expect(refused!.body.error.message).toMatch(/stored bytes/);
    expect(await ids(Q.bytes)).toHaveLength(made);
    // A smaller world that still fits is accepted, then a persona past it is refused.
    const personas = await h.call('createPersona', { key: Q.bytes, body: { config: { identity: { name: 'n'.repeat(60_000) } } } });
    expectError(personas, 403, 'QUOTA_EXCEEDED');
    expect(await ids(Q.bytes, 'listPersonas', 'personas')).toHaveLength(0);
    // A change that grows a world past it is refused, and the world is as it was.
    const id = (await ids(Q.bytes))[0];
    const before = (await h.call('getWorld', { key: Q.bytes, params: { id } })).body.result;
    expectError(await h.call('updateWorld', { key: Q.bytes, params: { id }, body: { definition: { identity: { description: 'y'.repeat(200_000) } } } }), 403, 'QUOTA_EXCEEDED');
    expect((await h.call('getWorld', { key: Q.bytes, params: { id } })).body.result).toEqual(before);
  });
});

describe('the served document and the defaults', () => {
  it('declares 403 QUOTA_EXCEEDED on the operations that store, not on reads', () => {
    const described = (path: string, method: string) => JSON.stringify(h.document.paths[path][method].responses['403'] ?? {});
    for (const [path, method] of [['/worlds', 'post'], ['/personas', 'post'], ['/worlds/{id}/chat', 'post'], ['/worlds/{id}/snapshot', 'put'], ['/worlds/{id}/restore', 'post']]) {
      expect(described(path, method), `${method} ${path}`).toContain('QUOTA_EXCEEDED');
    }
    for (const [path, method] of [['/worlds', 'get'], ['/worlds/{id}/query', 'post'], ['/worlds/{id}', 'delete']]) {
      expect(described(path, method), `${method} ${path}`).not.toContain('QUOTA_EXCEEDED');
    }
  });

  it('gives every plan room for the conformance suite and the load tiers', () => {
    for (const q of Object.values(PLAN_QUOTAS)) {
      expect(q.worlds).toBeGreaterThanOrEqual(1_000);
      expect(q.entitiesPerWorld).toBeGreaterThanOrEqual(400); // test/reference/sliced-advance.test.ts runs 400 personas
      expect(q.storedBytes).toBeGreaterThanOrEqual(64 * 1024 * 1024);
    }
  });
});

describe('pages bounded in bytes', () => {
  it('serves fewer items than the limit when they are large, and the walk still reaches every one', async () => {
    const big = (n: number) => ({ ...sampleWorld(`big-${n}`), definition: { ...sampleWorld().definition, identity: { name: `big-${n}`, description: 'z'.repeat(400_000) } } });
    const made: string[] = [];
    for (let n = 0; n < 5; n++) made.push((await h.call('createWorld', { key: KEYS.b, body: big(n) })).body.result.worldId);
    const first = await h.call('listWorlds', { key: KEYS.b, query: { limit: '100' } });
    expect(first.text.length).toBeLessThanOrEqual(1024 * 1024 + 4096);
    expect(first.body.result.worlds.length).toBeLessThan(6);
    expect(first.body.result.nextCursor).toBeDefined();
    const seen = first.body.result.worlds.map((w: { id: string }) => w.id);
    let cursor = first.body.result.nextCursor;
    while (cursor) {
      const next = await h.call('listWorlds', { key: KEYS.b, query: { limit: '100', cursor } });
      expect(next.text.length).toBeLessThanOrEqual(1024 * 1024 + 4096);
      seen.push(...next.body.result.worlds.map((w: { id: string }) => w.id));
      cursor = next.body.result.nextCursor;
    }
    expect(seen).toEqual(expect.arrayContaining(made));
    expect(new Set(seen).size).toBe(seen.length);
  });
});
