// Instances of a dereferenced JSON Schema (contract/openapi-reader.ts; allOf merged as fixtures/minimal.ts merges it), as fast-check arbitraries, and
// the ways to break one. No maintained library maps JSON Schema to fast-check 4 (json-schema-fast-check
// is built on fast-check 1 and faker 4), and the request schemas of the contract use a small part of
// JSON Schema: object, array, string, number, integer, boolean, enum, const, allOf, anyOf, oneOf (and
// what an object's members must say together: minProperties, dependentRequired, not, if/then/else).
// Valid instances lean on the edges: bounds, built-in member names for free keys and strings, extreme
// numbers where no bound is given. Breaking one is data too (a Mutation), so that it shrinks.
import fc from 'fast-check';
import { armsOf, matches, matchingStrings, mergeAllOf, minimalInstance, typeOf } from '../../fixtures/minimal.ts';
import { BUILTIN_NAMES, anyCodePoint, anyValue, extremeNumber, nastyString, nastyValue, objectOf, typeOf as valueTypeOf } from './values.ts';

type Json = Record<string, any>;

const MAX_DEPTH = 8;
/** Keywords that constrain an object's members together, beyond each member's own schema. */
const MEMBER_RULES = ['minProperties', 'maxProperties', 'dependentRequired', 'not', 'if'];

function stringOf(schema: Json): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? 10_000;
  const fits = (s: string) => s.length >= min && s.length <= max;
  if (typeof schema.pattern === 'string') {
    const matching = matchingStrings(schema.pattern, min, max);
    if (matching.length) return fc.constantFrom(...matching);
  }
  return fc.oneof(
    { arbitrary: fc.string({ minLength: min, maxLength: Math.min(max, Math.max(min, 12)) }), weight: 4 },
    { arbitrary: fc.constantFrom(...BUILTIN_NAMES).filter(fits), weight: 3 },
    { arbitrary: fc.string({ unit: anyCodePoint, minLength: min, maxLength: Math.min(max, Math.max(min, 12)) }), weight: 2 },
    { arbitrary: fc.constantFrom('x'.repeat(Math.max(min, 1)), 'x'.repeat(Math.min(max, 10_000))).filter(fits), weight: 1 },
  );
}

function numberOf(schema: Json, integer: boolean): fc.Arbitrary<number> {
  // Bounds are numbers (the loader upgraded 3.0's booleans); anything else bounds nothing, so that a
  // filter below can always find a value.
  const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const [min, max, xmin, xmax] = [num(schema.minimum), num(schema.maximum), num(schema.exclusiveMinimum), num(schema.exclusiveMaximum)];
  const low = min ?? xmin;
  const high = max ?? xmax;
  const inside = (n: number) => (min === undefined || n >= min) && (xmin === undefined || n > xmin)
    && (max === undefined || n <= max) && (xmax === undefined || n < xmax) && (!integer || Number.isInteger(n));
  const edges = [low, high, low !== undefined ? low + 1 : undefined, high !== undefined ? high - 1 : undefined, low !== undefined ? low + Number.EPSILON : undefined, 0, 1, -1]
    .filter((n): n is number => n !== undefined && inside(n));
  const range = integer
    ? fc.integer({ min: Math.ceil(Math.max(low ?? -(2 ** 31), -(2 ** 31))), max: Math.floor(Math.min(high ?? 2 ** 31, 2 ** 31)) })
    : fc.double({ min: low ?? -1e308, max: high ?? 1e308, noNaN: true, noDefaultInfinity: true });
  const arbitraries: fc.Arbitrary<number>[] = [range.filter(inside), extremeNumber.filter(inside)];
  if (edges.length) arbitraries.push(fc.constantFrom(...edges));
  return fc.oneof(...arbitraries);
}

/** Valid instances of a schema (as far as the schema says), leaning on the edges. */
export function validOf(schema: Json | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema) return fc.constant({});
  // Deeper than this, the smallest valid instance: the schema still holds, the sample stays small.
  if (depth > MAX_DEPTH) return fc.constant(minimalInstance(schema));
  const s = mergeAllOf(schema);
  if (s.const !== undefined) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum);
  const arms = armsOf(s);
  if (arms) return fc.oneof(...arms.map((x) => validOf(x, depth + 1)));
  switch (typeOf(s)) {
    case 'object': {
      const properties = Object.entries<Json>(s.properties ?? {});
      const required = new Set<string>(s.required ?? []);
      const known = fc.record(Object.fromEntries(properties.map(([k, v]) => [k, validOf(v, depth + 1)])), { requiredKeys: properties.map(([k]) => k).filter((k) => required.has(k)) });
      // What the members together must say (minProperties, dependentRequired, not, if/then/else…): an
      // instance that plainly breaks it becomes the smallest instance, which keeps it where one can.
      const kept = (a: fc.Arbitrary<unknown>) => (MEMBER_RULES.some((k) => k in s) ? a.map((v) => (matches(s, v) === false ? minimalInstance(s) : v)) : a);
      if (s.additionalProperties === false) return kept(known);
      // An open object or a map: free keys, built-in member names among them.
      const values = s.additionalProperties && typeof s.additionalProperties === 'object' ? validOf(s.additionalProperties, depth + 1) : (depth < 4 ? anyValue : fc.constant(null));
      const free = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...BUILTIN_NAMES), fc.string({ maxLength: 8 })), values), { maxLength: 3 });
      return kept(fc.tuple(known, free).map(([k, f]) => objectOf([...f.filter(([key]) => !(key in (s.properties ?? {}))), ...Object.entries(k as Json)])));
    }
    case 'array': {
      const min = s.minItems ?? 0;
      return fc.array(validOf(s.items, depth + 1), { minLength: min, maxLength: Math.min(s.maxItems ?? 4, Math.max(min, 4)) });
    }
    case 'string': return stringOf(s);
    case 'integer': return numberOf(s, true);
    case 'number': return numberOf(s, false);
    case 'boolean': return fc.boolean();
    case 'null': return fc.constant(null);
    default: return depth < 4 ? anyValue : fc.constant(null);
  }
}

