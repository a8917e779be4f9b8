// Small constructors so every schema states its openness explicitly: SPEC.md marks some objects
// "open" (extra members allowed); every other object is closed. Maps use additionalProperties,
// which OpenAPI tooling understands better than patternProperties.
import { Type, type Static, type TSchema, type TProperties, type TObject, type TUnsafe } from 'typebox';

/** A schema registered as a named component (its $id is checked at run time by ref()). */
export type Named = TSchema & { $id?: string };

/** A closed object: members other than those listed are refused. */
export function closed<P extends TProperties>(props: P, opts: Record<string, unknown> = {}): TObject<P> {
  return Type.Object(props, { additionalProperties: false, ...opts });
}

/** An object SPEC.md marks "open": it accepts and returns additional members. */
export function open<P extends TProperties>(props: P, opts: Record<string, unknown> = {}): TObject<P> {
  return Type.Object(props, { additionalProperties: true, ...opts });
}

/** map<string,T> of SPEC.md. */
export function map<T extends TSchema>(value: T, opts: Record<string, unknown> = {}): TUnsafe<Record<string, Static<T>>> {
  return Type.Unsafe<Record<string, Static<T>>>({ type: 'object', additionalProperties: value, ...opts });
}

/** A reference to a named component (keeps the static type, emits {$ref}). */
export function ref<T extends TSchema>(schema: T): TUnsafe<Static<T>> {
  return Type.Unsafe<Static<T>>(Type.Ref(idOf(schema)));
}

export function idOf(schema: TSchema): string {
  const id = (schema as Named).$id;
  if (!id) throw new Error('contract: ref() of a schema without $id');
  return id;
}

export const Str = (opts: Record<string, unknown> = {}) => Type.String(opts);
export const Num = (opts: Record<string, unknown> = {}) => Type.Number(opts);
export const Bool = (opts: Record<string, unknown> = {}) => Type.Boolean(opts);
export const Opt = Type.Optional;
export const Arr = Type.Array;
/** A string field whose SPEC.md lists some values ("value seen") but not the full set: any string. */
export const Seen = (...values: string[]) => Type.String({ examples: values });

/**
 * A copy of a JSON Schema tree: keywords for which `keep` is false are left out and every string
 * `$ref` goes through `ref`. The members of `properties` are names, not keywords, so all are kept
 * (a property may well be called `required`).
 */
export function mapSchema(node: unknown, opts: { keep: (keyword: string) => boolean; ref: (ref: string) => string }): unknown {
  if (Array.isArray(node)) return node.map((n) => mapSchema(n, opts));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (!opts.keep(key)) continue;
    if (key === '$ref' && typeof value === 'string') out.$ref = opts.ref(value);
    else if (key === 'properties' && value && typeof value === 'object' && !Array.isArray(value)) {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, v]) => [name, mapSchema(v, opts)]));
    } else out[key] = mapSchema(value, opts);
  }
  return out;
}
