// Near misses: a valid body broken one way (a Mutation: a member of the wrong type, missing, extra, or
// given a value that breaks servers), at a place chosen by indices, so that it is data fast-check
// shrinks. The generated area breaks its valid bodies (valid.ts) and what a target exported with them.
import fc from 'fast-check';
import { setMember, type Json } from './schema.ts';
import { BUILTIN_NAMES, anyValue, nastyString, nastyValue, objectOf, typeOf as valueTypeOf } from './values.ts';

/** One way to break an instance, at a place chosen by `at` (indices into members, taken modulo). */
export type Mutation =
  | { kind: 'wrong-type'; at: number[]; value: unknown }
  | { kind: 'missing'; at: number[] }
  | { kind: 'extra'; at: number[]; key: string; value: unknown }
  | { kind: 'nasty'; at: number[]; value: unknown };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('wrong-type' as const), at: fc.array(fc.nat(), { maxLength: 6 }), value: anyValue }),
  fc.record({ kind: fc.constant('missing' as const), at: fc.array(fc.nat(), { maxLength: 6 }) }),
  fc.record({ kind: fc.constant('extra' as const), at: fc.array(fc.nat(), { maxLength: 6 }), key: fc.oneof(fc.constantFrom(...BUILTIN_NAMES), nastyString), value: nastyValue }),
  fc.record({ kind: fc.constant('nasty' as const), at: fc.array(fc.nat(), { maxLength: 6 }), value: nastyValue }),
);

const isContainer = (v: unknown): v is Json => !!v && typeof v === 'object';

/** Where `at` leads in an instance: the container and the key of the member reached (undefined for the root). */
export function locate(instance: unknown, at: readonly number[]): { parent?: Json; key?: string; path: string[] } {
  let parent: Json | undefined;
  let key: string | undefined;
  let current = instance;
  const path: string[] = [];
  for (const i of at) {
    if (!isContainer(current)) break;
    const keys = Object.keys(current);
    if (!keys.length) break;
    parent = current;
    key = keys[i % keys.length];
    path.push(key);
    current = current[key];
  }
  return { parent, key, path };
}

/** A copy of a JSON value without recursion: what a target serves may nest deeper than the stack (structuredClone overflows). */
export function clone(value: unknown): unknown {
  if (!isContainer(value)) return value;
  const root: Json = Array.isArray(value) ? [] : {};
  const stack: Array<[Json, Json]> = [[value, root]];
  while (stack.length) {
    const [from, to] = stack.pop()!;
    for (const [k, v] of Object.entries(from)) {
      const copy = isContainer(v) ? (Array.isArray(v) ? [] : {}) : v;
      setMember(to, k, copy);
      if (isContainer(v)) stack.push([v, copy as Json]);
    }
  }
  return root;
}

/** A copy of the instance with the mutation applied, and where it was applied (a JSON pointer-like path). */
export function applyMutation(instance: unknown, m: Mutation): { value: unknown; where: string } {
  const copy = clone(instance);
  const { parent, key, path } = locate(copy, m.at);
  const where = path.map((k) => `/${k}`).join('');
  switch (m.kind) {
    case 'missing':
      if (parent && key !== undefined) { if (Array.isArray(parent)) parent.splice(Number(key), 1); else delete parent[key]; }
      return { value: parent ? copy : undefined, where: where || '(the whole body)' };
    case 'extra': {
      const target = parent && key !== undefined ? parent[key] : copy;
      if (isContainer(target) && !Array.isArray(target)) { setMember(target, m.key, m.value); return { value: copy, where: `${where}/${m.key}` }; }
      if (Array.isArray(target)) { target.push(m.value); return { value: copy, where: `${where}/-` }; }
      return { value: objectOf([[m.key, m.value]]), where: `/${m.key}` };
    }
    case 'wrong-type':
    case 'nasty': {
      const before = parent && key !== undefined ? parent[key] : copy;
      // A wrong type must be one: a value of the same type is turned into null.
      const value = m.kind === 'wrong-type' && valueTypeOf(m.value) === valueTypeOf(before) ? null : m.value;
      if (!parent || key === undefined) return { value, where: '(the whole body)' };
      setMember(parent, key, value);
      return { value: copy, where };
    }
  }
}
