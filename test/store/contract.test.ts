// The Store contract, run against both implementations so they cannot drift.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStore, DuplicateIdError, type Freeze, type Store } from '../../reference/store/index.ts';
import { createSqliteStore } from '../../reference/store/sqlite.ts';

const dir = mkdtempSync(join(tmpdir(), 'store-contract-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

// Each store in both freeze modes (see Freeze in reference/store/shared.ts).
const factories: [string, () => Store, Freeze][] = [
  ['memory', () => createMemoryStore({ freeze: 'deep' }), 'deep'],
  ['memory', () => createMemoryStore({ freeze: 'items' }), 'items'],
  ['sqlite', () => createSqliteStore(join(dir, `contract-${++files}.db`), { freeze: 'deep' }), 'deep'],
  ['sqlite', () => createSqliteStore(join(dir, `contract-${++files}.db`), { freeze: 'items' }), 'items'],
];

const ids = (items: { id: string }[]) => items.map((d) => d.id);

describe.each(factories)('%s store, freeze %s', (_name, make, freeze) => {
  let store: Store;
  beforeEach(() => {
    store = make();
  });
  afterEach(() => store.close());

  describe('read (read-only, no copy)', () => {
    it('gives the live body deep-frozen, follows updates, and hides deleted and foreign documents', () => {
      store.insert('world', 't1', 'w1', 1000, { name: 'Avalon', inner: { tags: ['a'] } });
      const first = store.read<{ name: string; inner: { tags: string[] } }>('world', 't1', 'w1')!;
      expect(first.body).toEqual({ name: 'Avalon', inner: { tags: ['a'] } });
      expect(first.seq).toBe(store.get('world', 't1', 'w1')!.seq);
      expect(() => { (first.body as { name: string }).name = 'x'; }).toThrow(TypeError);
      expect(() => { (first.body.inner.tags as string[]).push('b'); }).toThrow(TypeError);
      store.update('world', 't1', 'w1', { name: 'Camelot', inner: { tags: [] } }, 2000);
      expect(store.read('world', 't1', 'w1')!.body).toEqual({ name: 'Camelot', inner: { tags: [] } });
      expect(first.body.name).toBe('Avalon');
      expect(store.read('world', 't2', 'w1')).toBeUndefined();
      store.softDelete('world', 't1', 'w1', 3000);
      expect(store.read('world', 't1', 'w1')).toBeUndefined();
    });

    it('rolls back with the transaction: a read after a failed update sees the old body', () => {
      store.insert('world', 't1', 'w1', 1000, { v: 1 });
      expect(store.read('world', 't1', 'w1')!.body).toEqual({ v: 1 });
      expect(() => store.transaction(() => { store.update('world', 't1', 'w1', { v: 2 }, 2000); throw new Error('boom'); })).toThrow('boom');
      expect(store.read('world', 't1', 'w1')!.body).toEqual({ v: 1 });
    });
  });

  describe('insert / get / update', () => {
    it('round-trips a document with store-assigned metadata', () => {
      const doc = store.insert('world', 't1', 'w1', 1000, { name: 'Avalon', tags: ['a'] });
      expect(doc).toEqual({
        kind: 'world', tenantId: 't1', id: 'w1', seq: expect.any(Number),
        createdAt: 1000, updatedAt: 1000, deletedAt: null, body: { name: 'Avalon', tags: ['a'] },
        bytes: JSON.stringify({ name: 'Avalon', tags: ['a'] }).length,
      });
      expect(store.get('world', 't1', 'w1')).toEqual(doc);
      expect(store.get('world', 't1', 'nope')).toBeUndefined();
      expect(store.get('persona', 't1', 'w1')).toBeUndefined(); // kinds are separate namespaces
    });

    it('update replaces the body and updatedAt, keeping seq and createdAt', () => {
      const doc = store.insert('persona', 't1', 'p1', 1000, { v: 1, old: true });
      expect(store.update('persona', 't1', 'p1', { v: 2 }, 2000)).toBe(true);
      expect(store.get('persona', 't1', 'p1')).toEqual({ ...doc, updatedAt: 2000, body: { v: 2 }, bytes: 7 });
      expect(store.update('persona', 't1', 'missing', { v: 3 }, 3000)).toBe(false);
    });

    it('update of a soft-deleted document returns false and changes nothing', () => {
      store.insert('world', 't1', 'w1', 1000, { v: 1 });
      store.softDelete('world', 't1', 'w1', 1500);
      expect(store.update('world', 't1', 'w1', { v: 2 }, 2000)).toBe(false);
      expect(store.get('world', 't1', 'w1', { includeDeleted: true })).toMatchObject({ updatedAt: 1500, body: { v: 1 } });
    });

    it('assigns strictly increasing seq across kinds and tenants', () => {
      const seqs = [
        store.insert('world', 't1', 'a', 1, {}).seq,
        store.insert('persona', 't2', 'a', 1, {}).seq,
        store.insert('world', 't2', 'b', 1, {}).seq,
        store.insert('world', 't1', 'c', 1, {}).seq,
      ];
      for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBeGreaterThan(seqs[i - 1]);
    });

    it('rejects a duplicate (kind, tenant, id), even a soft-deleted one', () => {
      store.insert('world', 't1', 'w1', 1, { first: true });
      expect(() => store.insert('world', 't1', 'w1', 2, {})).toThrow(DuplicateIdError);
      store.softDelete('world', 't1', 'w1', 3);
      expect(() => store.insert('world', 't1', 'w1', 4, {})).toThrow(DuplicateIdError);
      expect(store.get('world', 't1', 'w1', { includeDeleted: true })?.body).toEqual({ first: true });
      // The same id is free in another tenant or kind.
      expect(store.insert('world', 't2', 'w1', 5, {}).id).toBe('w1');
      expect(store.insert('persona', 't1', 'w1', 6, {}).id).toBe('w1');
    });
  });

  describe('edit (read-modify-write without a copy of array items)', () => {
    type Doc = { name: string; nested: { n: number }; items: Array<{ v: number }>; at?: unknown; gone?: unknown };
    const seed = (): Doc => ({ name: 'a', nested: { n: 1 }, items: [{ v: 1 }] });

    it('commits what fn leaves in the draft, with updatedAt, normalised to JSON', () => {
      store.insert('world', 't', 'w', 1, seed());
      const edited = store.edit<Doc, string>('world', 't', 'w', 5, (d) => {
        d.nested.n = 2;
        d.items.push({ v: 2 });
        d.at = new Date(0);
        d.gone = undefined;
        return d.name;
      });
      expect(edited).toEqual({ result: 'a', previousBytes: JSON.stringify(seed()).length, bytes: expect.any(Number) });
      const doc = store.get<Doc>('world', 't', 'w')!;
      expect(doc.updatedAt).toBe(5);
      expect(doc.body).toStrictEqual({ name: 'a', nested: { n: 2 }, items: [{ v: 1 }, { v: 2 }], at: '1970-01-01T00:00:00.000Z' });
      expect(store.read('world', 't', 'w')!.body).toStrictEqual(doc.body);
    });

    it('changes nothing when fn throws, and the committed version never sees the draft', () => {
      store.insert('world', 't', 'w', 1, seed());
      const before = store.read<Doc>('world', 't', 'w')!.body;
      expect(() => store.edit<Doc, void>('world', 't', 'w', 5, (d) => {
        d.nested.n = 99;
        d.items.push({ v: 99 });
        throw new Error('boom');
      })).toThrow('boom');
      expect(store.get('world', 't', 'w')).toMatchObject({ updatedAt: 1, body: seed() });
      expect(before).toStrictEqual(seed());
    });

    it('shares array items frozen: modifying one throws and leaves the document as it was', () => {
      store.insert('world', 't', 'w', 1, seed());
      expect(() => store.edit<Doc, void>('world', 't', 'w', 5, (d) => { d.items[0].v = 7; })).toThrow(TypeError);
      store.edit<Doc, void>('world', 't', 'w', 6, (d) => { d.items[0] = { ...d.items[0], v: 7 }; });
      expect(store.get<Doc>('world', 't', 'w')!.body.items).toEqual([{ v: 7 }]);
    });

    it(`leaves array items frozen after an edit${freeze === 'deep' ? ', and every container' : ', containers not'}`, () => {
      store.insert('world', 't', 'w', 1, seed());
      store.edit<Doc, void>('world', 't', 'w', 5, (d) => { d.items.push({ v: 2 }); d.nested = { n: 3 }; });
      const body = store.read<Doc>('world', 't', 'w')!.body;
      expect(body.items.map(Object.isFrozen)).toEqual([true, true]);
      expect([body, body.nested, body.items].map(Object.isFrozen)).toEqual(Array(3).fill(freeze === 'deep'));
      expect(() => store.edit<Doc, void>('world', 't', 'w', 6, (d) => { d.items[1].v = 9; })).toThrow(TypeError);
    });

    it('is undone with an enclosing transaction that fails, and sees only live documents of its tenant', () => {
      store.insert('world', 't', 'w', 1, seed());
      expect(() => store.transaction(() => {
        store.edit<Doc, void>('world', 't', 'w', 5, (d) => { d.name = 'changed'; });
        expect(store.read<Doc>('world', 't', 'w')!.body.name).toBe('changed');
        throw new Error('later failure');
      })).toThrow('later failure');
      expect(store.read<Doc>('world', 't', 'w')!.body.name).toBe('a');
      expect(store.get<Doc>('world', 't', 'w')).toMatchObject({ updatedAt: 1, body: { name: 'a' } });
      let called = false;
      expect(store.edit('world', 'other', 'w', 5, () => { called = true; })).toBeUndefined();
      store.softDelete('world', 't', 'w', 7);
      expect(store.edit('world', 't', 'w', 8, () => { called = true; })).toBeUndefined();
      expect(called).toBe(false);
    });
  });

  describe('tenant isolation', () => {
    it("never returns or touches another tenant's documents", () => {
      store.insert('world', 'alice', 'shared-id', 1, { owner: 'alice' });
      store.insert('world', 'alice', 'only-alice', 1, {});
      store.insert('world', 'bob', 'bob-1', 1, { owner: 'bob' });

      expect(store.get('world', 'bob', 'only-alice')).toBeUndefined();
      expect(store.get('world', 'bob', 'only-alice', { includeDeleted: true })).toBeUndefined();
      expect(store.update('world', 'bob', 'only-alice', { hacked: true }, 2)).toBe(false);
      expect(store.softDelete('world', 'bob', 'only-alice', 2)).toBe(false);
      expect(store.get('world', 'alice', 'only-alice')?.body).toEqual({});

      store.softDelete('world', 'alice', 'shared-id', 3);
      expect(store.restore('world', 'bob', 'shared-id', 4)).toBe(false);
      expect(store.get('world', 'alice', 'shared-id')).toBeUndefined();

      expect(ids(store.list('world', 'bob', { limit: 100 }).items)).toEqual(['bob-1']);
      expect(ids(store.list('world', 'alice', { limit: 100 }).items)).toEqual(['only-alice']);
      expect(store.list('world', 'carol', { limit: 100 })).toEqual({ items: [], more: false });
    });
  });

  describe('soft delete and restore', () => {
    beforeEach(() => {
      for (const id of ['a', 'b', 'c', 'd']) store.insert('world', 't', id, 100, { id });
    });

    it('hides a soft-deleted document from get and list, but not from get with includeDeleted', () => {
      expect(store.softDelete('world', 't', 'b', 200)).toBe(true);
      expect(store.get('world', 't', 'b')).toBeUndefined();
      expect(store.get('world', 't', 'b', { includeDeleted: true })).toMatchObject({
        id: 'b', deletedAt: 200, updatedAt: 200, createdAt: 100, body: { id: 'b' },
      });
      expect(ids(store.list('world', 't', { limit: 10 }).items)).toEqual(['a', 'c', 'd']);
    });

    it('restore brings a document back in its original place in the listing', () => {
      const before = store.get('world', 't', 'b')!;
      store.softDelete('world', 't', 'b', 200);
      store.insert('world', 't', 'e', 250, {});
      expect(store.restore('world', 't', 'b', 300)).toBe(true);
      expect(ids(store.list('world', 't', { limit: 10 }).items)).toEqual(['a', 'b', 'c', 'd', 'e']);
      expect(store.get('world', 't', 'b')).toEqual({ ...before, deletedAt: null, updatedAt: 300 });
    });

    it('returns false for restore of a live doc and soft-delete of a deleted or missing one', () => {
      expect(store.restore('world', 't', 'a', 200)).toBe(false);
      expect(store.restore('world', 't', 'missing', 200)).toBe(false);
      expect(store.softDelete('world', 't', 'missing', 200)).toBe(false);
      expect(store.softDelete('world', 't', 'a', 200)).toBe(true);
      expect(store.softDelete('world', 't', 'a', 300)).toBe(false);
      expect(store.get('world', 't', 'a', { includeDeleted: true })?.deletedAt).toBe(200); // first delete wins
      expect(store.get('world', 't', 'c')?.updatedAt).toBe(100);
    });
  });

  describe('paging', () => {
    it.each([1, 7, 20, 100])('walks 250 documents with limit %i, mutating between pages, without repeats or skips', (limit) => {
      const tenant = 'walker';
      const all = Array.from({ length: 250 }, (_, i) => `w${String(i).padStart(3, '0')}`);
      store.transaction(() => {
        all.forEach((id, i) => {
          store.insert('world', tenant, id, i, { i });
          // Noise in other tenants and kinds, interleaved in seq, must never appear.
          if (i % 5 === 0) store.insert('world', 'other', id, i, {});
          if (i % 7 === 0) store.insert('persona', tenant, id, i, {});
        });
      });
      // A model of which documents are live; each page must match what it predicts.
      const live = all.map(() => true);
      const everDeleted = new Set<number>();
      const del = (i: number) => {
        expect(store.softDelete('world', tenant, all[i], 1)).toBe(live[i]);
        if (live[i]) everDeleted.add(i);
        live[i] = false;
      };
      for (let i = 3; i < all.length; i += 10) del(i); // pre-deleted: the walk must skip these...
      const pending = all.map((_, i) => i).filter((i) => i % 10 === 3);

      const seen: string[] = [];
      let afterSeq: number | undefined;
      let lastIdx = -1;
      for (let p = 0; ; p++) {
        expect(p).toBeLessThan(1000); // a bug that loops forever fails instead of hanging
        const page = store.list<{ i: number }>('world', tenant, { afterSeq, limit });
        const ahead = all.map((_, i) => i).filter((i) => i > lastIdx && live[i]);
        expect(ids(page.items)).toEqual(ahead.slice(0, limit).map((i) => all[i]));
        expect(page.more).toBe(ahead.length > limit);
        seen.push(...ids(page.items));
        if (!page.more) break;

        const last = page.items[page.items.length - 1];
        lastIdx = last.body.i;
        afterSeq = last.seq;
        // Between pages: delete one already seen and one not yet seen...
        del(p % (lastIdx + 1));
        if (lastIdx + 1 + (p % 3) < all.length) del(lastIdx + 1 + (p % 3));
        // ...restore a pre-deleted one ahead (it must appear), and update one ahead (it must not move).
        const back = pending.find((i) => i > lastIdx && !live[i]);
        if (p % 2 === 0 && back !== undefined) {
          expect(store.restore('world', tenant, all[back], 2)).toBe(true);
          live[back] = true;
        }
        if (lastIdx + 2 < all.length) store.update('world', tenant, all[lastIdx + 2], { i: lastIdx + 2, touched: p }, 3);
      }

      expect(new Set(seen).size).toBe(seen.length);
      const neverDeleted = all.filter((_, i) => !everDeleted.has(i));
      expect(seen).toEqual(expect.arrayContaining(neverDeleted));
      expect(seen).toEqual([...seen].sort()); // ids were inserted in sorted order, i.e. seq order
    });

    it('rejects a limit that is not a positive integer', () => {
      expect(() => store.list('world', 't', { limit: 0 })).toThrow(RangeError);
      expect(() => store.list('world', 't', { limit: 2.5 })).toThrow(RangeError);
      expect(() => store.listLog('world', 't', 'o', { limit: -1 })).toThrow(RangeError);
    });
  });

  describe('usage (what quotas are checked against)', () => {
    const size = (v: unknown) => Buffer.byteLength(JSON.stringify(v));
    it('counts live worlds and personas, and the bytes of every document and log entry, per tenant', () => {
      store.insert('world', 't', 'w1', 1, { a: 'é' });
      store.insert('world', 't', 'w2', 1, { b: 1 });
      store.insert('persona', 't', 'p1', 1, {});
      store.insert('world', 'other', 'w1', 1, { c: 'x'.repeat(100) });
      store.softDelete('world', 't', 'w2', 2);
      store.appendLog('world', 't', 'w1', [{ e: 1 }, 'two']);
      store.edit<{ a: string; more?: string }, void>('world', 't', 'w1', 3, (d) => { d.more = 'yz'; });
      const bytes = size({ a: 'é', more: 'yz' }) + size({ b: 1 }) + size({}) + size({ e: 1 }) + size('two');
      expect(store.usage('t')).toEqual({ worlds: 1, personas: 1, bytes });
      expect(store.usage('other')).toEqual({ worlds: 1, personas: 0, bytes: size({ c: 'x'.repeat(100) }) });
      expect(store.usage('nobody')).toEqual({ worlds: 0, personas: 0, bytes: 0 });
      store.restore('world', 't', 'w2', 4);
      expect(store.usage('t').worlds).toBe(2);
    });

    it('counts the exact bytes of non-integer numbers and of long texts, in edits too', () => {
      const long = `${'l'.repeat(20_000)}"\u0001é`;
      const body = { f: 0.1 + 0.2, g: [-1.5e-7, 5e-324, 2.5], s: long, [long.slice(0, 300)]: true };
      store.insert('persona', 't', 'p1', 1, body);
      expect(store.usage('t').bytes).toBe(size(body));
      store.edit<{ f: number; h?: number }, void>('persona', 't', 'p1', 2, (d) => { d.f = 1 / 3; d.h = -0.75; });
      expect(store.usage('t').bytes).toBe(size({ ...body, f: 1 / 3, h: -0.75 }));
    });

    it('is rolled back with a transaction', () => {
      store.insert('world', 't', 'w1', 1, { a: 1 });
      const before = store.usage('t');
      expect(() => store.transaction(() => {
        store.insert('world', 't', 'w2', 1, { b: 'x'.repeat(50) });
        store.edit<{ a: number; c?: string }, void>('world', 't', 'w1', 2, (d) => { d.c = 'y'.repeat(20); });
        store.appendLog('world', 't', 'w1', ['e'], { keepBytes: 0 });
        store.softDelete('world', 't', 'w1', 3);
        throw new Error('undo');
      })).toThrow('undo');
      expect(store.usage('t')).toEqual(before);
    });

    it('drops the oldest log entries past keepBytes, and counts them no more; the newest stays', () => {
      const entry = (i: number) => ({ i, pad: 'x'.repeat(90) });
      for (let i = 0; i < 10; i++) store.appendLog('world', 't', 'w', [entry(i)], { keepBytes: 5 * size(entry(0)) });
      expect(store.listLog<{ i: number }>('world', 't', 'w', { limit: 100 }).items.map((e) => e.body.i)).toEqual([5, 6, 7, 8, 9]);
      expect(store.usage('t').bytes).toBe(5 * size(entry(0)));
      store.appendLog('world', 't', 'w', [{ big: 'y'.repeat(1000) }], { keepBytes: 10 });
      expect(store.listLog('world', 't', 'w', { limit: 100 }).items).toHaveLength(1);
    });
  });

  describe('logs', () => {
    it('appends with increasing seq and pages per owner', () => {
      const first = store.appendLog('world', 't', 'w1', ['a', 'b', 'c']);
      const other = store.appendLog('world', 't', 'w2', ['x']);
      const second = store.appendLog('world', 't', 'w1', ['d', 'e']);
      const seqs = [...first, ...other, ...second].map((e) => e.seq);
      for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBeGreaterThan(seqs[i - 1]);
      expect(first.map((e) => e.body)).toEqual(['a', 'b', 'c']);

      const pages: string[][] = [];
      let afterSeq: number | undefined;
      for (;;) {
        const page = store.listLog<string>('world', 't', 'w1', { afterSeq, limit: 2 });
        pages.push(page.items.map((e) => e.body));
        if (!page.more) break;
        afterSeq = page.items[page.items.length - 1].seq;
      }
      expect(pages).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
      expect(store.listLog('world', 't', 'w1', { limit: 5 })).toEqual({ items: [...first, ...second], more: false });
      expect(store.listLog('world', 't', 'w1', { limit: 4 }).more).toBe(true);
    });

    it('keeps logs apart by kind, tenant and owner', () => {
      store.appendLog('world', 't', 'o', [{ n: 1 }]);
      expect(store.listLog('world', 't', 'o', { limit: 10 }).items).toHaveLength(1);
      expect(store.listLog('persona', 't', 'o', { limit: 10 }).items).toEqual([]);
      expect(store.listLog('world', 'other', 'o', { limit: 10 }).items).toEqual([]);
      expect(store.listLog('world', 't', 'o2', { limit: 10 }).items).toEqual([]);
    });

    it('appending nothing is a no-op', () => {
      expect(store.appendLog('world', 't', 'o', [])).toEqual([]);
      expect(store.listLog('world', 't', 'o', { limit: 10 })).toEqual({ items: [], more: false });
    });
  });

  describe('bodies', () => {
    it('are copies: mutating inputs or results never changes the stored body', () => {
      const input = { nested: { n: 1 }, list: [1] };
      const inserted = store.insert('world', 't', 'w', 1, input);
      input.nested.n = 99;
      inserted.body.list.push(2);
      store.get<typeof input>('world', 't', 'w')!.body.nested.n = 42;
      store.list<typeof input>('world', 't', { limit: 1 }).items[0].body.list.push(3);
      expect(store.get('world', 't', 'w')?.body).toEqual({ nested: { n: 1 }, list: [1] });

      const update = { nested: { n: 2 }, list: [] as number[] };
      store.update('world', 't', 'w', update, 2);
      update.list.push(7);
      expect(store.get('world', 't', 'w')?.body).toEqual({ nested: { n: 2 }, list: [] });

      const entry = { e: [1] };
      store.appendLog('world', 't', 'w', [entry])[0].body.e.push(2);
      entry.e.push(3);
      store.listLog<typeof entry>('world', 't', 'w', { limit: 1 }).items[0].body.e.push(4);
      expect(store.listLog('world', 't', 'w', { limit: 1 }).items[0].body).toEqual({ e: [1] });
    });

    it('are JSON values in both implementations', () => {
      const doc = store.insert('world', 't', 'w', 1, { gone: undefined, at: new Date(0), n: null });
      expect(doc.body).toStrictEqual({ at: '1970-01-01T00:00:00.000Z', n: null });
      expect(store.get('world', 't', 'w')?.body).toStrictEqual(doc.body);
      expect(() => store.insert('world', 't', 'x', 1, undefined)).toThrow(TypeError);
      expect(store.get('world', 't', 'x', { includeDeleted: true })).toBeUndefined();
    });

    it('refuse a body nested deeper than MAX_BODY_DEPTH with a clear error, not a stack overflow, and keep nothing', () => {
      let deep: unknown = 1;
      for (let i = 0; i < 20_000; i++) deep = { a: deep };
      expect(() => store.insert('world', 't', 'deep', 1, { deep })).toThrow(/nest deeper than 512 levels/);
      expect(store.get('world', 't', 'deep', { includeDeleted: true })).toBeUndefined();
      store.insert('world', 't', 'w', 1, { v: 1 });
      expect(() => store.edit('world', 't', 'w', 2, (draft: Record<string, unknown>) => { draft.deep = deep; })).toThrow(/nest deeper than 512 levels/);
      expect(() => store.update('world', 't', 'w', { deep }, 2)).toThrow(/nest deeper than 512 levels/);
      expect(store.get('world', 't', 'w')?.body).toEqual({ v: 1 });
    });
  });

  describe('transaction', () => {
    it('commits and returns the value of fn', () => {
      const result = store.transaction(() => {
        store.insert('world', 't', 'a', 1, {});
        store.appendLog('world', 't', 'a', ['created']);
        return 'done';
      });
      expect(result).toBe('done');
      expect(store.get('world', 't', 'a')).toBeDefined();
      expect(store.listLog('world', 't', 'a', { limit: 10 }).items).toHaveLength(1);
    });

    it('rolls back every write when fn throws, and rethrows', () => {
      store.insert('world', 't', 'kept', 1, { v: 1 });
      store.insert('world', 't', 'gone', 1, {});
      store.softDelete('world', 't', 'gone', 2);
      const boom = new Error('boom');
      expect(() =>
        store.transaction(() => {
          store.insert('world', 't', 'new', 3, {});
          store.update('world', 't', 'kept', { v: 2 }, 3);
          store.softDelete('world', 't', 'kept', 4);
          store.restore('world', 't', 'gone', 4);
          store.appendLog('world', 't', 'kept', ['x', 'y']);
          throw boom;
        }),
      ).toThrow(boom);
      expect(store.get('world', 't', 'new', { includeDeleted: true })).toBeUndefined();
      expect(store.get('world', 't', 'kept')).toMatchObject({ updatedAt: 1, deletedAt: null, body: { v: 1 } });
      expect(store.get('world', 't', 'gone', { includeDeleted: true })).toMatchObject({ deletedAt: 2 });
      expect(store.listLog('world', 't', 'kept', { limit: 10 }).items).toEqual([]);
      expect(ids(store.list('world', 't', { limit: 10 }).items)).toEqual(['kept']);
      // The store is still usable, and a rolled-back id is free again.
      expect(store.insert('world', 't', 'new', 5, {}).seq).toBeGreaterThan(0);
    });

    it('nests: a failed inner transaction caught by the outer one undoes only its own writes', () => {
      store.transaction(() => {
        store.insert('world', 't', 'outer', 1, {});
        expect(() =>
          store.transaction(() => {
            store.insert('world', 't', 'inner', 1, {});
            throw new Error('inner');
          }),
        ).toThrow('inner');
        store.insert('world', 't', 'after', 1, {});
      });
      expect(ids(store.list('world', 't', { limit: 10 }).items)).toEqual(['outer', 'after']);
    });

    it('refuses an async fn, whose awaits would escape the transaction', () => {
      expect(() =>
        store.transaction(() => {
          store.insert('world', 't', 'a', 1, {});
          return Promise.resolve();
        }),
      ).toThrow(TypeError);
      expect(store.get('world', 't', 'a')).toBeUndefined();
    });
  });

  it('refuses use after close', () => {
    store.close();
    expect(() => store.get('world', 't', 'a')).toThrow();
    store = make(); // afterEach closes this one
  });
});
