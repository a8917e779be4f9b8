// Bounds the server holds every tenant to, whatever its plan (the per-tenant quotas are in
// platform/quotas.ts): what a snapshot import accepts, and hence how large a world or persona may
// grow, how much of a world's event log is kept, and how many bytes one page of a list carries.
import { exportPersona, exportWorld } from '../engine/world/snapshot.ts';
import type { PersonaDoc, WorldDoc } from '../engine/world/index.ts';
import { fail } from '../engine/world/fail.ts';

const MiB = 1024 * 1024;

/** Body limit of PUT /worlds/{id}/snapshot and PUT /personas/{id}/snapshot (other bodies: 1 MiB): room for the export of a world of 500 personas with full histories (about 28 KB each). */
export const SNAPSHOT_BODY_LIMIT = 16 * MiB;
/**
 * The largest export a world or persona may have: wrapped in `{"snapshot": …}` it fits the import's
 * body limit, so every export can be imported back. A write that would make a record's export larger
 * is refused (QUOTA_EXCEEDED) and stores nothing.
 */
export const MAX_EXPORT_BYTES = SNAPSHOT_BODY_LIMIT - 1024;
/**
 * An export is at most three times its record (it repeats the knowledge and lists each relationship
 * twice; everything else it copies once), so a record below this size needs no measuring.
 */
export const MEASURE_EXPORT_FROM = Math.floor(MAX_EXPORT_BYTES / 3) - 1024;
/** A world's event log keeps its newest events up to this many bytes (GET /worlds/{id}/events). */
export const LOG_KEEP_BYTES = 4 * MiB;
/** A page of a list carries at most this many bytes of items (and always at least one item). */
export const PAGE_MAX_BYTES = 1 * MiB;

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** Refuses a record whose export would not fit a snapshot import (recordBytes: its stored size). */
export function exportFitsOrFail(kind: 'world' | 'persona', id: string, body: Readonly<WorldDoc> | Readonly<PersonaDoc>, recordBytes: number): void {
  if (recordBytes <= MEASURE_EXPORT_FROM) return;
  const exported = kind === 'world' ? exportWorld(body as WorldDoc, id) : exportPersona(body as PersonaDoc);
  const bytes = bytesOf(exported);
  if (bytes > MAX_EXPORT_BYTES) {
    throw fail('QUOTA_EXCEEDED', `the ${kind} '${id}' would grow past what a snapshot import accepts: its export would be ${bytes} bytes, the most is ${MAX_EXPORT_BYTES}; nothing was stored`);
  }
}
