// Stored maps keyed by a client's string (persona names, sources, event types, phases, goal ids).
// They are JSON objects, so they cannot be Maps; instead every read and write of one goes through
// these functions, which see only own members. A plain `map[name]` would find `constructor` or
// `toString` on Object.prototype, and `map['__proto__'] = x` would replace the prototype (or, read
// and then written to, pollute every object of the process).

export type Keyed<T> = Record<string, T>;

/** The member `key` of `map`, only if it is the map's own. */
export function getOwn<T>(map: Keyed<T> | undefined | null, key: string): T | undefined {
  return map != null && Object.hasOwn(map, key) ? map[key] : undefined;
}

export function hasOwn(map: Keyed<unknown> | undefined | null, key: string): boolean {
  return map != null && Object.hasOwn(map, key);
}

/** Sets `map[key]` as an own, enumerable data member, whatever the key (a JSON object's members). */
export function setOwn<T>(map: Keyed<T>, key: string, value: T): void {
  Object.defineProperty(map, key, { value, enumerable: true, writable: true, configurable: true });
}

export function deleteOwn(map: Keyed<unknown>, key: string): void {
  if (Object.hasOwn(map, key)) delete map[key];
}
