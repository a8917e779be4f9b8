// A new world from the create body, and persona entities added later.
import type { PersonaConfig, WorldDefinition } from '../../../contract/resources.ts';
import type { DeepPartial } from '../../../contract/input.ts';
import { psyche } from '../psyche/index.ts';
import { defaultEnvironment, defaultInteraction, normalizeDefinition } from './defaults.ts';
import { findEntity, nextId, profileFor, spaceOrFail, spacesOf } from './entities.ts';
import { fail } from './fail.ts';
import { newRuntime } from './respond.ts';
import { initialProgression } from './progression.ts';
import type { WorldDoc } from './model.ts';
import { deleteOwn, getOwn, hasOwn, setOwn } from '../keyed.ts';

export interface CreateWorldInput {
  definition: DeepPartial<WorldDefinition>;
  entities?: Array<{ name: string; type: string }>;
  personaConfigs?: Record<string, DeepPartial<PersonaConfig>>;
}

export function newWorld(input: CreateWorldInput, worldId: string, now: number): WorldDoc {
  const definition = normalizeDefinition(input.definition);
  const world: WorldDoc = {
    createdAt: now, engineVersion: psyche.version, definition, entities: [], spaces: spacesOf(definition),
    environment: defaultEnvironment(), interaction: defaultInteraction(), personaConfigs: {}, personas: {},
    relationships: [], customActions: [], progression: initialProgression(definition, now), recentEvents: [],
    pendingEvents: [], counter: 0,
  };
  const configs = input.personaConfigs ?? {};
  for (const e of input.entities ?? []) {
    addEntity(world, worldId, { name: e.name, type: e.type, config: getOwn(configs, e.name) });
  }
  for (const name of Object.keys(configs)) {
    if (!hasOwn(world.personas, name)) throw fail('VALIDATION_ERROR', `personaConfigs/${name} names no entity of type persona`);
  }
  return world;
}

/** Adds an entity; an entity of type persona gets a configuration and a persona runtime. */
export function addEntity(
  world: WorldDoc, worldId: string,
  e: { name: string; type: string; spaceId?: string; config?: DeepPartial<PersonaConfig> },
) {
  if (findEntity(world, e.name)) throw fail('ENTITY_EXISTS', `an entity named '${e.name}' already exists in this world`);
  const spaceId = e.spaceId ?? world.spaces[0].id;
  spaceOrFail(world, spaceId);
  const entity = { id: nextId(world, 'ent'), name: e.name, type: e.type, profile: profileFor(e.name, e.type), spaceId };
  world.entities.push(entity);
  if (e.type === 'persona') {
    const config = psyche.normalizeConfig(e.config, e.name);
    setOwn(world.personaConfigs, e.name, config);
    setOwn(world.personas, e.name, newRuntime(config, `${worldId}/${entity.id}`, world.createdAt));
  } else if (e.config) {
    throw fail('VALIDATION_ERROR', `entity '${e.name}' is a ${e.type}; only personas take a configuration`);
  }
  return entity;
}

/** Removes an entity and everything that refers to it (its persona, its relationships). */
export function removeEntity(world: WorldDoc, name: string): void {
  world.entities = world.entities.filter((e) => e.name !== name);
  deleteOwn(world.personas, name);
  deleteOwn(world.personaConfigs, name);
  world.relationships = world.relationships.filter((r) => r.source !== name && r.target !== name);
}
