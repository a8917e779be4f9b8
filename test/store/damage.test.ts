// A damaged SQLite file is refused at start-up with one line naming the file and what to do; it is
// never served with data missing. The nine damages of issue 26 (SQLite itself opened six of them
// without a word), and the states that must still open: a clean stop, a crash (kill -9 leaves the
// WAL), and a crash in the middle of a write (a torn tail of the WAL, never acknowledged).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../reference/store/sqlite.ts';
import type { Store } from '../../reference/store/index.ts';
import { budget } from '../budget.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'store-damage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const WORLDS = 60;

function fill(store: Store): void {
  for (let i = 0; i < WORLDS; i++) store.insert('world', 't', `w-${i}`, i, { i, padding: 'x'.repeat(1500) });
}

/** A file after a clean stop: everything in the main file, no WAL. */
function stopped(): string {
  const file = join(dir, `stopped-${++n}.db`);
  const store = createSqliteStore(file);
  fill(store);
  store.close();
  expect(existsSync(`${file}-wal`)).toBe(false);
  return file;
}

/** The files as kill -9 leaves them: the commits since start-up are in the WAL only. */
function crashed(): string {
  const live = join(dir, `live-${++n}.db`);
  const store = createSqliteStore(live);
  fill(store);
  const file = join(dir, `crashed-${n}.db`);
  copyFileSync(live, file);
  copyFileSync(`${live}-wal`, `${file}-wal`);
  store.close();
  return file;
}

function garble(file: string, at: number, length: number): void {
  const bytes = readFileSync(file);
  for (let i = at; i < at + length; i++) bytes[i] = (bytes[i] * 7 + 13 + i) & 0xff;
  writeFileSync(file, bytes);
}

/** Opening must throw one line naming the file; the main file is left as it was found. */
function expectRefused(file: string, pattern: RegExp): string {
  const before = existsSync(file) ? readFileSync(file) : undefined;
  let message = '';
  expect(() => {
    try {
      createSqliteStore(file).close();
    } catch (err) {
      message = (err as Error).message;
      throw err;
    }
  }).toThrow();
  expect(message).toContain(file);
  expect(message).toMatch(pattern);
  expect(message).toMatch(/restore|put .* back|delete it/);
  expect(message.split('\n')).toHaveLength(1);
  if (before) expect(readFileSync(file).equals(before)).toBe(true);
  return message;
}

const worldsIn = (file: string) => {
  const store = createSqliteStore(file);
  try {
    return store.list('world', 't', { limit: 1000 }).items.length;
  } finally {
    store.close();
  }
};

describe('a damaged SQLite file is refused at start-up', () => {
  it('1. an empty file (0 bytes)', () => {
    const file = join(dir, 'empty.db');
    writeFileSync(file, '');
    expectRefused(file, /is empty \(0 bytes\)/);
  });

  it('2. the WAL deleted after a crash', () => {
    const file = crashed();
    rmSync(`${file}-wal`);
    expectRefused(file, /not shut down cleanly .*-wal is missing/);
  });

  it('3. an empty main file beside its WAL', () => {
    const file = crashed();
    truncateSync(file, 0);
    expectRefused(file, /is empty \(0 bytes\) beside a write-ahead log/);
  });

  it('4. a garbled WAL (bytes in its middle)', () => {
    const file = crashed();
    const frame = 24 + 4096;
    garble(`${file}-wal`, 32 + 5 * frame + 100, 64);
    expectRefused(`${file}`, /is damaged at frame 6 of \d+, with frames of the same log after it/);
  });

  it('5. a file truncated by 1,000 bytes', () => {
    const file = stopped();
    truncateSync(file, statSync(file).size - 1000);
    expectRefused(file, /is truncated/);
  });

  it('6. one page garbled', () => {
    const file = stopped();
    garble(file, 4 * 4096, 4096);
    expectRefused(file, /is damaged \(/);
  });

  it('7. a file that is not a database', () => {
    const file = join(dir, 'text.db');
    writeFileSync(file, 'not a database at all\n'.repeat(400));
    expectRefused(file, /is not a database \(its first bytes/);
  });

  it('8. a garbled database header', () => {
    const file = stopped();
    garble(file, 0, 100);
    expectRefused(file, /is not a database \(its first bytes/);
  });

  it('9. the main file deleted beside its WAL', () => {
    const file = crashed();
    rmSync(file);
    expectRefused(file, /is missing but its write-ahead log/);
  });
});

describe('what a clean stop or a crash leaves still opens, with every acknowledged write', () => {
  it('after a clean stop', () => expect(worldsIn(stopped())).toBe(WORLDS));
  it('after a crash (the commits in the WAL)', () => expect(worldsIn(crashed())).toBe(WORLDS));
  it('after a crash in the middle of a write (a torn last frame)', () => {
    const file = crashed();
    truncateSync(`${file}-wal`, statSync(`${file}-wal`).size - 1000);
    expect(worldsIn(file)).toBe(WORLDS - 1); // the torn commit was never acknowledged
  });
  it('a crash after a clean reopen, then the WAL deleted, is refused too', () => {
    const file = stopped();
    createSqliteStore(file).close();
    const live = join(dir, `again-${++n}.db`);
    copyFileSync(file, live);
    const store = createSqliteStore(live);
    store.insert('world', 't', 'late', 1, {});
    const copy = join(dir, `again-crashed-${n}.db`);
    copyFileSync(live, copy);
    store.close();
    expectRefused(copy, /not shut down cleanly/);
  });
});

describe('npm run serve -- --db on a damaged file', () => {
  it('stops with one line naming the file and exit 2', () => {
    const file = join(dir, 'serve-empty.db');
    writeFileSync(file, '');
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'cli/serve.ts', '--port', '0', '--db', file], { cwd: ROOT, encoding: 'utf8', timeout: budget(30_000) });
    expect(run.status, run.stdout).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(`${file} is empty (0 bytes)`);
  }, budget(30_000));
});
