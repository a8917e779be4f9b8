// OpenAPI 3.0 read as 3.1: the schema keywords 3.1 (JSON Schema 2020-12) spells differently, rewritten
// where a schema is, and nowhere else (an `example`, a `default`, an `enum` or an extension holds data,
// never a schema). What the validators and the body walkers need, no more:
//   - `nullable: true` beside a `type`: the type plus "null"; beside a `$ref` or an `allOf` alone:
//     `anyOf` of it and `{type: "null"}`; a `oneOf`/`anyOf` arm that says only `nullable: true` (some
//     generators' "or null"): `{type: "null"}`. Elsewhere `nullable` has nothing to attach to, and stays
//     (an unknown keyword, ignored).
//   - boolean `exclusiveMinimum`/`exclusiveMaximum`: the bound itself, as 2020-12 writes it;
//   - a schema's `example`: `examples: [example]`; `format: binary | byte | base64` as the content
//     keywords (annotations only: the validators check no format).
// It stands where @scalar/openapi-upgrader stood: every release of that package since 0.2 declares
// Node 22, and the project runs on Node 20 (README.md, "Install"). Works in place on a private copy.

type Json = Record<string, any>;

const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** Maps whose keys are names (paths, status codes, media types, header names…), never keywords. */
const NAMED = new Set(['paths', 'responses', 'content', 'headers', 'encoding', 'variables', 'parameters', 'requestBodies', 'securitySchemes', 'callbacks']);
/** Members that hold data, extensions or links: nothing below them is read as a schema. */
const OPAQUE = (key: string) => key === 'example' || key === 'examples' || key === 'default' || key === 'enum' || key === 'links' || key.startsWith('x-');
/** Keywords a schema may carry beside a bare `nullable` and still say nothing but "null". */
const ANNOTATIONS = new Set(['title', 'description', 'deprecated', 'default', 'example', 'examples', 'externalDocs', 'readOnly', 'writeOnly', 'nullable']);

/** One schema and every schema inside it, upgraded; returns the schema to put in its place. */
function upgradeSchema(schema: unknown, unionArm = false): unknown {
  if (!isObject(schema)) return schema;
  for (const key of ['properties', 'patternProperties', '$defs', 'definitions']) {
    if (isObject(schema[key])) for (const name of Object.keys(schema[key])) schema[key][name] = upgradeSchema(schema[key][name]);
  }
  for (const key of ['items', 'additionalProperties', 'not']) if (isObject(schema[key])) schema[key] = upgradeSchema(schema[key]);
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    if (Array.isArray(schema[key])) schema[key] = schema[key].map((arm: unknown) => upgradeSchema(arm, key !== 'allOf'));
  }

  let result: Json = schema;
  if (schema.nullable === true) {
    const { nullable: _, ...rest } = schema;
    if (schema.type !== undefined) result = { ...rest, type: Array.isArray(schema.type) ? [...schema.type, 'null'] : [schema.type, 'null'] };
    else if (typeof schema.$ref === 'string') {
      const { $ref, ...others } = rest;
      result = { ...others, anyOf: [{ $ref }, { type: 'null' }] };
    } else if (Array.isArray(schema.allOf)) {
      const { allOf, ...others } = rest;
      result = { ...others, anyOf: [allOf.length === 1 ? allOf[0] : { allOf }, { type: 'null' }] };
    } else if (unionArm && Object.keys(schema).every((k) => ANNOTATIONS.has(k) || k.startsWith('x-'))) result = { ...rest, type: 'null' };
  }
  for (const [flag, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (result[flag] === true && typeof result[bound] === 'number') {
      result[flag] = result[bound];
      delete result[bound];
    } else if (typeof result[flag] === 'boolean') delete result[flag];
  }
  if ('example' in result) {
    result.examples = [result.example];
    delete result.example;
  }
  const stringy = result.type === 'string' || (Array.isArray(result.type) && result.type.includes('string'));
  if (stringy && result.format === 'binary') {
    // Raw bytes are no JSON type: the media type says what they are.
    const { format: _, type: __, ...rest } = result;
    result = { contentMediaType: 'application/octet-stream', ...rest };
  } else if (stringy && (result.format === 'byte' || result.format === 'base64')) {
    const { format: _, ...rest } = result;
    result = { ...rest, contentEncoding: 'base64' };
  }
  return result;
}

/** Walks the document's own structure (not its schemas) to every place a schema stands. */
function walk(node: unknown, keysAreNames: boolean, namesBelow = 0): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, false);
    return;
  }
  if (!isObject(node)) return;
  for (const key of Object.keys(node)) {
    const value = node[key];
    if (keysAreNames) {
      // A callback holds names (its expressions) one level further down.
      walk(value, namesBelow > 0, namesBelow - 1);
      continue;
    }
    if (OPAQUE(key)) continue;
    if (key === 'schema') node[key] = upgradeSchema(value);
    else if (key === 'schemas' && isObject(value)) for (const name of Object.keys(value)) value[name] = upgradeSchema(value[name]);
    else walk(value, NAMED.has(key) && !Array.isArray(value), key === 'callbacks' ? 1 : 0);
  }
}

/** A 3.0.x document as 3.1: its schemas rewritten in place, its version 3.1.1. Other versions are left as they are. */
export function upgradeToOpenApi31(doc: Json): Json {
  if (typeof doc.openapi !== 'string' || !doc.openapi.startsWith('3.0')) return doc;
  walk(doc, false);
  doc.openapi = '3.1.1';
  return doc;
}
