// How every body builder here reads a schema of a dereferenced OpenAPI document (contract/openapi-reader.ts;
// 3.0 upgraded: bounds are numbers, null a type): allOf merged, a union's arms, the type it describes,
// whether a value holds. A recursive schema is a cycle of objects: every walk here is bounded in depth.
export type Json = Record<string, any>;

export const MAX_DEPTH = 32;
export const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);
/** Sets an own member, `__proto__` included (an assignment would set the prototype instead). */
export const setMember = (o: object, key: string, value: unknown) => Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });

/**
 * One schema for an `allOf` (at any nesting), its object parts merged: properties (merged in turn),
 * required members, closedness; a part with another type wins. Used by every walker of schemas.
 */
export function mergeAllOf(schema: Json, depth = 0): Json {
  if (!Array.isArray(schema?.allOf) || depth > MAX_DEPTH) return schema;
  const { allOf, ...own } = schema;
  const parts: Json[] = [own, ...allOf].filter(isObject).map((p) => mergeAllOf(p, depth + 1));
  const typed = parts.filter((p) => p.type !== undefined && p.type !== 'object' && !(Array.isArray(p.type) && p.type.includes('object')));
  if (typed.length && typed.every((p) => p.type === 'array')) {
    const items = typed.map((p) => p.items).filter(Boolean);
    return { ...Object.assign({}, ...typed), items: items.length > 1 ? mergeAllOf({ allOf: items }, depth + 1) : items[0], minItems: Math.max(0, ...typed.map((p) => p.minItems ?? 0)) };
  }
  if (typed.length) return Object.assign({}, ...parts.filter((p) => !p.properties), ...typed);
  const properties: Json = {};
  for (const p of parts) {
    for (const [k, v] of Object.entries<Json>(p.properties ?? {})) {
      setMember(properties, k, properties[k] ? mergeAllOf({ allOf: [properties[k], v] }, depth + 1) : v);
    }
  }
  const closed = parts.some((p) => p.additionalProperties === false || p.unevaluatedProperties === false);
  const extra = parts.find((p) => isObject(p.additionalProperties))?.additionalProperties;
  const annotations = Object.fromEntries(parts.flatMap((p) => Object.entries(p).filter(([k]) => ['const', 'enum', 'anyOf', 'oneOf', 'if', 'then', 'else'].includes(k))));
  return {
    ...annotations, ...memberRules(parts), type: 'object', properties,
    required: [...new Set(parts.flatMap((p) => (Array.isArray(p.required) ? p.required : [])))], additionalProperties: closed ? false : extra ?? true,
  };
}

/** What the parts of an allOf say of an object's members together: the largest minProperties, the smallest maxProperties, every dependency, every `not`. */
function memberRules(parts: Json[]): Json {
  const out: Json = {};
  const mins = parts.map((p) => p.minProperties).filter((n) => typeof n === 'number');
  const maxes = parts.map((p) => p.maxProperties).filter((n) => typeof n === 'number');
  if (mins.length) out.minProperties = Math.max(...mins);
  if (maxes.length) out.maxProperties = Math.min(...maxes);
  const dependencies = parts.filter((p) => isObject(p.dependentRequired)).map((p) => p.dependentRequired);
  if (dependencies.length) {
    out.dependentRequired = {};
    for (const d of dependencies) for (const [k, v] of Object.entries(d)) out.dependentRequired[k] = [...new Set([...(out.dependentRequired[k] ?? []), ...(Array.isArray(v) ? v : [])])];
  }
  const nots = parts.map((p) => p.not).filter(isObject);
  if (nots.length) out.not = nots.length === 1 ? nots[0] : { anyOf: nots };
  return out;
}

export const typesOf = (schema: Json): string[] | undefined => (Array.isArray(schema.type) ? schema.type : typeof schema.type === 'string' ? [schema.type] : undefined);
/** Whether these types take one of type `t` (an integer is a number too). */
export const admits = (types: readonly string[], t: string) => types.includes(t) || (t === 'integer' && types.includes('number'));

/**
 * The arms of an `anyOf`/`oneOf`, each with what the schema says beside it (its type, members, bounds:
 * an instance must keep both), the arms whose type cannot meet the schema's left out. Undefined when
 * the schema has no arms.
 */
export function armsOf(schema: Json): Json[] | undefined {
  const { anyOf, oneOf, ...rest } = schema;
  const arms = (Array.isArray(anyOf) ? anyOf : Array.isArray(oneOf) ? oneOf : []).filter(isObject);
  if (!arms.length) return undefined;
  const own = typesOf(rest);
  const meets = (arm: Json) => { const t = typesOf(mergeAllOf(arm)); return !own || !t || t.some((x) => admits(own, x)); };
  const kept = arms.filter(meets);
  const beside = Object.keys(rest).some((k) => !['description', 'title', 'examples', 'example', 'default', 'deprecated'].includes(k));
  return (kept.length ? kept : arms).map((arm) => (beside ? mergeAllOf({ allOf: [rest, arm] }) : arm));
}

