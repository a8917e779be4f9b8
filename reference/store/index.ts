// Entry point: pick the store implementation from the CLI options.
import { createMemoryStore } from './memory.ts';
import { createSqliteStore } from './sqlite.ts';
import type { Store } from './types.ts';
import type { Freeze } from './shared.ts';

export type { AppendOpts, Kind, LogEntry, Page, PageOpts, Store, StoredDoc, Usage } from './types.ts';
export { DuplicateIdError } from './types.ts';
export { createMemoryStore, createSqliteStore };
export type { Freeze };

/** `--db FILE` selects SQLite; without it, state lives in memory and dies with the process. */
export function openStore(opts: { db?: string; freeze?: Freeze }): Store {
  return opts.db ? createSqliteStore(opts.db, opts) : createMemoryStore(opts);
}
