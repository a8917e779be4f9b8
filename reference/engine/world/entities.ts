// Entities and spaces of a world: lookup by name (the key SPEC.md uses in chat, context and maps)
// or by id, placement, and the spaces a topology implies.
import type { Space, WorldDefinition } from '../../../contract/resources.ts';
import { DEFAULT_SPACE_CAPACITY, DEFAULT_SPACE_ID } from './defaults.ts';
import { fail } from './fail.ts';
import type { EntityRecord, WorldDoc } from './model.ts';
import { hasOwn } from '../keyed.ts';

export function findEntity(world: WorldDoc, key: string): EntityRecord | undefined {
  return world.entities.find((e) => e.name === key) ?? world.entities.find((e) => e.id === key);
}

export function entityOrFail(world: WorldDoc, key: string, role = 'entity'): EntityRecord {
  const entity = findEntity(world, key);
  if (!entity) throw fail('ENTITY_NOT_FOUND', `${role} '${key}' does not exist in this world`);
  return entity;
}

/** A persona entity, or ENTITY_NOT_FOUND / VALIDATION_ERROR when the name is not a persona. */
export function personaEntityOrFail(world: WorldDoc, key: string, role = 'entity'): EntityRecord {
  const entity = entityOrFail(world, key, role);
  if (!hasOwn(world.personas, entity.name)) throw fail('VALIDATION_ERROR', `${role} '${key}' is a ${entity.type}, not a persona`);
  return entity;
}

export function spaceOrFail(world: WorldDoc, id: string): Space {
  const space = world.spaces.find((s) => s.id === id);
  if (!space) throw fail('VALIDATION_ERROR', `space '${id}' does not exist in this world`);
  return space;
}

export function makeSpace(id: string, name = id, capacity = DEFAULT_SPACE_CAPACITY): Space {
  return { id, name, type: 'physical', capacity };
}

/** Spaces named by the topology, in order of appearance; a default space when there is none. */
export function spacesOf(definition: WorldDefinition): Space[] {
  const ids: string[] = [];
  for (const c of definition.topology.connections) for (const id of [c.from, c.to]) if (!ids.includes(id)) ids.push(id);
  return (ids.length ? ids : [DEFAULT_SPACE_ID]).map((id) => makeSpace(id));
}

/** Spaces reachable in one step: connections from here, and bidirectional ones to here. */
export function adjacentSpaces(world: WorldDoc, spaceId: string): string[] {
  const out: string[] = [];
  for (const c of world.definition.topology.connections) {
    if (c.from === spaceId && !out.includes(c.to)) out.push(c.to);
    if (c.bidirectional && c.to === spaceId && !out.includes(c.from)) out.push(c.from);
  }
  return out;
}

export function nextId(world: WorldDoc, prefix: string): string {
  world.counter += 1;
  return `${prefix}-${world.counter}`;
}

export function profileFor(name: string, type: string) {
  return { displayName: name, role: type, description: '', personalityHints: '' };
}

/** Other persona entities in the same space as `entity`. */
export function bystanders(world: WorldDoc, entity: EntityRecord, except: string[] = []): EntityRecord[] {
  return world.entities.filter((e) => e.spaceId === entity.spaceId && e.name !== entity.name
    && !except.includes(e.name) && hasOwn(world.personas, e.name));
}
