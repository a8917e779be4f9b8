// The one loader of OpenAPI documents. A served document is the target's text: untrusted, and in any
// legal style. It is read here into one normal form that everything downstream uses:
//   - bounded: nesting depth and node count are checked before anything walks it;
//   - same-document references only: a `$ref` that is not a fragment (`#…`) refuses the document
//     before any library sees it, and the dereferencer runs with every resolver off, so no file is
//     opened and no connection made because a document says so;
//   - OpenAPI 3.0 upgraded to 3.1 (upgrade-30.ts: `nullable`, boolean exclusive bounds, `example`),
//     so that one JSON Schema dialect (2020-12) reads both;
//   - valid: checked against the OpenAPI meta-schema as written (references not followed), which is
//     where a 3.1 `summary` beside a `$ref` is legal;
//   - dereferenced by @apidevtools/json-schema-ref-parser, recursion kept as a cyclic graph (the
//     walkers that build bodies bound their depth), beside the reference-keeping normal form that
//     ajv compiles (ajv follows recursion itself).
import $RefParser from '@apidevtools/json-schema-ref-parser';
// The meta-schema check alone, not swagger-parser's validate(): that dereferences first (reading
// files, and judging a dereferenced document, where a legal `summary` beside a `$ref` no longer is).
import { openApiSchemaProblems } from './meta-schema.ts';
import { upgradeToOpenApi31 } from './upgrade-30.ts';

type Json = Record<string, any>;

export const DOCUMENT_LIMITS = { maxDepth: 128, maxNodes: 500_000 };

export interface LoadedDocument {
  /** The `openapi` version as written. */
  version?: string;
  /** OpenAPI 3.1 with same-document `$ref`s kept: what ajv compiles. Empty when the document was refused. */
  normal: Json;
  /** The same with every `$ref` replaced by what it points to (a recursive schema is a cycle of objects). */
  dereferenced: Json;
  /** Why the document is not a usable OpenAPI document (OAS-1 fails with these); empty when it is. */
  problems: string[];
}

export interface LoadOptions {
  /**
   * The document already passed the meta-schema check in this run (the preflight, or the bundled
   * contract): skip it, the costliest step after the first (the meta-schema is compiled once). The
   * bounds and the refusal of references out of the document are never skipped.
   */
  validated?: boolean;
}

const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);
const escape = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');
export const pointerOf = (tokens: readonly string[]) => `#${tokens.map((t) => `/${escape(t)}`).join('')}`;
/** The same pointer as a URI fragment, each token percent-encoded (what ajv parses in a `$ref`). */
export const fragmentOf = (tokens: readonly string[]) => `#${tokens.map((t) => `/${encodeURIComponent(escape(t))}`).join('')}`;

/** Depth, size and every `$ref` that leaves the document, in one walk without recursion. */
function survey(doc: unknown, limits = DOCUMENT_LIMITS): { problems: string[]; outside: string[] } {
  const outside: string[] = [];
  const stack: Array<[unknown, string[]]> = [[doc, []]];
  let nodes = 0;
  while (stack.length) {
    const [value, at] = stack.pop()!;
    if (++nodes > limits.maxNodes) return { problems: [`it holds more than ${limits.maxNodes} JSON values: the suite reads documents up to that size`], outside };
    if (at.length > limits.maxDepth) return { problems: [`it nests deeper than ${limits.maxDepth} levels (at ${pointerOf(at.slice(0, 8))}/…): the suite reads documents up to that depth`], outside };
    if (!value || typeof value !== 'object') continue;
    if (!Array.isArray(value) && typeof (value as Json).$ref === 'string' && !(value as Json).$ref.startsWith('#')) outside.push(`'${String((value as Json).$ref).slice(0, 120)}' at ${pointerOf(at)}`);
    for (const [k, v] of Object.entries(value)) if (v && typeof v === 'object') stack.push([v, [...at, k]]);
  }
  return { problems: [], outside };
}

/** A deep copy without recursion that keeps members named `__proto__` as members. */
export function copyJson<T>(value: T): T {
  if (!value || typeof value !== 'object') return value;
  const root: Json = Array.isArray(value) ? [] : {};
  const stack: Array<[Json, Json]> = [[value as Json, root]];
  while (stack.length) {
    const [from, to] = stack.pop()!;
    for (const [k, v] of Object.entries(from)) {
      const copy = v && typeof v === 'object' ? (Array.isArray(v) ? [] : {}) : v;
      Object.defineProperty(to, k, { value: copy, enumerable: true, writable: true, configurable: true });
      if (v && typeof v === 'object') stack.push([v, copy as Json]);
    }
  }
  return root as T;
}

