// Cursor pagination shared by every listing: `limit` default 20, clamped to 100; the cursor is an
// opaque token holding the position (store seq) of the last item served, so pages never repeat or
// skip an item even when items are added or deleted between pages.
import { fail } from '../engine/world/fail.ts';

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

export function page<T, U>(items: Array<T & { seq: number }>, more: boolean, map: (item: T) => U) {
  const last = items[items.length - 1];
  return { items: items.map(map), ...(more && last ? { nextCursor: encodeCursor(last.seq) } : {}) };
}
