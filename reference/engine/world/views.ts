// Read-only views of a world: query, the context of one entity, world personas.
import type { Fact, WorldContext } from '../../../contract/resources.ts';
import { psyche, type BriefWorld } from '../psyche/index.ts';
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

/** An entity as others see it: a persona by its configured role (its profile says only "persona"). */
function asSeen(world: WorldDoc, e: EntityRecord): EntityRecord {
  const config = getOwn(world.personaConfigs, e.name);
  return config ? { ...e, profile: { ...e.profile, role: config.identity.role } } : e;
}

/**
 * What the persona's brief needs from the world: its identity, the facts the persona knows, and who
 * the others are (a persona's configured role, a user's profile role when it says more than its
 * type; the world's relationships between them and the persona, as ties).
 */
function briefWorld(world: WorldDoc, me: EntityRecord, facts: Fact[]): BriefWorld {
  const people: NonNullable<BriefWorld['people']> = {};
  for (const e of world.entities) {
    if (e.name === me.name) continue;
    const config = getOwn(world.personaConfigs, e.name);
    const role = config ? config.identity.role : e.profile?.role;
    const ties = [...new Set(world.relationships
      .filter((r) => (r.source === me.name && r.target === e.name) || (r.source === e.name && r.target === me.name))
      .map((r) => r.relationship?.type).filter((t): t is string => typeof t === 'string' && t !== ''))];
    const said = role && role !== e.type && role !== 'character' ? role : undefined;
    if (said || ties.length) people[e.name] = { ...(said ? { role: said } : {}), ...(ties.length ? { ties } : {}) };
  }
  const id = world.definition.identity;
  return {
    name: typeof id?.name === 'string' ? id.name : undefined,
    description: typeof id?.description === 'string' && id.description ? id.description : undefined,
    facts: facts.map((f) => f.content).filter((c) => typeof c === 'string' && c !== ''),
    people,
  };
}

export function context(world: WorldDoc, entityName: string): WorldContext {
  const me = entityOrFail(world, entityName);
  const here = world.spaces.find((s) => s.id === me.spaceId)!;
  const involved = world.recentEvents.filter((e) => e.spaceId === me.spaceId || e.sourceEntity === me.name
    || e.targetEntity === me.name || (e.spaceId === undefined && e.targetEntity === undefined));
  const runtime = getOwn(world.personas, me.name);
  const config = runtime ? getOwn(world.personaConfigs, me.name) : undefined;
  const knownFacts = world.definition.knowledge.facts.filter((f) => knows(f, me));
  return {
    // A persona is who its configuration says (its role there), not only an entity of type persona.
    whoAmI: asSeen(world, me),
    whereAmI: here,
    whoIsHere: world.entities.filter((e) => e.spaceId === me.spaceId && e.name !== me.name).map((e) => asSeen(world, e)),
    whatHappened: involved.slice(-CONTEXT_EVENTS),
    adjacentSpaces: adjacentSpaces(world, me.spaceId),
    worldIdentity: world.definition.identity,
    worldCulture: { ...world.definition.culture, normMap: currentNormMap(world) },
    knownFacts,
    currentPhase: world.progression.currentPhase,
    ...(runtime ? { personaState: psyche.contextState(runtime.snapshot) } : {}),
    // For an LLM speaking as the persona: identity, style, goals, whom it talks with, memories and
    // the recent conversation, and the system prompt (WorldContext is open; SPEC.md lists the rest).
    ...(runtime && config ? { persona: psyche.brief(runtime.snapshot, config, briefWorld(world, me, knownFacts)) } : {}),
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