/** The type a schema describes: its first non-null type, or what its keywords say. */
export function typeOf(schema: Json): string | undefined {
  const types = typesOf(schema) ?? [];
  const type = types.find((t) => t !== 'null') ?? types[0];
  return type ?? (schema.properties || schema.required || schema.additionalProperties !== undefined ? 'object' : schema.items ? 'array' : undefined);
}

/** The JSON type of a value, as a schema names it. */
export const jsonType = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v);

/** The schema of an object's members, allOf merged; undefined for what is not an object. */
export const membersOf = (schema: unknown): Json | undefined => { const m = isObject(schema) ? mergeAllOf(schema) : undefined; return isObject(m?.properties) ? m!.properties : undefined; };

/**
 * Whether a value holds under a schema, for the keywords that decide between candidate bodies here
 * (type, const, enum, required, properties, sizes, bounds, allOf, anyOf, oneOf, not, dependentRequired,
 * if/then/else): true, false, or
 * undefined when a keyword it does not read could decide. Callers validate what they send with ajv;
 * this only steers which smallest instance to make.
 */
export function matches(schema: unknown, value: unknown, depth = 0): boolean | undefined {
  if (schema === true || (isObject(schema) && !Object.keys(schema).length)) return true;
  if (schema === false) return false;
  if (!isObject(schema) || depth > MAX_DEPTH) return undefined;
  const results: Array<boolean | undefined> = [];
  const types = typesOf(schema);
  if (types) results.push(admits(types, jsonType(value)));
  if ('const' in schema) results.push(JSON.stringify(schema.const) === JSON.stringify(value));
  if (Array.isArray(schema.enum)) results.push(schema.enum.some((e: unknown) => JSON.stringify(e) === JSON.stringify(value)));
  if (isObject(value)) {
    const keys = Object.keys(value);
    if (Array.isArray(schema.required)) results.push(schema.required.every((k: string) => keys.includes(k)));
    if (typeof schema.minProperties === 'number') results.push(keys.length >= schema.minProperties);
    if (typeof schema.maxProperties === 'number') results.push(keys.length <= schema.maxProperties);
    if (isObject(schema.properties)) for (const [k, sub] of Object.entries(schema.properties)) if (Object.hasOwn(value, k)) results.push(matches(sub, value[k], depth + 1));
    if (isObject(schema.dependentRequired)) {
      for (const [k, needs] of Object.entries(schema.dependentRequired)) if (Object.hasOwn(value, k) && Array.isArray(needs)) results.push(needs.every((n) => keys.includes(n)));
    }
  }
  if ('if' in schema) {
    const cond = matches(schema.if, value, depth + 1);
    const branch = cond === undefined ? undefined : cond ? schema.then : schema.else;
    results.push(cond === undefined ? undefined : branch === undefined ? true : matches(branch, value, depth + 1));
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number') results.push(value >= schema.minimum);
    if (typeof schema.maximum === 'number') results.push(value <= schema.maximum);
    if (typeof schema.exclusiveMinimum === 'number') results.push(value > schema.exclusiveMinimum);
    if (typeof schema.exclusiveMaximum === 'number') results.push(value < schema.exclusiveMaximum);
  }
  if (typeof value === 'string') {
    if (typeof schema.minLength === 'number') results.push([...value].length >= schema.minLength);
    if (typeof schema.maxLength === 'number') results.push([...value].length <= schema.maxLength);
  }
  if (Array.isArray(schema.allOf)) for (const p of schema.allOf) results.push(matches(p, value, depth + 1));
  const any = (list: unknown[]) => { const r = list.map((p) => matches(p, value, depth + 1)); return r.includes(true) ? true : r.includes(undefined) ? undefined : false; };
  if (Array.isArray(schema.anyOf)) results.push(any(schema.anyOf));
  if (Array.isArray(schema.oneOf)) {
    const r = schema.oneOf.map((p: unknown) => matches(p, value, depth + 1));
    results.push(r.includes(undefined) ? undefined : r.filter(Boolean).length === 1);
  }
  if ('not' in schema) { const r = matches(schema.not, value, depth + 1); results.push(r === undefined ? undefined : !r); }
  if (results.includes(false)) return false;
  const known = ['type', 'const', 'enum', 'required', 'minProperties', 'maxProperties', 'properties', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
    'minLength', 'maxLength', 'allOf', 'anyOf', 'oneOf', 'not', 'dependentRequired', 'if', 'then', 'else', 'title', 'description', 'default', 'examples', 'example', 'format'];
  return results.includes(undefined) || Object.keys(schema).some((k) => !known.includes(k)) ? undefined : true;
}
