// SQLite-only behaviour: persistence across reopen and kill -9, schema versioning, open errors.
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteStore, SCHEMA_VERSION } from '../../reference/store/sqlite.ts';
import { openStore } from '../../reference/store/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'store-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const tempFile = () => join(dir, `s-${++files}.db`);

describe('sqlite store file', () => {
  it('keeps data across close and reopen, and continues seq numbering', () => {
    const file = tempFile();
    const first = createSqliteStore(file);
    const a = first.insert('world', 't', 'a', 1, { name: 'a' });
    first.insert('world', 't', 'b', 2, { name: 'b' });
    first.softDelete('world', 't', 'b', 3);
    const [log] = first.appendLog('world', 't', 'a', ['event']);
    first.close();

    const second = createSqliteStore(file);
    expect(second.get('world', 't', 'a')).toEqual(a);
    expect(second.get('world', 't', 'b', { includeDeleted: true })?.deletedAt).toBe(3);
    const c = second.insert('world', 't', 'c', 4, {});
    expect(c.seq).toBeGreaterThan(a.seq + 1);
    expect(second.appendLog('world', 't', 'a', ['next'])[0].seq).toBeGreaterThan(log.seq);
    expect(second.list('world', 't', { limit: 10 }).items.map((d) => d.id)).toEqual(['a', 'c']);
    second.close();
  });

  it('writes an edit to the file, and a reopened store reads it back', () => {
    const file = tempFile();
    const first = createSqliteStore(file);
    first.insert('world', 't', 'a', 1, { n: 1, list: [{ x: 1 }] });
    first.read('world', 't', 'a'); // cached before the edit
    first.edit<{ n: number; list: object[] }, void>('world', 't', 'a', 2, (d) => { d.n = 2; d.list.push({ x: 2 }); });
    first.close();
    const second = createSqliteStore(file);
    expect(second.get('world', 't', 'a')).toMatchObject({ updatedAt: 2, body: { n: 2, list: [{ x: 1 }, { x: 2 }] } });
    second.close();
  });

  // synchronous = FULL is per connection and invisible from outside; it is checked by review only.
  it('records its schema version and leaves the file in WAL mode', () => {
    const file = tempFile();
    createSqliteStore(file).close();
    const db = new Database(file);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal'); // WAL is persistent in the file
    db.close();
  });

  it('serves list and listLog from indexes', () => {
    const file = tempFile();
    createSqliteStore(file).close();
    const db = new Database(file, { readonly: true });
    const plan = (sql: string) => db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all().map((r) => (r as { detail: string }).detail).join('; ');
    expect(plan(`SELECT * FROM docs WHERE kind = 'world' AND tenant_id = 't' AND deleted_at IS NULL AND seq > 0 ORDER BY seq LIMIT 5`))
      .toMatch(/USING INDEX docs_live_by_seq/);
    expect(plan(`SELECT seq, body FROM logs WHERE kind = 'world' AND tenant_id = 't' AND owner_id = 'o' AND seq > 0 ORDER BY seq LIMIT 5`))
      .toMatch(/USING INDEX logs_by_owner_seq/);
    expect(plan(`SELECT * FROM docs WHERE kind = 'world' AND tenant_id = 't' AND deleted_at IS NULL AND seq > 0 ORDER BY seq LIMIT 5`))
      .not.toMatch(/TEMP B-TREE/); // no sort step
    db.close();
  });

  it('openStore picks SQLite for --db and memory otherwise', async () => {
    const file = tempFile();
    const store = await openStore({ db: file });
    store.insert('persona', 't', 'p', 1, {});
    store.close();
    expect(existsSync(file)).toBe(true);
    const again = await openStore({ db: file });
    expect(again.get('persona', 't', 'p')).toBeDefined();
    again.close();
    const mem = await openStore({});
    expect(mem.get('persona', 't', 'p')).toBeUndefined();
    mem.close();
  });
});

