// Helpers both implementations use, so they cannot drift apart.
import type { PageOpts } from './types.ts';

/**
 * Bodies are kept as JSON text in both stores: that deep-copies on the way in
 * and out, and makes the in-memory default behave exactly like `--db`.
 */
export function encodeBody(body: unknown): string {
  const json = JSON.stringify(body);
  if (json === undefined) throw new TypeError('store: a body must be a JSON value');
  return json;
}

export function decodeBody<T>(json: string): T {
  return JSON.parse(json) as T;
}

/** Normalises paging options; a bad limit is a programming error, not a client one. */
export function pageBounds(opts: PageOpts): { afterSeq: number; limit: number } {
  const { afterSeq = 0, limit } = opts;
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`store: limit must be a positive integer, got ${limit}`);
  if (!Number.isFinite(afterSeq)) throw new RangeError(`store: afterSeq must be a finite number, got ${afterSeq}`);
  return { afterSeq, limit };
}

/** A parsed body frozen all the way down: shared safely between readers. */
export function frozenBody<T>(json: string): T {
  return deepFreeze(JSON.parse(json)) as T;
}

function deepFreeze(value: unknown): unknown {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
