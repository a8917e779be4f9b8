// Wrong-typed members of request bodies, read from a request schema (ERR-3 from the SPEC contract,
// ERR-6 from the served document): where each member sits in a body and a value of a type the schema
// does not allow there. Tested on its own (test/conformance/wrong-types.test.ts).
type Json = Record<string, any>;

/** The object part of a (dereferenced) schema: an Input overlay is `allOf` [members, required]. */
const objectPart = (s: Json | undefined): Json | undefined => (s?.allOf ? s.allOf.find((p: Json) => p.type !== undefined && p.properties) ?? s.allOf[0] : s);
const WRONG: Record<string, unknown> = { string: 12345, number: 'not-a-number', integer: 'not-a-number', boolean: 'yes', object: 'not-an-object', array: { not: 'an array' } };

export type WrongTyped = { at: Array<string | number>; value: unknown };

/** Where a member may be given the wrong type: its path in the body and the wrong value, down to `maxDepth` levels below the top. */
export function wrongTyped(schema: Json | undefined, maxDepth = 3): WrongTyped[] {
  const out: WrongTyped[] = [];
  walk(schema, [], 3 - maxDepth, out);
  return out;
}

function walk(schema: Json | undefined, at: Array<string | number>, depth: number, out: WrongTyped[]): void {
  const s = objectPart(schema);
  for (const [name, prop] of Object.entries<Json>(s?.properties ?? {})) {
    const p = objectPart(prop);
    const type = p?.type;
    if (typeof type === 'string' && type in WRONG) out.push({ at: [...at, name], value: WRONG[type] });
    if (depth >= 3) continue;
    if (type === 'object') {
      if (p!.properties) walk(p, [...at, name], depth + 1, out);
      const values = objectPart(p!.additionalProperties);
      if (values && typeof values.type === 'string' && values.type in WRONG) out.push({ at: [...at, name, 'cf-key'], value: WRONG[values.type] });
    }
    if (type === 'array' && objectPart(p!.items)?.properties) walk(p!.items, [...at, name, 0], depth + 1, out);
  }
}

/** A body holding `value` at `at`, and nothing else. */
export function bodyAt(at: Array<string | number>, value: unknown): Json {
  let node: unknown = value;
  for (let i = at.length - 1; i >= 0; i--) node = typeof at[i] === 'number' ? [node] : { [at[i]]: node };
  return node as Json;
}
