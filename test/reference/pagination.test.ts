// Cursor pagination: a walk over 250 worlds with several limits never repeats nor skips, also when
// worlds are deleted between pages; limit defaults to 20 and never exceeds 100.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startHarness, type Harness } from './harness.ts';

let h: Harness;
const created: string[] = [];
beforeAll(async () => {
  h = await startHarness();
  for (let n = 0; n < 250; n++) {
    created.push((await h.call('createWorld', { body: { definition: { identity: { name: `World ${n}` } } } })).body.result.worldId);
  }
});
afterAll(async () => h.close());

async function walk(limit?: string, between?: (page: number) => Promise<void>) {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 1000; page++) {
    const query: Record<string, string> = { ...(limit ? { limit } : {}), ...(cursor ? { cursor } : {}) };
    const result = (await h.call('listWorlds', { query })).body.result;
    seen.push(...result.worlds.map((w: { id: string }) => w.id));
    if (limit) expect(result.worlds.length).toBeLessThanOrEqual(Math.min(100, Number(limit)));
    cursor = result.nextCursor;
    if (!cursor) return seen;
    await between?.(page);
  }
  throw new Error('pagination did not end');
}

describe('GET /worlds pagination', () => {
  for (const limit of ['1', '7', '20', '100']) {
    it(`walks all 250 worlds in creation order with limit ${limit}`, async () => {
      expect(await walk(limit)).toEqual(created);
    });
  }

  it('defaults to 20 and clamps limits above 100 to 100', async () => {
    expect((await h.call('listWorlds')).body.result.worlds).toHaveLength(20);
    expect((await h.call('listWorlds', { query: { limit: '500' } })).body.result.worlds).toHaveLength(100);
  });

  it('omits nextCursor on the last page', async () => {
    const all = await h.call('listWorlds', { query: { limit: '100' } });
    const last = await walk('100');
    expect(last).toHaveLength(250);
    expect(all.body.result.nextCursor).toBeTypeOf('string');
  });

  it('neither repeats nor skips while worlds are deleted between pages', async () => {
    const deleted = new Set<string>();
    const seen = await walk('13', async (page) => {
      // Delete one world already served and one not yet served.
      for (const id of [created[page * 13], created[249 - page]]) {
        if (deleted.has(id)) continue;
        deleted.add(id);
        expect((await h.call('deleteWorld', { params: { id } })).status).toBe(200);
      }
    });
    expect(new Set(seen).size).toBe(seen.length);
    const expected = created.filter((id) => seen.includes(id) || !deleted.has(id));
    expect(seen).toEqual(expected);
    for (const id of deleted) await h.call('restoreWorld', { params: { id } });
    expect(await walk('100')).toEqual(created);
  });

  it('refuses a limit that is not a positive integer and a forged cursor', async () => {
    for (const limit of ['0', '-1', 'ten', '1.5']) expectError(await h.call('listWorlds', { query: { limit } }), 400, 'VALIDATION_ERROR');
    expectError(await h.call('listWorlds', { query: { cursor: 'not-a-cursor' } }), 400, 'VALIDATION_ERROR');
  });
});
