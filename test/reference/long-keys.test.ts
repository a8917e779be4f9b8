// No Map or Set of the server is keyed by a string a client sent at length. V8 hashes a string of
// 16,384 characters or more by its length alone, so every such key of one length shares one hash:
// a lookup compares it in full with all the others. Measured: 3,000 keys of 16,384 characters that
// differ at their end took 4.1 s to insert against 0.07 s for 16,383. A tenant storing worlds whose
// long texts share a prefix slowed every later create in a cache keyed by texts (store/shared.ts).
// The test watches the keys, not the time: Map and Set methods are wrapped while a tenant sends
// long texts everywhere the document lets it. The same texts must be read in bounded time.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HASHED_LENGTH } from '../../reference/store/shared.ts';
import { sampleWorld, startHarness, type Harness } from './harness.ts';

/** Long keys seen by Map and Set methods while `fn` runs, at most one per call site kind. */
async function longKeysDuring(fn: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const methods = [[Map.prototype, ['get', 'set', 'has', 'delete']], [Set.prototype, ['add', 'has', 'delete']]] as const;
  const originals: Array<() => void> = [];
  for (const [proto, names] of methods) {
    for (const name of names) {
      const original = (proto as unknown as Record<string, (...a: unknown[]) => unknown>)[name];
      (proto as unknown as Record<string, unknown>)[name] = function (this: unknown, key: unknown, ...rest: unknown[]) {
        if (typeof key === 'string' && key.length >= HASHED_LENGTH) seen.push(`${proto === Map.prototype ? 'Map' : 'Set'}.${name}: ${new Error().stack?.split('\n')[2]?.trim()}`);
        return original.call(this, key, ...rest);
      };
      originals.push(() => { (proto as unknown as Record<string, unknown>)[name] = original; });
    }
  }
  try {
    await fn();
  } finally {
    for (const restore of originals) restore();
  }
  return [...new Set(seen)];
}

describe.each(['memory', 'SQLite'])('strings a client sends at length, %s store', (store) => {
  let h: Harness;
  const dir = mkdtempSync(join(tmpdir(), 'long-keys-'));
  beforeAll(async () => {
    h = await startHarness(store === 'SQLite' ? { db: join(dir, 'store.db') } : {});
  });
  afterAll(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('never become keys of a Map or Set: create, edit, events, chat, snapshot round trip', async () => {
    const prefix = 'p'.repeat(HASHED_LENGTH + 100);
    const long = (tag: string) => `${prefix}${tag}`;
    const found = await longKeysDuring(async () => {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const body = sampleWorld(`long ${i}`) as any;
        body.definition.identity.description = long(`d${i}`);
        body.definition.rules.physics = { [long(`k${i}`)]: true, gravity: true };
        body.definition.knowledge.facts.push({ id: 'f3', content: long(`f${i}`), visibility: 'public' });
        const created = await h.call('createWorld', { body });
        expect(created.status, created.text.slice(0, 300)).toBe(201);
        ids.push(created.body.result.worldId);
      }
      const id = ids[0];
      const updated = await h.call('updateWorld', { params: { id }, body: { definition: { identity: { name: 'long 0', description: long('e') } } } });
      expect(updated.status).toBe(200);
      expect((await h.call('dispatchEvent', { params: { id }, body: { type: 'thunder', spaceId: 'dock' } })).status).toBeLessThan(300);
      // One word of 330,000 characters for every persona to read (engine/psyche/language.ts readable:
      // read whole, it would have held the server for hours), and a type as long.
      const described = await h.call('dispatchEvent', { params: { id }, body: { type: long('t'), spaceId: 'dock', payload: { description: long('x').repeat(20) } } });
      expect(described.status).toBeLessThan(300);
      expect((await h.call('chat', { params: { id }, body: { from: 'visitor', to: 'mara', message: 'Good morning, Mara!' } })).status).toBe(200);
      const snapshot = await h.call('getWorldSnapshot', { params: { id } });
      expect(snapshot.status).toBe(200);
      expect(snapshot.text).toContain(long('e'));
      const put = await h.call('putWorldSnapshot', { params: { id: ids[1] }, body: { snapshot: snapshot.body.result } });
      expect(put.status).toBeLessThan(300);
      expect((await h.call('tickWorld', { params: { id }, body: { seconds: 60 } })).status).toBeLessThan(300);
      expect((await h.call('listWorlds', { query: { limit: '10' } })).status).toBe(200);
    });
    expect(found).toEqual([]);
  });
});
