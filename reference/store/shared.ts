// Helpers both implementations use, so they cannot drift apart.
import type { PageOpts } from './types.ts';

/**
 * The deepest nesting a body may have. Requests nest at most 64 levels (platform/json-body.ts) and
 * the engine adds a few around them, so this is never reached from HTTP; it turns what would be a
 * stack overflow deep in a recursive walk into a clear error before anything is stored.
 */
export const MAX_BODY_DEPTH = 512;
const tooDeep = () => new TypeError(`store: a body must not nest deeper than ${MAX_BODY_DEPTH} levels`);

/** JSON text of a body (checked for depth first: JSON.stringify would overflow the stack instead). */
function checkDepth(value: unknown, depth: number): void {
  if (value === null || typeof value !== 'object') return;
  if (depth > MAX_BODY_DEPTH) throw tooDeep();
  if (Array.isArray(value)) for (const v of value) checkDepth(v, depth + 1);
  else for (const k in value as Record<string, unknown>) checkDepth((value as Record<string, unknown>)[k], depth + 1);
}

/**
 * Bodies are JSON values in both stores: JSON text on the way in deep-copies and normalises
 * (undefined members vanish, a Date becomes its string), and makes the in-memory default behave
 * exactly like `--db`.
 */
export function encodeBody(body: unknown): string {
  checkDepth(body, 0);
  const json = JSON.stringify(body);
  if (json === undefined) throw new TypeError('store: a body must be a JSON value');
  return json;
}

/** Bytes of a body's JSON text in UTF-8: its size as stored. */
export const jsonBytes = (json: string) => Buffer.byteLength(json, 'utf8');

/** Sizes of frozen parts: they never change, and the next versions of a body share them. */
const frozenSizes = new WeakMap<object, number>();
/**
 * Sizes of long strings, which versions of a body share (an edit re-measures the objects it copied).
 * Only below HASHED_LENGTH: V8 hashes a longer string by its length alone, so a Map keyed by such
 * strings compares every one of the same length in full, and a tenant sending many long strings
 * that differ at their end would make each lookup cost the whole set (seconds, measured).
 */
const longStrings = new Map<string, number>();
const LONG_STRING = 256;
export const HASHED_LENGTH = 16_384;

/** Printable ASCII without `"` or `\\`: JSON writes it as it is, between quotes. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
/** What JSON writes otherwise than as its UTF-8: quote, backslash, controls, surrogates (lone ones become \\uXXXX). */
const ESCAPED = /[\u0000-\u001f"\\\ud800-\udfff]/;

/** Bytes of a string's JSON text: its UTF-8 and two quotes when nothing in it is escaped (one native pass), else written out. */
const measured = (s: string) => (ESCAPED.test(s) ? jsonBytes(JSON.stringify(s)) : Buffer.byteLength(s, 'utf8') + 2);

function stringSize(s: string): number {
  if (s.length < LONG_STRING) return PLAIN.test(s) ? s.length + 2 : jsonBytes(JSON.stringify(s));
  if (s.length >= HASHED_LENGTH) return measured(s);
  let n = longStrings.get(s);
  if (n === undefined) {
    if (longStrings.size >= 10_000) longStrings.clear();
    longStrings.set(s, (n = measured(s)));
  }
  return n;
}

/** JSON writes a finite number as String does, and null for any other. */
const numberSize = (v: number) => (Number.isFinite(v) ? String(v).length : 4);

function integerSize(v: number): number {
  let n = v < 0 ? 2 : 1;
  for (let a = Math.abs(v); a >= 10; a = Math.floor(a / 10)) n++;
  return n;
}

/**
 * Bytes of `JSON.stringify(value)` in UTF-8 for a value that is JSON already (committed bodies are),
 * exactly, as SQLite's `length(CAST(body AS BLOB))` counts the same body. What the memory
 * store counts after an edit: the frozen parts a new version shares with the last (history entries,
 * events) are measured once, so an edit costs a walk of what it copied, not a serialisation of the
 * whole body (which doubled the cost of a chat).
 */
export function jsonSize(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return stringSize(value);
    case 'number':
      // A non-integer is written out (String, as JSON does): about 4% of a chat's handler time, for
      // counts equal to SQLite's (at 24 bytes each, a persona was counted 25% above its size).
      return Number.isSafeInteger(value) ? integerSize(value) : numberSize(value);
    case 'boolean':
      return value ? 4 : 5;
    case 'object': {
      if (value === null) return 4;
      const known = frozenSizes.get(value);
      if (known !== undefined) return known;
      let n = 2;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const v = value[i];
          n += (i > 0 ? 1 : 0) + (v === undefined || typeof v === 'function' || typeof v === 'symbol' ? 4 : jsonSize(v));
        }
      } else {
        let first = true;
        const obj = value as Record<string, unknown>;
        for (const k in obj) {
          const v = obj[k];
          if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
          n += (first ? 0 : 1) + stringSize(k) + 1 + jsonSize(v);
          first = false;
        }
      }
      if (Object.isFrozen(value)) frozenSizes.set(value, n);
      return n;
    }
    default:
      return 0;
  }
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
  return freezeJson(JSON.parse(json)) as T;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/**
 * How much of a body an edit leaves frozen when it commits. Array items are always frozen: the
 * next draft shares them (see thaw). 'deep' also freezes the containers, so a read path that
 * modifies what read() gave it throws; it costs about as much again as the engine on every change
 * (npm run bench), so it is for tests: REFERENCE_FREEZE=deep, which vitest.config.ts sets.
 */
