// In-memory store: the default when no --db is given. Everything is lost on exit.
import { copyBody, defaultFreeze, editBody, jsonSize, ownedBody, pageBounds, type Freeze } from './shared.ts';
import { DuplicateIdError, type AppendOpts, type Kind, type LogEntry, type PageOpts, type Store, type StoredDoc, type Usage } from './types.ts';

/**
 * A stored document with its body kept parsed and frozen (see Freeze): readers share it, get and list
 * copy it, an edit thaws it (see shared.ts). Bodies enter through JSON text or commit, so they are JSON values.
 */
type Rec = StoredDoc<unknown>;
type LogRec = { seq: number; body: unknown; bytes: number };
type Log = { entries: LogRec[]; bytes: number };

// JSON arrays make composite keys unambiguous whatever characters ids contain.
const docKey = (kind: Kind, tenantId: string, id: string) => JSON.stringify([kind, tenantId, id]);
const tenantKey = (kind: Kind, tenantId: string) => JSON.stringify([kind, tenantId]);

/** Index of the first item whose seq is > afterSeq; arrays are sorted by seq because seq only grows. */
function firstAfter(items: { seq: number }[], afterSeq: number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (items[mid].seq <= afterSeq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function createMemoryStore(opts: { freeze?: Freeze } = {}): Store {
  const freeze = opts.freeze ?? defaultFreeze();
  const docs = new Map<string, Rec>();
  const listings = new Map<string, Rec[]>(); // per (kind, tenant), in seq order, deleted ones included
  const logs = new Map<string, Log>(); // per (kind, tenant, owner), entries in seq order
  const usages = new Map<string, Usage>();
  let docSeq = 0;
  let logSeq = 0;
  let closed = false;

  // Transactions: while one is open, each write records how to undo itself, so a
  // throwing fn can be rolled back like SQLite would.
  let depth = 0;
  const undos: (() => void)[] = [];
  const onUndo = (undo: () => void) => {
    if (depth > 0) undos.push(undo);
  };

  const ensureOpen = () => {
    if (closed) throw new Error('store: the in-memory store is closed');
  };
  const toDoc = <T>(rec: Rec): StoredDoc<T> => ({ ...rec, body: copyBody(rec.body) as T });
  const usageOf = (tenantId: string) => {
    let u = usages.get(tenantId);
    if (!u) usages.set(tenantId, (u = { worlds: 0, personas: 0, bytes: 0 }));
    return u;
  };
  /** Adds to a tenant's usage, undone with the transaction. */
  const count = (tenantId: string, kind: Kind | undefined, live: number, bytes: number) => {
    const u = usageOf(tenantId);
    const field = kind === 'world' ? 'worlds' : 'personas';
    if (kind) u[field] += live;
    u.bytes += bytes;
    onUndo(() => {
      if (kind) u[field] -= live;
      u.bytes -= bytes;
    });
  };
  const liveRec = (kind: Kind, tenantId: string, id: string) => {
    const rec = docs.get(docKey(kind, tenantId, id));
    return rec && rec.deletedAt === null ? rec : undefined;
  };
  /** Sets fields of a record, remembering the old values for rollback. */
  const patch = (rec: Rec, fields: Partial<Rec>) => {
    const old = Object.fromEntries(Object.keys(fields).map((k) => [k, rec[k as keyof Rec]]));
    Object.assign(rec, fields);
    onUndo(() => Object.assign(rec, old));
  };

  /** Drops the oldest entries until the log holds at most keepBytes (the newest always stays). */
  const trim = (tenantId: string, log: Log, keepBytes: number) => {
    let n = 0;
    let freed = 0;
    while (n < log.entries.length - 1 && log.bytes - freed > keepBytes) freed += log.entries[n++].bytes;
    if (n === 0) return;
    const removed = log.entries.splice(0, n);
    log.bytes -= freed;
    onUndo(() => {
      log.entries.unshift(...removed);
      log.bytes += freed;
    });
    count(tenantId, undefined, 0, -freed);
  };

  return {
    insert<T>(kind: Kind, tenantId: string, id: string, createdAt: number, body: T): StoredDoc<T> {
      ensureOpen();
      const key = docKey(kind, tenantId, id);
      if (docs.has(key)) throw new DuplicateIdError(kind, tenantId, id);
      const { body: frozen, bytes } = ownedBody(body);
      const rec: Rec = { kind, tenantId, id, seq: ++docSeq, createdAt, updatedAt: createdAt, deletedAt: null, body: frozen, bytes };
      const lkey = tenantKey(kind, tenantId);
      const listing = listings.get(lkey) ?? [];
      listings.set(lkey, listing);
      docs.set(key, rec);
      listing.push(rec);
      // Undos run in reverse order, so this record is still the listing's last.
      onUndo(() => {
        docs.delete(key);
        listing.pop();
      });
      count(tenantId, kind, 1, bytes);
      return toDoc(rec);
    },

    read<T>(kind: Kind, tenantId: string, id: string) {
      ensureOpen();
      const rec = liveRec(kind, tenantId, id);
      return rec && ({ ...rec } as StoredDoc<Readonly<T>>);
    },

    get<T>(kind: Kind, tenantId: string, id: string, opts: { includeDeleted?: boolean } = {}) {
      ensureOpen();
      const rec = opts.includeDeleted ? docs.get(docKey(kind, tenantId, id)) : liveRec(kind, tenantId, id);
      return rec && toDoc<T>(rec);
    },

    update<T>(kind: Kind, tenantId: string, id: string, body: T, updatedAt: number): boolean {
      ensureOpen();
      const rec = liveRec(kind, tenantId, id);
      if (!rec) return false;
      const next = ownedBody(body);
      count(tenantId, undefined, 0, next.bytes - rec.bytes);
      patch(rec, { ...next, updatedAt });
      return true;
    },

    edit<T, R>(kind: Kind, tenantId: string, id: string, updatedAt: number, fn: (draft: T) => R) {
      ensureOpen();
      const rec = liveRec(kind, tenantId, id);
      if (!rec) return undefined;
      // The size of its JSON text as SQLite stores it, counted by the commit's own walk (commitSized).
      const { body, result, bytes } = editBody(rec.body as T, freeze, fn);
      const previousBytes = rec.bytes;
      count(tenantId, undefined, 0, bytes - previousBytes);
      patch(rec, { body, updatedAt, bytes });
      return { result, bytes, previousBytes };
    },

    softDelete(kind, tenantId, id, at) {
      ensureOpen();
      const rec = liveRec(kind, tenantId, id);
      if (!rec) return false;
      count(tenantId, kind, -1, 0);
      patch(rec, { deletedAt: at, updatedAt: at });
      return true;
    },

    restore(kind, tenantId, id, at) {
      ensureOpen();
      const rec = docs.get(docKey(kind, tenantId, id));
      if (!rec || rec.deletedAt === null) return false;
      count(tenantId, kind, 1, 0);
      patch(rec, { deletedAt: null, updatedAt: at });
      return true;
    },

    list<T>(kind: Kind, tenantId: string, opts: PageOpts) {
      ensureOpen();
      const { afterSeq, limit } = pageBounds(opts);
      const listing = listings.get(tenantKey(kind, tenantId)) ?? [];
      const items: StoredDoc<T>[] = [];
      for (let i = firstAfter(listing, afterSeq); i < listing.length; i++) {
        if (listing[i].deletedAt !== null) continue;
        if (items.length === limit) return { items, more: true };
        items.push(toDoc<T>(listing[i]));
      }
      return { items, more: false };
    },

    appendLog<T>(kind: Kind, tenantId: string, ownerId: string, entries: T[], opts: AppendOpts = {}): LogEntry<T>[] {
      ensureOpen();
      const key = docKey(kind, tenantId, ownerId);
      // Copy everything first so a bad entry leaves the log untouched. An entry already frozen
      // comes from a committed edit (e.g. the events a chat also keeps in the world): JSON already.
      const recs: LogRec[] = entries.map((body) => {
        const shared = typeof body === 'object' && body !== null && Object.isFrozen(body);
        return shared ? { seq: 0, body, bytes: jsonSize(body) } : { seq: 0, ...ownedBody(body) };
      });
      for (const rec of recs) rec.seq = ++logSeq;
      let log = logs.get(key);
      if (!log) logs.set(key, (log = { entries: [], bytes: 0 }));
      const added = recs.reduce((sum, r) => sum + r.bytes, 0);
      const target = log;
      target.entries.push(...recs);
      target.bytes += added;
      onUndo(() => {
        target.entries.length -= recs.length;
        target.bytes -= added;
      });
      count(tenantId, undefined, 0, added);
      if (opts.keepBytes !== undefined) trim(tenantId, target, opts.keepBytes);
      return recs.map((r) => ({ seq: r.seq, body: copyBody(r.body) as T }));
    },

    listLog<T>(kind: Kind, tenantId: string, ownerId: string, opts: PageOpts) {
      ensureOpen();
      const { afterSeq, limit } = pageBounds(opts);
      const log = logs.get(docKey(kind, tenantId, ownerId))?.entries ?? [];
      const start = firstAfter(log, afterSeq);
      const items = log.slice(start, start + limit).map((r) => ({ seq: r.seq, body: copyBody(r.body) as T }));
      return { items, more: start + limit < log.length };
    },

    usage(tenantId: string): Usage {
      ensureOpen();
      return { ...usageOf(tenantId) };
    },

    transaction<R>(fn: () => R): R {
      ensureOpen();
      const mark = undos.length;
      depth++;
      try {
        const result = fn();
        // Same rule as better-sqlite3: an async fn would escape the transaction.
        if (typeof (result as { then?: unknown } | null)?.then === 'function') {
          throw new TypeError('store: a transaction function cannot return a promise');
        }
        return result;
      } catch (err) {
        while (undos.length > mark) undos.pop()!();
        throw err;
      } finally {
        depth--;
        if (depth === 0) undos.length = 0;
      }
    },

    close() {
      closed = true;
      docs.clear();
      listings.clear();
      logs.clear();
      usages.clear();
    },
  };
}
