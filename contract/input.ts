// Request bodies reuse the resource components in a "deep partial" form: SPEC.md does not say which
// request members are required, so members are optional unless an operation needs them, and the
// reference fills defaults. The Input variants are generated, never written by hand, so the request
// and response shapes cannot drift apart.
import { Type, type Static, type TSchema, type TUnsafe } from 'typebox';
import { idOf, mapSchema, type Named } from './kit.ts';

export type DeepPartial<T> = T extends Array<infer U> ? Array<DeepPartial<U>>
  : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;

const INPUT_SUFFIX = 'Input';
export const inputId = (id: string) => id.endsWith(INPUT_SUFFIX) ? id : id + INPUT_SUFFIX;

type Json = Record<string, unknown>;

/** Copy of a schema with every `required` dropped and every $ref pointed at the Input variant. */
export function deepPartial(node: unknown): unknown {
  return mapSchema(node, { keep: (k) => k !== 'required' && k !== '$id' && k !== '~kind', ref: inputId });
}

/** The Input component of a named resource: `$id` X → XInput. */
export function inputComponent<T extends TSchema>(schema: T): Named {
  return { ...(deepPartial(schema) as Json), $id: inputId(idOf(schema)) } as unknown as Named;
}

/** Reference to the Input variant of a component. */
export function inputRef<T extends TSchema>(schema: T): TUnsafe<DeepPartial<Static<T>>> {
  return Type.Unsafe<DeepPartial<Static<T>>>({ $ref: inputId(idOf(schema)) });
}

/**
 * Adds requirements on top of an Input reference, e.g. `{ '': ['identity'], identity: ['name'] }`
 * requires `identity` at the top and `name` inside it. Paths use '/' for nesting and '[]' for array items.
 */
export function requireAt<T extends TSchema>(base: T, paths: Record<string, string[]>): T {
  // The overlay only adds `required`; each node states the type the base has there (a step followed
  // by '[]' is an array), which keeps ajv's strict mode content.
  const overlay: Json = { type: 'object' };
  const requiredNodes: Json[] = [];
  for (const [path, required] of Object.entries(paths)) {
    const steps = path.split('/').filter(Boolean);
    let node = overlay;
    steps.forEach((step, i) => {
      const type = steps[i + 1] === '[]' ? 'array' : 'object';
      if (step === '[]') { node.items ??= { type }; node = node.items as Json; return; }
      node.properties ??= {};
      const props = node.properties as Json;
      props[step] ??= { type };
      node = props[step] as Json;
    });
    node.required = required;
    requiredNodes.push(node);
  }
  // Each required member is also named under properties (with no constraint: the base states it),
  // since linters read the overlay alone and would report a required member it does not define.
  for (const node of requiredNodes) {
    const props = (node.properties ??= {}) as Json;
    for (const name of node.required as string[]) props[name] ??= {};
  }
  return Type.Unsafe<Static<T>>({ allOf: [base, overlay] }) as unknown as T;
}