export type Freeze = 'deep' | 'items';
export const defaultFreeze = (): Freeze => (process.env.REFERENCE_FREEZE === 'deep' ? 'deep' : 'items');

/**
 * Makes a value what JSON text would make it (undefined members and functions dropped, undefined
 * array items and non-finite numbers become null, toJSON honoured), in place, and deep-freezes it.
 * Frozen parts are skipped: they were frozen here before, so they are JSON already.
 */
export function freezeJson<T>(value: T): T {
  return commit(value, 'deep');
}

/** What an edit does to its draft when fn returns: normalise as freezeJson does, freezing per `freeze`. */
export function commit<T>(draft: T, freeze: Freeze): T {
  return commitSized(draft, freeze).body;
}

/**
 * commit, and the size the committed body's JSON text will have (as jsonSize counts it), worked out
 * in the same walk: the memory store's count of a tenant's bytes costs an edit next to nothing.
 */
export function commitSized<T>(draft: T, freeze: Freeze): { body: T; bytes: number } {
  size = 0;
  const out = normalise(draft, freeze === 'deep', 0);
  if (out === undefined) throw new TypeError('store: a body must be a JSON value');
  return { body: out as T, bytes: size };
}

/** The running size of the walk in progress (normalise is synchronous, so one counter serves). */
let size = 0;
const keySizes = new Map<string, number>();
const keySize = (k: string) => {
  if (k.length >= LONG_STRING) return stringSize(k) + 1;
  let n = keySizes.get(k);
  if (n === undefined) {
    if (keySizes.size >= 10_000) keySizes.clear();
    keySizes.set(k, (n = stringSize(k) + 1));
  }
  return n;
};

function normalise(value: unknown, freeze: boolean, depth: number): Json | undefined {
  if (typeof value === 'number') {
    size += Number.isSafeInteger(value) ? integerSize(value) : numberSize(value);
    return Number.isFinite(value) ? value + 0 : null; // + 0: -0 becomes 0, as in JSON text
  }
  if (typeof value === 'string') {
    size += stringSize(value);
    return value;
  }
  if (typeof value === 'boolean' || value === null) {
    size += value === false ? 5 : 4;
    return value;
  }
  if (typeof value === 'bigint') throw new TypeError('store: a body must be a JSON value (BigInt found)');
  if (typeof value !== 'object') return undefined; // undefined, function, symbol
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return normalise((value as { toJSON(): unknown }).toJSON(), freeze, depth);
  if (Object.isFrozen(value)) {
    size += frozenSizes.get(value) ?? jsonSize(value);
    return value as Json;
  }
  if (depth > MAX_BODY_DEPTH) throw tooDeep();
  const start = size;
  size += 2;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (i > 0) size += 1;
      const v = normalise(value[i], true, depth + 1); // items are shared with the next draft: always frozen
      if (v === undefined) {
        size += 4;
        value[i] = null;
      } else if (v !== value[i] || v === 0) value[i] = v; // v === 0: it may have been -0
    }
  } else {
    const obj = value as Record<string, unknown>;
    let first = true;
    for (const k in obj) {
      const before = size;
      size += (first ? 0 : 1) + keySize(k);
      const v = normalise(obj[k], freeze, depth + 1);
      if (v === undefined) {
        size = before;
        delete obj[k];
        continue;
      }
      first = false;
      if (v !== obj[k] || v === 0) setMember(obj, k, v);
    }
  }
  if (!freeze) return value as Json;
  frozenSizes.set(value, size - start);
  return Object.freeze(value) as Json;
}

/**
 * A writable copy of a frozen body for an edit: every object reached through object members is
 * copied, every array is copied, but the items of arrays (history entries, episodes, events,
 * records) stay shared and frozen. So a change must replace an array item, never modify it:
 * modifying one throws a TypeError instead of silently changing the committed version.
 */
export function thaw<T>(body: T): T {
  return copyValue(body, false, 0) as T;
}

/** An edit of a committed body, the same in both stores: fn changes a thawed draft, which is then committed. */
export function editBody<T, R>(body: T, freeze: Freeze, fn: (draft: T) => R): { body: T; result: R; bytes: number } {
  const draft = thaw(body);
  const result = fn(draft);
  return { ...commitSized(draft, freeze), result };
}

/**
 * A body given by a caller, made the store's own: copied (so later changes to the caller's value
 * cannot reach the store), made what JSON text would make it, frozen, and sized. Each pass walks the
 * nodes only: a long string is measured, never written out and parsed again (that cost a 1 MB
 * create 5 ms of one event-loop turn).
 */
export function ownedBody<T>(body: T): { body: T; bytes: number } {
  return commitSized(copyValue(body, true, 0) as T, 'deep');
}

/** A deep copy of a JSON body, array items included (what get and list hand out). */
export function copyBody<T>(body: T): T {
  return copyValue(body, true, 0) as T;
}

function copyValue(value: unknown, items: boolean, depth: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_BODY_DEPTH) throw tooDeep();
  // What JSON text would hold (a Date its string); a stored body has none, so reads pay one typeof.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return copyValue((value as { toJSON(): unknown }).toJSON(), items, depth);
  if (Array.isArray(value)) return items ? value.map((v) => copyValue(v, true, depth + 1)) : value.slice();
  const out: Record<string, unknown> = {};
  const obj = value as Record<string, unknown>;
  for (const k in obj) {
    const v = copyValue(obj[k], items, depth + 1);
    setMember(out, k, v);
  }
  return out;
}

/** A JSON member named __proto__ is an own property; plain assignment would set the prototype. */
function setMember(obj: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(obj, k, { value: v, enumerable: true, writable: true, configurable: true });
  else obj[k] = v;
}
