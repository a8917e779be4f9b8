// Wrong-typed members of request bodies, read from a request schema (ERR-3 from the SPEC contract,
// ERR-6 from the served document): where each member sits in a body and a value of a type the schema
// does not allow there. Frameworks write an optional member as a union with null (FastAPI/pydantic 2:
// anyOf [X, null]; 3.1: type [X, 'null']; 3.0: nullable: true, which the loader upgrades): it is probed
// as X, and null, legal there, is never the wrong value. A union of other types gets a value of none of
// them. Where SPEC.md types the member too, the value is of none of SPEC.md's types either, so that a
// deployment is never asked to refuse what SPEC.md allows. Tested on its own (test/conformance/wrong-types.test.ts).
import { armsOf, matches, mergeAllOf, typeOf } from '../../fixtures/minimal.ts';

type Json = Record<string, any>;
export type WrongTyped = { at: Array<string | number>; value: unknown };

/** The wrong value for a member of one type: the first thing a mistaken client would send. */
const WRONG: Record<string, unknown> = { string: 12345, number: 'not-a-number', integer: 'not-a-number', boolean: 'yes', object: 'not-an-object', array: { not: 'an array' } };
/** When another type of the member (or SPEC.md's type) takes that value: the first of these no type takes. Never null. */
const OTHERS: unknown[] = [12345, 'not-a-number', true, { not: 'an array' }, ['not-an-object']];
/** Levels of nested schemas read (unions of unions, allOf in arms): a served document may nest without end. */
const MAX_NESTING = 16;

const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);
const jsonType = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v);
const takes = (types: readonly string[], v: unknown) => { const t = jsonType(v); return types.includes(t) || (t === 'integer' && types.includes('number')); };

/**
 * The JSON types a schema allows (null included when it does), through allOf and every arm of an
 * anyOf/oneOf; undefined when it may take any value, or says its type in a way not read here.
 */
function typesAllowed(schema: unknown, nesting = 0): string[] | undefined {
  if (!isObject(schema) || nesting > MAX_NESTING) return undefined;
  const s = mergeAllOf(schema);
  const arms = armsOf(s);
  if (arms) {
    const each = arms.map((a) => typesAllowed(a, nesting + 1));
    return each.every(Boolean) ? [...new Set(each.flat() as string[])] : undefined;
  }
  if ('const' in s) return [jsonType(s.const)];
  if (Array.isArray(s.enum) && s.enum.length) return [...new Set(s.enum.map(jsonType))];
  const own: string[] | undefined = Array.isArray(s.type) ? s.type : typeof s.type === 'string' ? [s.type] : undefined;
  if (own) return s.nullable === true ? [...own, 'null'] : own;
  const implied = typeOf(s);
  return implied ? [implied] : undefined;
}

/**
 * A value of none of the types a member's schema allows, nor of those SPEC.md gives it (`spec`, when it
 * names the member); undefined when there is none, or the member may take any value.
 */
function wrongFor(schema: Json, spec: Json | undefined): unknown {
  const allowed = typesAllowed(schema);
  const specAllowed = spec === undefined ? [] : typesAllowed(spec);
  if (!allowed || !specAllowed) return undefined;
  const first = allowed.find((t) => t !== 'null');
  return [first !== undefined ? WRONG[first] : undefined, ...OTHERS].find((v) => v !== undefined && !takes(allowed, v) && !takes(specAllowed, v)
    && matches(schema, v) !== true && (spec === undefined || matches(spec, v) !== true));
}

/**
 * The one shape of a kind (object, array) a schema allows, its other arms of other types: a value built
 * in that shape is refused by every other arm for its type. Undefined when two arms are of that kind, or
 * an arm takes any value (a wrong member inside could fit it).
 */
function shapeOf(schema: unknown, kind: 'object' | 'array', nesting = 0): Json | undefined {
  if (!isObject(schema) || nesting > MAX_NESTING) return undefined;
  const s = mergeAllOf(schema);
  const arms = armsOf(s);
  if (!arms) return typesAllowed(s)?.includes(kind) ? s : undefined;
  const kinds = arms.map((a) => typesAllowed(a));
  if (!kinds.every(Boolean)) return undefined;
  const of = arms.filter((_a, i) => kinds[i]!.includes(kind));
  return of.length === 1 ? shapeOf(of[0], kind, nesting + 1) : undefined;
}

/** SPEC.md's schema of a member, where it names it (or gives the values of a map); undefined where it says nothing of it. */
function specMember(spec: Json | undefined, name: string): Json | undefined {
  if (!spec) return undefined;
  if (isObject(spec.properties) && Object.hasOwn(spec.properties, name)) return spec.properties[name];
  return isObject(spec.additionalProperties) && Object.keys(spec.additionalProperties).length ? spec.additionalProperties : undefined;
}

/**
 * Where a member may be given the wrong type: its path in the body and the wrong value, down to
 * `maxDepth` levels below the top. `spec`: SPEC.md's schema of the same body, where the served
 * document's is read: a member SPEC.md types never gets a value of that type.
 */
export function wrongTyped(schema: Json | undefined, maxDepth = 3, spec?: Json): WrongTyped[] {
  const out: WrongTyped[] = [];
  walk(schema, spec, [], maxDepth, out);
  return out;
}

function walk(schema: unknown, spec: Json | undefined, at: Array<string | number>, levels: number, out: WrongTyped[]): void {
  const s = shapeOf(schema, 'object');
  const sp = spec && shapeOf(spec, 'object');
  for (const [name, prop] of Object.entries<Json>(isObject(s?.properties) ? s.properties : {})) {
    const specProp = specMember(sp, name);
    // A member SPEC.md lets take any value: nothing in it is wrong.
    if (specProp !== undefined && !typesAllowed(specProp)) continue;
    const value = isObject(prop) ? wrongFor(prop, specProp) : undefined;
    if (value !== undefined) out.push({ at: [...at, name], value });
    if (levels <= 0) continue;
    walk(prop, specProp, [...at, name], levels - 1, out);
    // The values of a map, under a key no schema names.
    const values = shapeOf(prop, 'object')?.additionalProperties;
    const wrongValue = isObject(values) ? wrongFor(values, specMember(specProp && shapeOf(specProp, 'object'), 'cf-key')) : undefined;
    if (wrongValue !== undefined) out.push({ at: [...at, name, 'cf-key'], value: wrongValue });
    const items = shapeOf(prop, 'array')?.items;
    if (items) walk(items, specProp && shapeOf(specProp, 'array')?.items, [...at, name, 0], levels - 1, out);
  }
}

/** A body holding `value` at `at`, and nothing else. */
export function bodyAt(at: Array<string | number>, value: unknown): Json {
  let node: unknown = value;
  for (let i = at.length - 1; i >= 0; i--) node = typeof at[i] === 'number' ? [node] : { [at[i]]: node };
  return node as Json;
}