/** One way to break an instance, at a place chosen by `at` (indices into members, taken modulo). */
export type Mutation =
  | { kind: 'wrong-type'; at: number[]; value: unknown }
  | { kind: 'missing'; at: number[] }
  | { kind: 'extra'; at: number[]; key: string; value: unknown }
  | { kind: 'nasty'; at: number[]; value: unknown };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('wrong-type' as const), at: fc.array(fc.nat(), { maxLength: 6 }), value: anyValue }),
  fc.record({ kind: fc.constant('missing' as const), at: fc.array(fc.nat(), { maxLength: 6 }) }),
  fc.record({ kind: fc.constant('extra' as const), at: fc.array(fc.nat(), { maxLength: 6 }), key: fc.oneof(fc.constantFrom(...BUILTIN_NAMES), nastyString), value: nastyValue }),
  fc.record({ kind: fc.constant('nasty' as const), at: fc.array(fc.nat(), { maxLength: 6 }), value: nastyValue }),
);

const isContainer = (v: unknown): v is Json => !!v && typeof v === 'object';

/** Where `at` leads in an instance: the container and the key of the member reached (undefined for the root). */
export function locate(instance: unknown, at: readonly number[]): { parent?: Json; key?: string; path: string[] } {
  let parent: Json | undefined;
  let key: string | undefined;
  let current = instance;
  const path: string[] = [];
  for (const i of at) {
    if (!isContainer(current)) break;
    const keys = Object.keys(current);
    if (!keys.length) break;
    parent = current;
    key = keys[i % keys.length];
    path.push(key);
    current = current[key];
  }
  return { parent, key, path };
}

/** A copy of a JSON value without recursion: what a target serves may nest deeper than the stack (structuredClone overflows). */
export function clone(value: unknown): unknown {
  if (!isContainer(value)) return value;
  const root: Json = Array.isArray(value) ? [] : {};
  const stack: Array<[Json, Json]> = [[value, root]];
  while (stack.length) {
    const [from, to] = stack.pop()!;
    for (const [k, v] of Object.entries(from)) {
      const copy = isContainer(v) ? (Array.isArray(v) ? [] : {}) : v;
      Object.defineProperty(to, k, { value: copy, enumerable: true, writable: true, configurable: true });
      if (isContainer(v)) stack.push([v, copy as Json]);
    }
  }
  return root;
}

/** A copy of the instance with the mutation applied, and where it was applied (a JSON pointer-like path). */
export function applyMutation(instance: unknown, m: Mutation): { value: unknown; where: string } {
  const copy = clone(instance);
  const { parent, key, path } = locate(copy, m.at);
  const where = path.map((k) => `/${k}`).join('');
  const set = (target: Json, k: string, v: unknown) => Object.defineProperty(target, k, { value: v, enumerable: true, writable: true, configurable: true });
  switch (m.kind) {
    case 'missing':
      if (parent && key !== undefined) { if (Array.isArray(parent)) parent.splice(Number(key), 1); else delete parent[key]; }
      return { value: parent ? copy : undefined, where: where || '(the whole body)' };
    case 'extra': {
      const target = parent && key !== undefined ? parent[key] : copy;
      if (isContainer(target) && !Array.isArray(target)) { set(target, m.key, m.value); return { value: copy, where: `${where}/${m.key}` }; }
      if (Array.isArray(target)) { target.push(m.value); return { value: copy, where: `${where}/-` }; }
      return { value: objectOf([[m.key, m.value]]), where: `/${m.key}` };
    }
    case 'wrong-type':
    case 'nasty': {
      const before = parent && key !== undefined ? parent[key] : copy;
      // A wrong type must be one: a value of the same type is turned into null.
      const value = m.kind === 'wrong-type' && valueTypeOf(m.value) === valueTypeOf(before) ? null : m.value;
      if (!parent || key === undefined) return { value, where: '(the whole body)' };
      set(parent, key, value);
      return { value: copy, where };
    }
  }
}
