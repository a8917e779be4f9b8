// SQLite store (`--db FILE`), via better-sqlite3, whose API is synchronous like ours.
import Database from 'better-sqlite3';
import { decodeBody, defaultFreeze, editBody, encodeBody, jsonBytes, pageBounds, frozenBody, type Freeze } from './shared.ts';
import { DuplicateIdError, type AppendOpts, type Kind, type LogEntry, type PageOpts, type Store, type StoredDoc, type Usage } from './types.ts';
import { checkFilesBeforeOpen, DamagedStoreError } from './sqlite-check.ts';

/**
 * Schema migrations; migrations[i] takes the file from user_version i to i + 1.
 * Append new steps, never edit old ones: existing files have already run them.
 */
const migrations = [
  `
  CREATE TABLE docs (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT, -- AUTOINCREMENT: a seq is never reused
    kind       TEXT    NOT NULL,
    tenant_id  TEXT    NOT NULL,
    id         TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    deleted_at INTEGER,
    body       TEXT    NOT NULL,
    UNIQUE (kind, tenant_id, id)
  );
  -- Paging walks live documents of one tenant in seq order; deleted rows stay out of the index.
  CREATE INDEX docs_live_by_seq ON docs (kind, tenant_id, seq) WHERE deleted_at IS NULL;
  CREATE TABLE logs (
    seq       INTEGER PRIMARY KEY AUTOINCREMENT,
    kind      TEXT NOT NULL,
    tenant_id TEXT NOT NULL,
    owner_id  TEXT NOT NULL,
    body      TEXT NOT NULL
  );
  CREATE INDEX logs_by_owner_seq ON logs (kind, tenant_id, owner_id, seq);
  `,
  // What the last process left (see recordState): whether it stopped cleanly, and how far seq had got.
  // And what each tenant holds (quotas), kept by every write in the same transaction.
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
  ALTER TABLE docs ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0;
  UPDATE docs SET bytes = length(CAST(body AS BLOB));
  CREATE TABLE log_usage (
    kind TEXT NOT NULL, tenant_id TEXT NOT NULL, owner_id TEXT NOT NULL, bytes INTEGER NOT NULL,
    PRIMARY KEY (kind, tenant_id, owner_id)
  );
  INSERT INTO log_usage SELECT kind, tenant_id, owner_id, sum(length(CAST(body AS BLOB))) FROM logs GROUP BY kind, tenant_id, owner_id;
  CREATE TABLE usage (
    tenant_id TEXT PRIMARY KEY, worlds INTEGER NOT NULL, personas INTEGER NOT NULL, bytes INTEGER NOT NULL
  );
  INSERT INTO usage
    SELECT tenant_id, sum(kind = 'world' AND deleted_at IS NULL), sum(kind = 'persona' AND deleted_at IS NULL), sum(bytes)
    FROM docs GROUP BY tenant_id;
  INSERT INTO usage SELECT tenant_id, 0, 0, sum(bytes) FROM log_usage WHERE true GROUP BY tenant_id
    ON CONFLICT (tenant_id) DO UPDATE SET bytes = bytes + excluded.bytes;
  `,
];
export const SCHEMA_VERSION = migrations.length;

type DocRow = {
  seq: number;
  kind: Kind;
  tenant_id: string;
  id: string;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
  body: string;
  bytes: number;
};

const toDoc = <T>(r: DocRow): StoredDoc<T> => ({
  kind: r.kind,
  tenantId: r.tenant_id,
  id: r.id,
  seq: r.seq,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  deletedAt: r.deleted_at,
  body: decodeBody<T>(r.body),
  bytes: r.bytes,
});

function migrate(db: Database.Database): void {
  // IMMEDIATE takes the write lock before reading the version, so two processes
  // opening a fresh file cannot both run the same step.
  db.transaction(() => {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) {
      throw new Error(`schema version ${version} is newer than this code supports (${SCHEMA_VERSION})`);
    }
    for (let v = version; v < SCHEMA_VERSION; v++) db.exec(migrations[v]);
    // Written even when unchanged: SQLite silently opens a read-only file read-only,
    // and this write makes that fail here, at startup, not on the first request.
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}

function open(file: string): Database.Database {
  let db: Database.Database | undefined;
  try {
    const walBefore = checkFilesBeforeOpen(file);
    db = new Database(file);
    // WAL: a commit is one append to the log. FULL: it is fsynced before the
    // commit returns, so a write answered 2xx survives kill -9 and power loss.
    const mode = db.pragma('journal_mode = WAL', { simple: true });
    if (mode !== 'wal') throw new Error(`cannot use WAL journal (got ${String(mode)})`);
    db.pragma('synchronous = FULL');
    // Checked before anything is written: a refused file is left as it was found.
    checkOpened(db, file, walBefore);
    migrate(db);
    recordState(db, 'running');
    // Copies the marker into the main file, so that losing the WAL cannot make it say "stopped".
    db.pragma('wal_checkpoint(FULL)');
    return db;
  } catch (err) {
    db?.close();
    if (err instanceof DamagedStoreError) throw err;
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`cannot open database file ${file}: ${reason}`, { cause: err });
  }
}

const STOPPED = 0;
const RUNNING = 1;

/**
 * The record of the expected state, in the main file: RUNNING from start-up until a clean close sets
 * STOPPED, and the highest seq of docs and logs at that moment (seq only grows: rows are never removed).
 */
function recordState(db: Database.Database, state: 'running' | 'stopped'): void {
  const high = highWater(db);
  const put = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  db.transaction(() => {
    put.run('state', state === 'running' ? RUNNING : STOPPED);
    put.run('docs_seq', high.docs);
    put.run('logs_seq', high.logs);
  })();
}

function highWater(db: Database.Database): { docs: number; logs: number } {
  const rows = db.prepare('SELECT name, seq FROM sqlite_sequence').all() as Array<{ name: string; seq: number }>;
  const of = (name: string) => rows.find((r) => r.name === name)?.seq ?? 0;
  return { docs: of('docs'), logs: of('logs') };
}

const hasTable = (db: Database.Database, name: string) =>
  db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(name) !== undefined;

/** SQLite's own check of every page, then the bodies (JSON text), then the record of the expected state. */
function checkOpened(db: Database.Database, file: string, walBefore: number | undefined): void {
  const refuse = (what: string) => new DamagedStoreError(`${file} ${what}; restore it from a backup`);
  let problems: string[];
  try {
    problems = (db.pragma('quick_check') as Array<{ quick_check: string }>).map((r) => r.quick_check.replace(/\s+/g, ' '));
  } catch (err) {
    throw refuse(`is damaged (${(err as Error).message})`);
  }
  if (problems.length !== 1 || problems[0] !== 'ok') throw refuse(`is damaged (SQLite's quick_check: ${problems[0]}${problems.length > 1 ? ` and ${problems.length - 1} more` : ''})`);
  if (!hasTable(db, 'docs')) return; // a new file
  for (const table of ['docs', 'logs']) {
    const bad = db.prepare(`SELECT seq FROM ${table} WHERE json_valid(body) = 0 LIMIT 1`).get() as { seq: number } | undefined;
    if (bad) throw refuse(`is damaged (row ${bad.seq} of ${table} no longer holds valid JSON)`);
  }
  if (!hasTable(db, 'meta')) return; // written by a version of the reference without the record
  const meta = new Map((db.prepare('SELECT key, value FROM meta').all() as Array<{ key: string; value: number }>).map((r) => [r.key, r.value]));
  if (meta.get('state') === RUNNING && !walBefore) {
    throw new DamagedStoreError(`${file} was not shut down cleanly and its write-ahead log ${file}-wal is ${walBefore === 0 ? 'empty' : 'missing'}: the writes since it last started are in that log; put ${file}-wal back beside it, or restore both from a backup`);
  }
  const high = highWater(db);
  if (high.docs < (meta.get('docs_seq') ?? 0) || high.logs < (meta.get('logs_seq') ?? 0)) {
    throw refuse(`holds less than it did when it was last opened or closed (documents up to seq ${high.docs} of ${meta.get('docs_seq')}, log entries up to ${high.logs} of ${meta.get('logs_seq')})`);
  }
}

/** Live documents kept parsed and frozen (see Freeze), most recently used last (see the cache in createSqliteStore). */
const CACHE_DOCS = 1000;

export function createSqliteStore(file: string, opts: { freeze?: Freeze } = {}): Store {
  const freeze = opts.freeze ?? defaultFreeze();
  const db = open(file);
  // Parsed, frozen live documents, so reads and edits skip JSON.parse. The file stays the truth:
  // every write goes to it first, an entry is dropped when its row changes any other way, and the
  // whole cache is dropped when a transaction rolls back. It assumes this process is the file's only
  // writer, which is how the reference runs (one `serve --db FILE`).
  const cache = new Map<string, StoredDoc<unknown>>();
  const cacheKey = (kind: Kind, tenantId: string, id: string) => JSON.stringify([kind, tenantId, id]);
  const remember = (k: string, doc: StoredDoc<unknown>) => {
    cache.delete(k);
    cache.set(k, doc);
    if (cache.size > CACHE_DOCS) cache.delete(cache.keys().next().value!);
  };
  /** The live document, parsed and frozen, from the cache or the file. */
  const live = (kind: Kind, tenantId: string, id: string): StoredDoc<unknown> | undefined => {
    const k = cacheKey(kind, tenantId, id);
    const hit = cache.get(k);
    if (hit) {
      remember(k, hit);
      return hit;
    }
    const row = sql.get.get({ kind, tenantId, id });
    if (!row || row.deleted_at !== null) return undefined;
    const doc = { ...toDoc<unknown>({ ...row, body: 'null' }), body: frozenBody(row.body) };
    remember(k, doc);
    return doc;
  };
  const key = 'kind = @kind AND tenant_id = @tenantId AND id = @id';
  const sql = {
    insert: db.prepare(
      `INSERT INTO docs (kind, tenant_id, id, created_at, updated_at, deleted_at, body, bytes)
       VALUES (@kind, @tenantId, @id, @createdAt, @createdAt, NULL, @body, @bytes)
       ON CONFLICT DO NOTHING`,
    ),
    count: db.prepare(
      `INSERT INTO usage (tenant_id, worlds, personas, bytes) VALUES (@tenantId, @worlds, @personas, @bytes)
       ON CONFLICT (tenant_id) DO UPDATE SET
         worlds = worlds + excluded.worlds, personas = personas + excluded.personas, bytes = bytes + excluded.bytes`,
    ),
    usage: db.prepare<[string], Usage>(`SELECT worlds, personas, bytes FROM usage WHERE tenant_id = ?`),
    logBytes: db.prepare(
      `INSERT INTO log_usage (kind, tenant_id, owner_id, bytes) VALUES (@kind, @tenantId, @ownerId, @bytes)
       ON CONFLICT (kind, tenant_id, owner_id) DO UPDATE SET bytes = bytes + excluded.bytes RETURNING bytes`,
    ),
    oldestLog: db.prepare<[{ kind: Kind; tenantId: string; ownerId: string }], { seq: number; bytes: number }>(
      `SELECT seq, length(CAST(body AS BLOB)) AS bytes FROM logs
       WHERE kind = @kind AND tenant_id = @tenantId AND owner_id = @ownerId ORDER BY seq`,
    ),
    dropLog: db.prepare(`DELETE FROM logs WHERE kind = @kind AND tenant_id = @tenantId AND owner_id = @ownerId AND seq <= @upTo`),
    get: db.prepare<[{ kind: Kind; tenantId: string; id: string }], DocRow>(`SELECT * FROM docs WHERE ${key}`),
    update: db.prepare(`UPDATE docs SET body = @body, bytes = @bytes, updated_at = @at WHERE ${key} AND deleted_at IS NULL`),
    bytesOf: db.prepare<[{ kind: Kind; tenantId: string; id: string }], { bytes: number }>(`SELECT bytes FROM docs WHERE ${key} AND deleted_at IS NULL`),
    softDelete: db.prepare(`UPDATE docs SET deleted_at = @at, updated_at = @at WHERE ${key} AND deleted_at IS NULL`),
    restore: db.prepare(`UPDATE docs SET deleted_at = NULL, updated_at = @at WHERE ${key} AND deleted_at IS NOT NULL`),
    list: db.prepare<[{ kind: Kind; tenantId: string; afterSeq: number; limit: number }], DocRow>(
      `SELECT * FROM docs
       WHERE kind = @kind AND tenant_id = @tenantId AND deleted_at IS NULL AND seq > @afterSeq
       ORDER BY seq LIMIT @limit`,
    ),
    appendLog: db.prepare(`INSERT INTO logs (kind, tenant_id, owner_id, body) VALUES (@kind, @tenantId, @ownerId, @body)`),
    listLog: db.prepare<[{ kind: Kind; tenantId: string; ownerId: string; afterSeq: number; limit: number }], { seq: number; body: string }>(
      `SELECT seq, body FROM logs
       WHERE kind = @kind AND tenant_id = @tenantId AND owner_id = @ownerId AND seq > @afterSeq
       ORDER BY seq LIMIT @limit`,
    ),
  };

  // Fetching limit + 1 rows tells whether another page exists without a COUNT.
  function page<R, I>(rows: R[], limit: number, map: (r: R) => I) {
    return { items: rows.slice(0, limit).map(map), more: rows.length > limit };
  }

  const count = (tenantId: string, kind: Kind | undefined, live: number, bytes: number) => {
    sql.count.run({ tenantId, worlds: kind === 'world' ? live : 0, personas: kind === 'persona' ? live : 0, bytes });
  };

  const appendLog = db.transaction((kind: Kind, tenantId: string, ownerId: string, bodies: string[], keepBytes: number | undefined) => {
    const seqs = bodies.map((body) => Number(sql.appendLog.run({ kind, tenantId, ownerId, body }).lastInsertRowid));
    const added = bodies.reduce((sum, b) => sum + jsonBytes(b), 0);
    count(tenantId, undefined, 0, added);
    let total = (sql.logBytes.get({ kind, tenantId, ownerId, bytes: added }) as { bytes: number }).bytes;
    if (keepBytes !== undefined && total > keepBytes) {
      // The oldest entries go until the log fits; the newest always stays.
      let upTo = -1;
      let freed = 0;
      for (const row of sql.oldestLog.iterate({ kind, tenantId, ownerId })) {
        if (row.seq === seqs[seqs.length - 1] || total - freed <= keepBytes) break;
        freed += row.bytes;
        upTo = row.seq;
      }
      if (upTo >= 0) {
        sql.dropLog.run({ kind, tenantId, ownerId, upTo });
        sql.logBytes.get({ kind, tenantId, ownerId, bytes: -freed });
        count(tenantId, undefined, 0, -freed);
        total -= freed;
      }
    }
    return seqs;
  });
  // Several statements that must count together: one transaction (a savepoint inside another).
  const insertDoc = db.transaction((kind: Kind, tenantId: string, id: string, createdAt: number, json: string, bytes: number) => {
    const info = sql.insert.run({ kind, tenantId, id, createdAt, body: json, bytes });
    if (info.changes === 0) return undefined;
    count(tenantId, kind, 1, bytes);
    return Number(info.lastInsertRowid);
  });
  const updateDoc = db.transaction((kind: Kind, tenantId: string, id: string, json: string, at: number) => {
    const before = sql.bytesOf.get({ kind, tenantId, id });
    if (!before) return undefined;
    const bytes = jsonBytes(json);
    sql.update.run({ kind, tenantId, id, body: json, bytes, at });
    count(tenantId, undefined, 0, bytes - before.bytes);
    return { bytes, previousBytes: before.bytes };
  });
  const setDeleted = db.transaction((kind: Kind, tenantId: string, id: string, at: number, deleted: boolean) => {
    const changed = (deleted ? sql.softDelete : sql.restore).run({ kind, tenantId, id, at }).changes === 1;
    if (changed) count(tenantId, kind, deleted ? -1 : 1, 0);
    return changed;
  });

  return {
    insert<T>(kind: Kind, tenantId: string, id: string, createdAt: number, body: T): StoredDoc<T> {
      const json = encodeBody(body);
      const bytes = jsonBytes(json);
      const seq = insertDoc(kind, tenantId, id, createdAt, json, bytes);
      if (seq === undefined) throw new DuplicateIdError(kind, tenantId, id);
      // The body is parsed again only if the caller reads it (most only want the seq): a 1 MB
      // create spent a whole parse here, in the same turn as its write.
      let parsed: T | undefined;
      return {
        kind, tenantId, id, seq, createdAt, updatedAt: createdAt, deletedAt: null, bytes,
        get body() { return (parsed ??= decodeBody<T>(json)); },
      };
    },

    read<T>(kind: Kind, tenantId: string, id: string) {
      const doc = live(kind, tenantId, id);
      return doc && ({ ...doc } as StoredDoc<Readonly<T>>);
    },

    get<T>(kind: Kind, tenantId: string, id: string, opts: { includeDeleted?: boolean } = {}) {
      const row = sql.get.get({ kind, tenantId, id });
      if (!row || (row.deleted_at !== null && !opts.includeDeleted)) return undefined;
      return toDoc<T>(row);
    },

    update<T>(kind: Kind, tenantId: string, id: string, body: T, updatedAt: number): boolean {
      cache.delete(cacheKey(kind, tenantId, id));
      return updateDoc(kind, tenantId, id, encodeBody(body), updatedAt) !== undefined;
    },

    edit<T, R>(kind: Kind, tenantId: string, id: string, updatedAt: number, fn: (draft: T) => R) {
      const doc = live(kind, tenantId, id);
      if (!doc) return undefined;
      const { body, result } = editBody(doc.body as T, freeze, fn);
      const k = cacheKey(kind, tenantId, id);
      cache.delete(k); // dropped first: if the write throws, no stale entry is left behind
      // No row changed: another process deleted it since it was cached (see the cache's assumption).
      const sizes = updateDoc(kind, tenantId, id, encodeBody(body), updatedAt);
      if (!sizes) return undefined;
      remember(k, { ...doc, updatedAt, body, bytes: sizes.bytes });
      return { result, ...sizes };
    },

    softDelete(kind, tenantId, id, at) {
      cache.delete(cacheKey(kind, tenantId, id));
      return setDeleted(kind, tenantId, id, at, true);
    },

    restore(kind, tenantId, id, at) {
      cache.delete(cacheKey(kind, tenantId, id));
      return setDeleted(kind, tenantId, id, at, false);
    },

    list<T>(kind: Kind, tenantId: string, opts: PageOpts) {
      const { afterSeq, limit } = pageBounds(opts);
      return page(sql.list.all({ kind, tenantId, afterSeq, limit: limit + 1 }), limit, (r) => toDoc<T>(r));
    },

    appendLog<T>(kind: Kind, tenantId: string, ownerId: string, entries: T[], opts: AppendOpts = {}): LogEntry<T>[] {
      const bodies = entries.map(encodeBody);
      const seqs = appendLog(kind, tenantId, ownerId, bodies, opts.keepBytes);
      return seqs.map((seq, i) => ({ seq, body: decodeBody<T>(bodies[i]) }));
    },

    listLog<T>(kind: Kind, tenantId: string, ownerId: string, opts: PageOpts) {
      const { afterSeq, limit } = pageBounds(opts);
      const rows = sql.listLog.all({ kind, tenantId, ownerId, afterSeq, limit: limit + 1 });
      return page(rows, limit, (r) => ({ seq: r.seq, body: decodeBody<T>(r.body) }));
    },

    usage(tenantId: string): Usage {
      return sql.usage.get(tenantId) ?? { worlds: 0, personas: 0, bytes: 0 };
    },

    transaction<R>(fn: () => R): R {
      // better-sqlite3 nests with savepoints and rejects a fn that returns a promise.
      try {
        return db.transaction(fn)();
      } catch (err) {
        cache.clear(); // some cached versions may have been rolled back in the file
        throw err;
      }
    },

    close() {
      cache.clear();
      // A clean stop: everything in the main file, the WAL emptied, and the record says so.
      recordState(db, 'stopped');
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
    },
  };
}
