// Walking and rewriting an OpenAPI document (3.0 or 3.1) the way a generator lays it out: where its
// schemas are and which of their members are schemas too, its references, its components. The
// document dialects (dialects.ts) are written with these; every walk is over plain JSON, in place.
import { isObject, operationsIn, type Json } from './hooks.ts';

/** Schema keywords whose value is a map of schemas. */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** Schema keywords whose value is a list of schemas. */
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
/** Schema keywords whose value is one schema (or a boolean). */
const SCHEMA_ONE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems', 'additionalItems'];
/** Members of the document that hold free JSON (examples, extensions): never walked. */
const FREE = (key: string) => key === 'example' || key === 'examples' || key.startsWith('x-');

/** The subschemas of a schema, as [holder, key] pairs (a map member or list item). */
function subschemas(schema: Json): Array<[Json, string]> {
  const out: Array<[Json, string]> = [];
  for (const k of SCHEMA_MAPS) if (isObject(schema[k])) for (const name of Object.keys(schema[k])) out.push([schema[k], name]);
  for (const k of SCHEMA_LISTS) if (Array.isArray(schema[k])) schema[k].forEach((_: unknown, i: number) => out.push([schema[k], String(i)]));
  for (const k of SCHEMA_ONE) if (k in schema) out.push([schema, k]);
  return out;
}

/**
 * Where the document's root schemas are, as [holder, key] pairs: the members of components.schemas,
 * and the `schema` of every media type, parameter and header, wherever those are (paths, components,
 * path items, responses…). Free JSON (examples, extensions) is not searched.
 */
export function rootSchemas(doc: Json): Array<[Json, string]> {
  const out: Array<[Json, string]> = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) { node.forEach(walk); return; }
    if (!isObject(node)) return;
    for (const [k, v] of Object.entries(node)) {
      if (FREE(k)) continue;
      if (k === 'schema' && (isObject(v) || typeof v === 'boolean')) out.push([node, k]);
      else if (k === 'schemas' && isObject(v)) for (const name of Object.keys(v)) out.push([v, name]);
      else walk(v);
    }
  };
  walk(doc);
  return out;
}

/**
 * Visits every schema object of the document, children before their parent (so that a visitor may
 * wrap the node it is given without meeting its own wrapping again). `replace` swaps the node in its
 * holder; a visitor may also change the node in place.
 */
export function eachSchema(doc: Json, visit: (schema: Json, replace: (next: unknown) => void) => void): void {
  const done = new Set<Json>();
  const walk = (holder: Json, key: string) => {
    const schema = holder[key];
    if (!isObject(schema) || done.has(schema)) return;
    done.add(schema);
    for (const [h, k] of subschemas(schema)) walk(h, k);
    visit(schema, (next) => { holder[key] = next; if (isObject(next)) done.add(next); });
  };
  for (const [holder, key] of rootSchemas(doc)) walk(holder, key);
}

/** Every object of the document with a `$ref` member (schemas and Reference objects alike), examples left out. */
export function eachRef(doc: Json, visit: (ref: Json) => void): void {
  const walk = (node: unknown) => {
    if (Array.isArray(node)) { node.forEach(walk); return; }
    if (!isObject(node)) return;
    if (typeof node.$ref === 'string') visit(node);
    for (const [k, v] of Object.entries(node)) if (!FREE(k)) walk(v);
  };
  walk(doc);
}

/** Escapes one JSON pointer token. */
export const pointerToken = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** What a local reference (`#/a/b`) points to in the document, or undefined. */
export function resolveLocal(doc: Json, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Json)[token];
  }
  return node;
}

/** Follows Reference objects (`{$ref: '#/…'}`) until a non-reference. */
export function followRefs(doc: Json, node: unknown, hops = 16): unknown {
  let at = node;
  for (let i = 0; i < hops && isObject(at) && typeof at.$ref === 'string'; i++) at = resolveLocal(doc, at.$ref);
  return at;
}

/** A component name the document allows (`^[a-zA-Z0-9._-]+$`), in PascalCase: `/worlds/{id}/tick` → `WorldsIdTick`. */
export const componentName = (...words: string[]) =>
  words.join(' ').split(/[^a-zA-Z0-9]+/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join('');

/**
 * Puts a value into a components section under a name derived from `name`, sharing one entry between
 * equal values (what generators do with identical error responses), and returns the reference.
 */
export function intoComponents(doc: Json, section: string, name: string, value: unknown): Json {
  doc.components ??= {};
  const store: Json = (doc.components[section] ??= {});
  const text = JSON.stringify(value);
  const same = Object.keys(store).find((k) => JSON.stringify(store[k]) === text);
  if (same) return { $ref: `#/components/${section}/${same}` };
  let unique = name;
  for (let n = 2; unique in store; n++) unique = `${name}${n}`;
  store[unique] = value;
  return { $ref: `#/components/${section}/${unique}` };
}

/** Every response of every operation, with what names it: the operation and the status key. */
export function* responsesIn(doc: Json): Generator<{ op: Json; status: string; responses: Json }> {
  for (const { op } of operationsIn(doc)) for (const status of Object.keys(op.responses)) yield { op, status, responses: op.responses };
}

/** Every media type object of the document's operations (request bodies and responses), with its holder (`content`). */
export function* mediaTypesIn(doc: Json): Generator<{ content: Json; type: string; request: boolean }> {
  for (const { op } of operationsIn(doc)) {
    const body = op.requestBody;
    if (isObject(body?.content)) for (const type of Object.keys(body.content)) yield { content: body.content, type, request: true };
    for (const res of Object.values<Json>(op.responses)) if (isObject(res?.content)) for (const type of Object.keys(res.content)) yield { content: res.content, type, request: false };
  }
}

/** The path parameters and every other Parameter object of the document's operations, path-level lists included. */
export function* parameterListsIn(doc: Json): Generator<{ path: string; list: Json[] }> {
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    if (Array.isArray(item?.parameters)) yield { path, list: item.parameters };
    for (const op of Object.values<Json>(item ?? {})) if (isObject(op) && op.responses && Array.isArray(op.parameters)) yield { path, list: op.parameters };
  }
}

/** A component schema reference (`#/components/schemas/Name`) → Name, else undefined. */
export const schemaRefName = (ref: unknown): string | undefined =>
  typeof ref === 'string' && ref.startsWith('#/components/schemas/') && !ref.slice(21).includes('/') ? decodeURIComponent(ref.slice(21)) : undefined;
