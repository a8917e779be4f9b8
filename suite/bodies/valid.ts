// Valid instances of a dereferenced JSON Schema (read as schema.ts reads it), as fast-check arbitraries:
// the generated area's valid bodies. No maintained library maps JSON Schema to fast-check 4
// (json-schema-fast-check is built on fast-check 1 and faker 4), and the request schemas of the contract
// use a small part of JSON Schema: object, array, string, number, integer, boolean, enum, const, allOf,
// anyOf, oneOf (and what an object's members must say together: minProperties, dependentRequired, not,
// if/then/else). They lean on the edges: bounds, built-in member names for free keys and strings,
// extreme numbers where no bound is given.
import fc from 'fast-check';
import { armsOf, matches, mergeAllOf, typeOf, type Json } from './schema.ts';
import { matchingStrings, minimalInstance } from './minimal.ts';
import { BUILTIN_NAMES, anyCodePoint, anyValue, extremeNumber, objectOf } from './values.ts';

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