/** The base of a document's own schemas before any `$id` (a name, never fetched). */
const DOCUMENT_BASE = 'https://openapi-document.invalid/';
const withoutFragment = (uri: string) => uri.split('#')[0];
const tokensOf = (fragment: string) => fragment.split('/').slice(1).map((t) => decodeURIComponent(t).replace(/~1/g, '/').replace(/~0/g, '~'));

/**
 * References by `$id` and `$anchor` (JSON Schema 2020-12, OpenAPI 3.1) rewritten as the JSON pointers
 * they name in this document, and the identifiers dropped: a schema that calls itself
 * `https://schemas.example/world` is found here, never fetched; and a `#/…` inside it is read from it,
 * as 2020-12 says. A reference to an identifier the document does not hold is left as it is: out of
 * the document, refused by survey(). Works on a copy (in place).
 */
function resolveIdentifiers(doc: Json): void {
  const ids = new Map<string, string[]>();
  const anchors = new Map<string, string[]>();
  const bases = new Map<Json, string>();
  const walk = (visit: (o: Json, at: string[], base: string) => void) => {
    const stack: Array<[unknown, string[], string]> = [[doc, [], DOCUMENT_BASE]];
    while (stack.length) {
      const [value, at, inherited] = stack.pop()!;
      if (!value || typeof value !== 'object') continue;
      let base = inherited;
      if (!Array.isArray(value)) {
        const o = value as Json;
        if (typeof o.$id === 'string') {
          try { base = withoutFragment(new URL(o.$id, inherited).href); } catch { /* not a URI: no new base */ }
        }
        visit(o, at, base);
      }
      for (const [k, v] of Object.entries(value)) if (v && typeof v === 'object') stack.push([v, [...at, k], base]);
    }
  };
  walk((o, at, base) => {
    bases.set(o, base);
    if (typeof o.$id === 'string' && base !== DOCUMENT_BASE && !ids.has(base)) ids.set(base, at);
    if (typeof o.$anchor === 'string') anchors.set(`${base}#${o.$anchor}`, at);
  });
  if (!ids.size && !anchors.size) return;
  walk((o) => {
    if (typeof o.$ref !== 'string') return;
    const base = bases.get(o) ?? DOCUMENT_BASE;
    let target: URL;
    try { target = new URL(o.$ref, base); } catch { return; }
    const resource = withoutFragment(target.href);
    const fragment = decodeURIComponent(target.hash.slice(1));
    const root = resource === DOCUMENT_BASE ? [] : ids.get(resource);
    const found = fragment && !fragment.startsWith('/') ? anchors.get(`${resource}#${fragment}`) : root && [...root, ...(fragment ? tokensOf(fragment) : [])];
    if (found) o.$ref = pointerOf(found);
  });
  eachObject(doc, (o) => {
    if (typeof o.$id === 'string') delete o.$id;
    if (typeof o.$anchor === 'string') delete o.$anchor;
  });
}

/** Visits every object of a JSON tree (parents first); `visit` may change the object in place. */
function eachObject(doc: unknown, visit: (o: Json) => void): void {
  const stack: unknown[] = [doc];
  while (stack.length) {
    const value = stack.pop();
    if (!value || typeof value !== 'object') continue;
    if (!Array.isArray(value)) visit(value as Json);
    for (const v of Object.values(value)) if (v && typeof v === 'object') stack.push(v);
  }
}

/** Keywords that constrain a value: beside a `$ref` in 3.1 they apply as well as the reference. */
const CONSTRAINING = new Set([
  'type', 'properties', 'required', 'additionalProperties', 'unevaluatedProperties', 'patternProperties', 'propertyNames', 'items', 'prefixItems',
  'unevaluatedItems', 'contains', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'enum', 'const', 'minimum', 'maximum', 'exclusiveMinimum',
  'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties',
  'dependentRequired', 'dependentSchemas',
]);

/**
 * What a `$ref`'s siblings mean: ignored in 3.0 (its rule; `nullable` kept for the upgrader, which
 * reads `nullable` beside a `$ref` as "or null", the intent of every 3.0 generator that writes it);
 * in 3.1 applied beside the reference, written as an `allOf` so that a dereferencer cannot merge
 * them over the referenced schema. Annotations (`summary`, `description`…) stay as they are.
 */
function settleRefSiblings(doc: Json, version: string): void {
  eachObject(doc, (o) => {
    if (typeof o.$ref !== 'string') return;
    const siblings = Object.keys(o).filter((k) => k !== '$ref');
    if (!siblings.length) return;
    if (version.startsWith('3.0')) {
      for (const k of siblings) if (k !== 'nullable') delete o[k];
      return;
    }
    if (!siblings.some((k) => CONSTRAINING.has(k))) return;
    const ref = o.$ref;
    delete o.$ref;
    o.allOf = [{ $ref: ref }, ...(Array.isArray(o.allOf) ? o.allOf : [])];
  });
}

