// Entry point: pick the store implementation from the CLI options. SQLite (better-sqlite3, a native
// module) is an optional dependency, loaded only for `--db`: the conformance and load commands never
// use it, and an install that could not build it still runs them.
import { createMemoryStore } from './memory.ts';
import type { Store } from './types.ts';
import type { Freeze } from './shared.ts';

export type { AppendOpts, Kind, LogEntry, Page, PageOpts, Store, StoredDoc, Usage } from './types.ts';
export { DuplicateIdError } from './types.ts';
export { createMemoryStore };
export type { Freeze };

/** Why `--db` cannot work here, in one line, when better-sqlite3 is missing or its native part did not build. */
export const SQLITE_MISSING = '--db needs the optional package better-sqlite3, which is not installed here (or its native part did not build): install it beside this package (npm install better-sqlite3; python3, make and g++ where no prebuilt binary fits), or run without --db (memory store)';

/** `--db FILE` selects SQLite; without it, state lives in memory and dies with the process. */
export async function openStore(opts: { db?: string; freeze?: Freeze }): Promise<Store> {
  if (!opts.db) return createMemoryStore(opts);
  try {
    const { createSqliteStore } = await import('./sqlite.ts');
    return createSqliteStore(opts.db, opts);
  } catch (err) {
    // The package absent (--omit=optional, a failed optional build) or present without its native
    // part (installed with --ignore-scripts): one line saying so, not a stack.
    const e = err as NodeJS.ErrnoException;
    if ((e.code === 'ERR_MODULE_NOT_FOUND' && /better-sqlite3/.test(e.message)) || /bindings file|better_sqlite3\.node/.test(e.message)) throw new Error(SQLITE_MISSING);
    throw err;
  }
}
