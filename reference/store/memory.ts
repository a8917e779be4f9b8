// In-memory store: the default when no --db is given. Everything is lost on exit.
import { copyBody, defaultFreeze, editBody, encodeBody, frozenBody, pageBounds, type Freeze } from './shared.ts';
import { DuplicateIdError, type Kind, type LogEntry, type PageOpts, type Store, type StoredDoc } from './types.ts';

/**
 * A stored document with its body kept parsed and frozen (see Freeze): readers share it, get and list
 * copy it, an edit thaws it (see shared.ts). Bodies enter through JSON text or commit, so they are JSON values.
 */
type Rec = StoredDoc<unknown>;
type LogRec = { seq: number; body: unknown };

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
  const logs = new Map<string, LogRec[]>(); // per (kind, tenant, owner), in seq order
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
  /** A body given by a caller: copied through JSON text, so later changes to it cannot reach the store. */
  const own = (body: unknown) => frozenBody(encodeBody(body));
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

  return {
    insert<T>(kind: Kind, tenantId: string, id: string, createdAt: number, body: T): StoredDoc<T> {
      ensureOpen();
      const key = docKey(kind, tenantId, id);
      if (docs.has(key)) throw new DuplicateIdError(kind, tenantId, id);
      const rec: Rec = { kind, tenantId, id, seq: ++docSeq, createdAt, updatedAt: createdAt, deletedAt: null, body: own(body) };
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
      patch(rec, { body: own(body), updatedAt });
      return true;
    },

    edit<T, R>(kind: Kind, tenantId: string, id: string, updatedAt: number, fn: (draft: T) => R) {
      ensureOpen();
      const rec = liveRec(kind, tenantId, id);
      if (!rec) return undefined;
      const { body, result } = editBody(rec.body as T, freeze, fn);
      patch(rec, { body, updatedAt });
      return { result };
    },

    softDelete(kind, tenantId, id, at) {
      ensureOpen();
      const rec = liveRec(kind, tenantId, id);
      if (!rec) return false;
      patch(rec, { deletedAt: at, updatedAt: at });
      return true;
    },

    restore(kind, tenantId, id, at) {
      ensureOpen();
      const rec = docs.get(docKey(kind, tenantId, id));
      if (!rec || rec.deletedAt === null) return false;
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

    appendLog<T>(kind: Kind, tenantId: string, ownerId: string, entries: T[]): LogEntry<T>[] {
      ensureOpen();
      const key = docKey(kind, tenantId, ownerId);
      // Copy everything first so a bad entry leaves the log untouched. An entry already frozen
      // comes from a committed edit (e.g. the events a chat also keeps in the world): JSON already.
      const recs = entries.map((body) => ({ seq: 0, body: typeof body === 'object' && body !== null && Object.isFrozen(body) ? body : own(body) }));
      for (const rec of recs) rec.seq = ++logSeq;
      const log = logs.get(key) ?? [];
      logs.set(key, log);
      log.push(...recs);
      onUndo(() => {
        log.length -= recs.length;
      });
      return recs.map((r) => ({ seq: r.seq, body: copyBody(r.body) as T }));
    },

    listLog<T>(kind: Kind, tenantId: string, ownerId: string, opts: PageOpts) {
      ensureOpen();
      const { afterSeq, limit } = pageBounds(opts);
      const log = logs.get(docKey(kind, tenantId, ownerId)) ?? [];
      const start = firstAfter(log, afterSeq);
      const items = log.slice(start, start + limit).map((r) => ({ seq: r.seq, body: copyBody(r.body) as T }));
      return { items, more: start + limit < log.length };
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
    },
  };
}
