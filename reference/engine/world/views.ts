// Read-only views of a world: query, the context of one entity, world personas.
import type { Fact, WorldContext } from '../../../contract/resources.ts';
import { psyche } from '../psyche/index.ts';
import { adjacentSpaces, entityOrFail, findEntity } from './entities.ts';
import { currentNormMap } from './progression.ts';
import { fail } from './fail.ts';
import type { EntityRecord, WorldDoc } from './model.ts';
import { getOwn, hasOwn, setOwn } from '../keyed.ts';

const CONTEXT_EVENTS = 20;

export function query(world: WorldDoc, filter: { spaceId?: string; entityType?: string }) {
  const entities = world.entities.filter((e) => (filter.spaceId === undefined || e.spaceId === filter.spaceId)
    && (filter.entityType === undefined || e.type === filter.entityType));
  type Rel = { type: string; strength: number; trust: number };
  const relationships: Record<string, Record<string, Rel>> = {};
  for (const r of world.relationships) {
    let bySource = getOwn(relationships, r.source);
    if (!bySource) setOwn(relationships, r.source, bySource = {});
    setOwn(bySource, r.target, r.relationship);
  }
  return {
    entities,
    spaces: world.spaces,
    knowledge: world.definition.knowledge,
    progression: world.progression,
    relationships,
    environment: world.environment,
  };
}

/** A fact is known by an entity when it is public or when its knownBy names the entity (name or id). */
export function knows(fact: Fact, entity: EntityRecord): boolean {
  return fact.visibility === 'public' || fact.knownBy.includes(entity.name) || fact.knownBy.includes(entity.id);
}

export function context(world: WorldDoc, entityName: string): WorldContext {
  const me = entityOrFail(world, entityName);
  const here = world.spaces.find((s) => s.id === me.spaceId)!;
  const involved = world.recentEvents.filter((e) => e.spaceId === me.spaceId || e.sourceEntity === me.name
    || e.targetEntity === me.name || (e.spaceId === undefined && e.targetEntity === undefined));
  const runtime = getOwn(world.personas, me.name);
  const config = runtime ? getOwn(world.personaConfigs, me.name) : undefined;
  return {
    // A persona is who its configuration says (its role there), not only an entity of type persona.
    whoAmI: config ? { ...me, profile: { ...me.profile, role: config.identity.role } } : me,
    whereAmI: here,
    whoIsHere: world.entities.filter((e) => e.spaceId === me.spaceId && e.name !== me.name),
    whatHappened: involved.slice(-CONTEXT_EVENTS),
    adjacentSpaces: adjacentSpaces(world, me.spaceId),
    worldIdentity: world.definition.identity,
    worldCulture: { ...world.definition.culture, normMap: currentNormMap(world) },
    knownFacts: world.definition.knowledge.facts.filter((f) => knows(f, me)),
    currentPhase: world.progression.currentPhase,
    ...(runtime ? { personaState: psyche.contextState(runtime.snapshot) } : {}),
    // For an LLM speaking as the persona: identity, style, goals, whom it talks with, memories and
    // the recent conversation, and the system prompt (WorldContext is open; SPEC.md lists the rest).
    ...(runtime && config ? { persona: psyche.brief(runtime.snapshot, config) } : {}),
  };
}

export function worldPersona(world: WorldDoc, name: string) {
  const entity = findEntity(world, name);
  if (!entity || !hasOwn(world.personas, entity.name)) throw fail('PERSONA_NOT_FOUND', `persona '${name}' does not exist in this world`);
  return { name: entity.name, entityId: entity.id, spaceId: entity.spaceId, config: getOwn(world.personaConfigs, entity.name)! };
}

export function worldPersonas(world: WorldDoc) {
  return world.entities.filter((e) => hasOwn(world.personas, e.name)).map((e) => worldPersona(world, e.name));
}
