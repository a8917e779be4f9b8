// Batch mutations (POST /worlds/{id}/mutate): operations apply in order, each on its own. One that
// fails is reported with ok false and an error, and changes nothing; the others still apply.
import { Type, type Static, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { closed, Str, Num, Opt } from '../../../contract/kit.ts';
import { mergePatch, isPlain } from './defaults.ts';
import { addEntity, removeEntity } from './create.ts';
import { entityOrFail, makeSpace, nextId, spaceOrFail } from './entities.ts';
import { ApiError } from '../../platform/errors.ts';
import type { Environment, Fact } from '../../../contract/resources.ts';
import type { WorldDoc } from './model.ts';
import { getOwn } from '../keyed.ts';

const Name = Str({ minLength: 1, maxLength: 200 });
const OPS = {
  add_entity: closed({ op: Str(), name: Name, type: Str({ minLength: 1 }), spaceId: Opt(Str()) }),
  remove_entity: closed({ op: Str(), name: Name }),
  move_entity: closed({ op: Str(), name: Name, spaceId: Str({ minLength: 1 }) }),
  add_space: closed({ op: Str(), id: Str({ minLength: 1 }), name: Opt(Str()), capacity: Opt(Num({ minimum: 0 })) }),
  set_environment: closed({ op: Str(), environment: Type.Object({}, { additionalProperties: true }) }),
  add_fact: closed({
    op: Str(),
    fact: closed({ id: Opt(Str({ minLength: 1 })), content: Str(), visibility: Opt(Str()), knownBy: Opt(Type.Array(Str())) }),
  }),
  set_relationship: closed({
    op: Str(), source: Name, target: Name,
    relationship: closed({ type: Opt(Str()), strength: Opt(Num()), trust: Opt(Num()) }),
  }),
} satisfies Record<string, TSchema>;
type Ops = { [K in keyof typeof OPS]: Static<(typeof OPS)[K]> };

type Handler<K extends keyof Ops> = (world: WorldDoc, op: Ops[K], worldId: string) => string;
const HANDLERS: { [K in keyof Ops]: Handler<K> } = {
  add_entity: (w, op, worldId) => addEntity(w, worldId, op).id,
  remove_entity: (w, op) => { const e = entityOrFail(w, op.name); removeEntity(w, e.name); return e.id; },
  move_entity: (w, op) => { const e = entityOrFail(w, op.name); spaceOrFail(w, op.spaceId); e.spaceId = op.spaceId; return op.spaceId; },
  add_space: (w, op) => {
    if (w.spaces.some((s) => s.id === op.id)) throw new Error(`space '${op.id}' already exists`);
    w.spaces.push(makeSpace(op.id, op.name ?? op.id, op.capacity));
    return op.id;
  },
  set_environment: (w, op) => {
    const merged = mergePatch(w.environment, op.environment);
    if (!isPlain(merged)) throw new Error('environment must be an object');
    w.environment = merged as Environment;
    return 'environment';
  },
  add_fact: (w, op) => {
    const facts = w.definition.knowledge.facts;
    const id = op.fact.id ?? nextId(w, 'fact');
    if (facts.some((f) => f.id === id)) throw new Error(`fact '${id}' already exists`);
    const fact: Fact = { id, content: op.fact.content, visibility: op.fact.visibility ?? w.definition.knowledge.defaultVisibility, knownBy: op.fact.knownBy ?? [] };
    facts.push(fact);
    return id;
  },
  set_relationship: (w, op) => upsertRelationship(w, op.source, op.target, op.relationship).record.id,
};

export function upsertRelationship(
  world: WorldDoc, sourceKey: string, targetKey: string,
  patch: { type?: string; strength?: number; trust?: number } = {},
) {
  const source = entityOrFail(world, sourceKey, 'source');
  const target = entityOrFail(world, targetKey, 'target');
  const at = world.relationships.findIndex((r) => r.source === source.name && r.target === target.name);
  if (at >= 0) {
    // Replaced, not modified: stored array items are shared between versions (Store.edit).
    const record = { ...world.relationships[at], relationship: { ...world.relationships[at].relationship, ...patch } };
    world.relationships[at] = record;
    return { record, created: false };
  }
  const record = {
    id: nextId(world, 'rel'), source: source.name, target: target.name,
    relationship: { type: 'stranger', strength: 0, trust: 0, ...patch },
  };
  world.relationships.push(record);
  return { record, created: true };
}

export function mutate(world: WorldDoc, worldId: string, operations: Array<{ op: string } & Record<string, unknown>>) {
  return {
    results: operations.map((operation) => {
      const name = operation.op as keyof Ops;
      const schema = getOwn<TSchema>(OPS, operation.op);
      if (!schema) return { op: operation.op, ok: false, error: `unknown op '${operation.op}'; known: ${Object.keys(OPS).join(', ')}` };
      if (!Value.Check(schema, operation as unknown)) {
        const first = [...Value.Errors(schema, operation)][0];
        return { op: operation.op, ok: false, error: `invalid ${operation.op}: ${first?.instancePath || '/'} ${first?.message ?? 'is invalid'}` };
      }
      // Work on a copy so that a failing operation leaves no partial change behind.
      const draft = structuredClone(world);
      try {
        const data = (HANDLERS[name] as Handler<typeof name>)(draft, operation as never, worldId);
        Object.assign(world, draft);
        return { op: operation.op, ok: true, data };
      } catch (err) {
        const message = err instanceof ApiError || err instanceof Error ? err.message : String(err);
        return { op: operation.op, ok: false, error: message };
      }
    }),
  };
}