const stripProblem = (message: string) => message.replace(/\[object Object\]/g, 'the document').replace(/\s+/g, ' ').trim();

/**
 * Reads a document into the normal form, or says why it cannot be used. Never reads a file or opens
 * a connection; never throws for what a document holds.
 */
export async function loadOpenApi(raw: unknown, options: LoadOptions = {}): Promise<LoadedDocument> {
  const refused = (problems: string[], version?: string): LoadedDocument => ({ version, normal: {}, dereferenced: {}, problems });
  if (!isObject(raw)) return refused(['it is not a JSON object']);
  const version = typeof raw.openapi === 'string' ? raw.openapi : undefined;
  if (!version) return refused(['it has no `openapi` version member']);
  if (!/^3\.[01]\./.test(version)) return refused([`it is OpenAPI ${version.slice(0, 20)}: the suite reads OpenAPI 3.0.x and 3.1.x`], version);
  const bounds = survey(raw);
  if (bounds.problems.length) return refused(bounds.problems, version);
  // References by identifier are inside the document too: rewritten as pointers before anything
  // decides what lies outside it.
  const copy = copyJson(raw);
  resolveIdentifiers(copy);
  const { outside } = survey(copy);
  if (outside.length) {
    return refused([`it refers outside itself (${outside.slice(0, 3).join(', ')}${outside.length > 3 ? `, and ${outside.length - 3} more` : ''}): the suite follows references inside the document only, and read nothing`], version);
  }
  if (!options.validated) {
    const problems = openApiSchemaProblems(raw);
    if (problems.length) return refused([`it does not validate against the OpenAPI ${version.slice(0, 3)} schema: ${problems.join('; ').slice(0, 600)}`], version);
  }
  settleRefSiblings(copy, version);
  let normal: Json;
  try {
    normal = upgradeToOpenApi31(copy);
  } catch (err) {
    return refused([`it cannot be read as OpenAPI 3.1: ${stripProblem((err as Error).message)}`], version);
  }
  let dereferenced: Json;
  try {
    dereferenced = await $RefParser.dereference(copyJson(normal), {
      // Every way out of the document is shut; survey() has already refused any reference that would need one.
      resolve: { external: false, file: false, http: false },
      dereference: { circular: true },
    } as never) as unknown as Json;
  } catch (err) {
    return refused([`a reference inside it does not resolve: ${stripProblem((err as Error).message).slice(0, 300)}`], version);
  }
  return { version, normal, dereferenced, problems: [] };
}

/**
 * Where a JSON pointer really leads in a document whose objects may be `$ref`s: each reference met on
 * the way is followed, and the pointer of the place reached is returned (what ajv can compile).
 * Undefined when the pointer leads nowhere.
 */
export function locate(doc: Json, tokens: readonly string[]): string[] | undefined {
  let at: string[] = [];
  let node: unknown = doc;
  const follow = () => {
    // A chain of references, bounded: a reference to itself leads nowhere.
    for (let hops = 0; isObject(node) && typeof node.$ref === 'string' && !Object.keys(node).some((k) => CONSTRAINING.has(k)); hops++) {
      if (hops > 32 || !node.$ref.startsWith('#')) return false;
      try {
        at = node.$ref.slice(1).split('/').slice(1).map((t: string) => decodeURIComponent(t).replace(/~1/g, '/').replace(/~0/g, '~'));
      } catch {
        return false;
      }
      node = at.reduce<unknown>((n, t) => (n && typeof n === 'object' && Object.prototype.hasOwnProperty.call(n, t) ? (n as Json)[t] : undefined), doc);
      if (node === undefined) return false;
    }
    return true;
  };
  if (!follow()) return undefined;
  for (const token of tokens) {
    if (!node || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, token)) return undefined;
    node = (node as Json)[token];
    at = [...at, token];
    if (!follow()) return undefined;
  }
  return at;
}

/** The media type of a content key or a Content-Type header, without its parameters, lower case. */
export const mediaType = (value: string | undefined) => (value ?? '').split(';')[0].trim().toLowerCase();

/**
 * The key of a `content` map that describes a JSON body: `application/json` with any parameters,
 * else a `+json` type, else a wildcard that covers JSON. Undefined when none does.
 */
export function jsonContentKey(content: unknown): string | undefined {
  if (!isObject(content)) return undefined;
  const keys = Object.keys(content);
  const rank = (k: string) => {
    const m = mediaType(k);
    return m === 'application/json' ? 0 : /^application\/[^/]+\+json$/.test(m) ? 1 : m === 'application/*' ? 2 : m === '*/*' ? 3 : 9;
  };
  const best = keys.filter((k) => rank(k) < 9).sort((a, b) => rank(a) - rank(b))[0];
  return best;
}
