// Wrong-typed members of request bodies, read from a request schema (ERR-3 from the SPEC contract,
// ERR-6 from the served document): where each member sits in a body and a value of a type the schema
// does not allow there. Frameworks write an optional member as a union with null (FastAPI/pydantic 2:
// anyOf [X, null]; 3.1: type [X, 'null']; 3.0: nullable: true, which the loader upgrades): it is probed
// as X, and null, legal there, is never the wrong value. A union of other types gets a value of none of
// them. Where SPEC.md types the member too, the value is of none of SPEC.md's types either, so that a
// deployment is never asked to refuse what SPEC.md allows. Tested on its own (test/conformance/wrong-types.test.ts).
// Then the bodies ERR-3 and ERR-6 send, one per operation and member; and the coerced values of ERR-3.
import { documents } from '../checks/documents.ts';
import { admits, armsOf, isObject, jsonType, matches, mergeAllOf, typeOf, typesOf, type Json } from './schema.ts';
import { minimalBody, servedBody } from './served.ts';

export type WrongTyped = { at: Array<string | number>; value: unknown };

/** The wrong value for a member of one type: the first thing a mistaken client would send. */
const WRONG: Record<string, unknown> = { string: 12345, number: 'not-a-number', integer: 'not-a-number', boolean: 'yes', object: 'not-an-object', array: { not: 'an array' } };
/** When another type of the member (or SPEC.md's type) takes that value: the first of these no type takes. Never null. */
const OTHERS: unknown[] = [12345, 'not-a-number', true, { not: 'an array' }, ['not-an-object']];
/** Levels of nested schemas read (unions of unions, allOf in arms): a served document may nest without end. */
const MAX_NESTING = 16;

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
  const own = typesOf(s);
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
  return [first !== undefined ? WRONG[first] : undefined, ...OTHERS].find((v) => v !== undefined && !admits(allowed, jsonType(v)) && !admits(specAllowed, jsonType(v))
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

/**
 * SPEC.md's schema of a body whose shape it does not show but whose kind it names: perceive takes "an
 * event" (Endpoints), the Event resource of the SPEC contract. The wrong value of a member it types is
 * then of none of its types either: never a value SPEC.md allows (a served `timestamp` typed as a date
 * string is not probed with a number).
 */
const SPEC_BODY_COMPONENT: Record<string, string> = { perceive: 'Event' };
const specBodyOf = (operationId: string): Json | undefined => {
  const name = SPEC_BODY_COMPONENT[operationId];
  return name ? documents().bundled.loaded.dereferenced.components?.schemas?.[name] : undefined;
};

/**
 * The wrong-typed bodies ERR-3 (`spec`) and ERR-6 (`served`) send. `spec`: for the operations whose
 * request SPEC.md shows, every member it types, nested ones included (SPEC.md types the members of
 * definitions, events, configs, snapshots), from the SPEC contract. `served`: for the others, every
 * top-level member the deployment's own document types, an optional one (a union with null) as its
 * other type.
 */
export function wrongTypedBodies(source: 'spec' | 'served') {
  const out: Array<{ operationId: string; path: string; member: string; body: Json }> = [];
  const { bundled, served } = documents();
  for (const op of bundled.operations()) {
    if ((source === 'spec') !== (op.spec['x-shape-source'] === 'spec')) continue;
    const servedOp = served.operationAt(op.method, op.path);
    const schema = source === 'spec' ? bundled.requestSchema(op.operationId) : servedOp && served.requestSchema(servedOp.operationId);
    const found = source === 'spec' ? wrongTyped(schema, 3) : wrongTyped(schema, 0, specBodyOf(op.operationId));
    // The rest of the body is one the deployment's own document accepts (an event with its type, a
    // chat with from and to), so that the wrong member is the body's only fault: a body missing a
    // needed member is refused for that, and would hide a member that is never type-checked.
    const valid = servedBody(op.operationId);
    const base = (source === 'spec' && valid.problem ? minimalBody(op.operationId) : valid.body) as Json | undefined;
    for (const { at, value } of found) {
      // A body whose smallest form is no object (a bare string beside {text}): the member alone.
      out.push({ operationId: op.operationId, path: op.path, member: at.join('.'), body: { ...(isObject(base) ? base : {}), ...bodyAt(at, value) } });
    }
  }
  return out;
}

/**
 * The values lenient parsers coerce that ERR-3 sends, each in a member SPEC.md types (tick `seconds`
 * number, VAD members numbers, Event `timestamp` number, `rules.physics` map<string,boolean>, Trigger
 * `threshold` number): a coercion (Number("60"), null → 0, "true" → true) would accept them. `world`:
 * a valid createWorld body with a trigger; `ids`: the world and the persona the others go to.
 */
export function coercedBodies(world: Json, ids: { world: string; persona: string }): Array<{ operationId: string; member: string; id: string; body: Json }> {
  const definition = world.definition as Json;
  return [
    { operationId: 'tickWorld', member: 'seconds "60"', id: ids.world, body: { seconds: '60' } },
    { operationId: 'tickWorld', member: 'seconds null', id: ids.world, body: { seconds: null } },
    { operationId: 'tickPersona', member: 'seconds "60"', id: ids.persona, body: { seconds: '60' } },
    { operationId: 'overrideEmotion', member: 'vad.V "0.5"', id: ids.persona, body: { vad: { V: '0.5' } } },
    { operationId: 'dispatchEvent', member: 'timestamp "1700000000"', id: ids.world, body: { type: 'cf-lenient', timestamp: '1700000000' } },
    { operationId: 'createWorld', member: 'definition.rules.physics.gravity "true"', id: '', body: { ...world, definition: { ...definition, rules: { physics: { gravity: 'true' } } } } },
    {
      operationId: 'createWorld', member: 'definition.progression.triggers[0].condition.threshold "3"', id: '',
      body: { ...world, definition: { ...definition, progression: { ...definition.progression, triggers: definition.progression.triggers.map((t: Json) => ({ ...t, condition: { ...t.condition, threshold: '3' } })) } } },
    },
  ];
}
