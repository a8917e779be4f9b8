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
