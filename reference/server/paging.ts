// Cursor pagination shared by every listing: `limit` default 20, clamped to 100; the cursor is an
// opaque token holding the position (store seq) of the last item served, so pages never repeat or
// skip an item even when items are added or deleted between pages.
import { fail } from '../engine/world/fail.ts';
import { PAGE_MAX_BYTES } from './limits.ts';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export function pageLimit(limit: string | undefined): number {
  return limit === undefined ? DEFAULT_LIMIT : Math.min(MAX_LIMIT, Number(limit));
}

export function encodeCursor(seq: number): string {
  return Buffer.from(JSON.stringify({ after: seq })).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): number | undefined {
  if (cursor === undefined) return undefined;
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { after?: unknown };
    if (Number.isSafeInteger(value.after) && (value.after as number) >= 0) return value.after as number;
  } catch { /* answered below */ }
  throw fail('VALIDATION_ERROR', 'querystring/cursor is not a cursor this server issued');
}

/**
 * A page of items, bounded in bytes as well as in number: items are served while their JSON stays
 * within PAGE_MAX_BYTES (always at least one), and the cursor then points after the last one served,
 * so that a page of 100 large worlds is not one answer of 88 MB (issue 26).
 */
export function page<T, U>(items: Array<T & { seq: number }>, more: boolean, map: (item: T) => U, maxBytes = PAGE_MAX_BYTES) {
  const out: U[] = [];
  let bytes = 0;
  let cut = false;
  for (const item of items) {
    const mapped = map(item);
    bytes += Buffer.byteLength(JSON.stringify(mapped) ?? '', 'utf8') + 1;
    if (out.length > 0 && bytes > maxBytes) {
      cut = true;
      break;
    }
    out.push(mapped);
  }
  const last = items[out.length - 1];
  return { items: out, ...((more || cut) && last ? { nextCursor: encodeCursor(last.seq) } : {}) };
}
