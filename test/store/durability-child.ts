// Child process for the kill -9 test: inserts documents into the SQLite store at
// argv[2] and prints each id only after insert returned, i.e. after the commit.
import { writeSync } from 'node:fs';
import { createSqliteStore } from '../../reference/store/sqlite.ts';

const [file, count] = process.argv.slice(2);
const store = createSqliteStore(file);
for (let i = 0; i < Number(count); i++) {
  const id = `doc-${i}`;
  store.insert('world', 'tenant', id, Date.now(), { i, padding: 'x'.repeat(500) });
  // writeSync: nothing buffered in this process can claim an id that was not committed, or lose one that was.
  writeSync(1, `${id}\n`);
}
store.close();