describe('sqlite open errors name the file', () => {
  it('a corrupt file', () => {
    const file = tempFile();
    writeFileSync(file, 'this is not a database, '.repeat(200));
    expect(() => createSqliteStore(file)).toThrow(new RegExp(`${escape(file)}.*not a database`));
  });

  it('a path in a missing directory', () => {
    const file = join(dir, 'no-such-dir', 'x.db');
    expect(() => createSqliteStore(file)).toThrow(new RegExp(escape(file)));
  });

  it('a directory', () => {
    const file = join(dir, 'a-directory');
    mkdirSync(file);
    expect(() => createSqliteStore(file)).toThrow(new RegExp(`cannot open database file ${escape(file)}`));
  });

  // root ignores file permissions, so this one only means something for other users.
  it.skipIf(process.getuid?.() === 0)('a read-only file', () => {
    const file = tempFile();
    createSqliteStore(file).close();
    chmodSync(file, 0o444);
    expect(() => createSqliteStore(file)).toThrow(new RegExp(`${escape(file)}.*readonly`));
  });

  it('a file written by a newer schema version', () => {
    const file = tempFile();
    const db = new Database(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => createSqliteStore(file)).toThrow(new RegExp(`${escape(file)}.*newer`));
  });
});

describe('durability', () => {
  it('every id printed before kill -9 is found after reopening', async () => {
    const file = tempFile();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./durability-child.ts', import.meta.url)), file, '1000000'],
      { cwd: fileURLToPath(new URL('../..', import.meta.url)), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      out += d;
      if (out.split('\n').length > 300) child.kill('SIGKILL');
    });
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on('close', (c, s) => resolve([c, s])),
    );
    expect({ code, signal, err }).toEqual({ code: null, signal: 'SIGKILL', err: '' });

    const printed = out.split('\n').slice(0, -1); // only complete lines
    expect(printed.length).toBeGreaterThanOrEqual(300);
    expect(existsSync(`${file}-wal`)).toBe(true); // the reopen below really recovers from the WAL

    const store = createSqliteStore(file);
    const missing = printed.filter((id) => !store.get('world', 'tenant', id));
    expect(missing).toEqual([]);
    // Nothing is invented either: at most the one insert that was in flight.
    const stored = store.list('world', 'tenant', { limit: 2_000_000 }).items.length;
    expect(stored - printed.length).toBeGreaterThanOrEqual(0);
    expect(stored - printed.length).toBeLessThanOrEqual(1);
    store.close();
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('sqlite usage (quotas) across restarts and upgrades', () => {
  it('keeps the usage of each tenant across close and reopen', () => {
    const file = tempFile();
    const first = createSqliteStore(file);
    first.insert('world', 't', 'w', 1, { x: 'abc' });
    first.appendLog('world', 't', 'w', ['e']);
    const usage = first.usage('t');
    first.close();
    const second = createSqliteStore(file);
    expect(second.usage('t')).toEqual(usage);
    second.close();
  });

  it('computes the usage of a file written before usage was kept (schema version 1)', () => {
    const file = tempFile();
    const db = new Database(file);
    db.exec(`CREATE TABLE docs (seq INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, tenant_id TEXT NOT NULL, id TEXT NOT NULL,
      created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, deleted_at INTEGER, body TEXT NOT NULL, UNIQUE (kind, tenant_id, id));
      CREATE INDEX docs_live_by_seq ON docs (kind, tenant_id, seq) WHERE deleted_at IS NULL;
      CREATE TABLE logs (seq INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, tenant_id TEXT NOT NULL, owner_id TEXT NOT NULL, body TEXT NOT NULL);
      CREATE INDEX logs_by_owner_seq ON logs (kind, tenant_id, owner_id, seq);
      INSERT INTO docs (kind, tenant_id, id, created_at, updated_at, deleted_at, body) VALUES
        ('world', 't', 'a', 1, 1, NULL, '{"n":"é"}'), ('world', 't', 'b', 1, 1, 2, '{}'), ('persona', 't', 'p', 1, 1, NULL, '[]');
      INSERT INTO logs (kind, tenant_id, owner_id, body) VALUES ('world', 't', 'a', '"log"');
      PRAGMA user_version = 1;`);
    db.close();
    const store = createSqliteStore(file);
    expect(store.usage('t')).toEqual({ worlds: 1, personas: 1, bytes: Buffer.byteLength('{"n":"é"}') + 2 + 2 + 5 });
    expect(store.get('world', 't', 'a')?.bytes).toBe(Buffer.byteLength('{"n":"é"}'));
    store.close();
  });
});
