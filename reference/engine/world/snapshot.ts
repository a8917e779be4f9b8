// World and persona snapshots. Export gives everything the world holds; import of an exported
// snapshot gives back the same world, so export → import → export is equal. An import is checked
// for consistency (ids, spaces, relationship targets) before anything is replaced.
import type { PersonaConfig, PersonaSnapshot, WorldSnapshot } from '../../../contract/resources.ts';
import type { DeepPartial } from '../../../contract/input.ts';
import { psyche } from '../psyche/index.ts';
import { defaultEnvironment, mergePatch, isPlain, normalizeDefinition } from './defaults.ts';
import { checkImportedPersona, checkImportedWorld, checkWorldSnapshotExtras } from './import-check.ts';
import { fail } from './fail.ts';
import { MAX_ELAPSED_SECONDS, timestampOrFail } from './limits.ts';
import { newRuntime } from './respond.ts';
import { initialProgression } from './progression.ts';
import type { ActionRecord, PersonaDoc, WorldDoc } from './model.ts';
import type { Event } from '../../../contract/resources.ts';
import { getOwn, hasOwn, setOwn } from '../keyed.ts';

export function exportWorld(world: WorldDoc, worldId: string): WorldSnapshot & Record<string, unknown> {
  const idOf = (name: string) => world.entities.find((e) => e.name === name)?.id ?? name;
  return {
    id: worldId,
    definition: world.definition,
    entities: world.entities.map((e) => ({
      id: e.id, type: e.type, name: e.name, spaceId: e.spaceId, profile: e.profile,
      ...(hasOwn(world.personas, e.name) ? { personaSnapshot: getOwn(world.personas, e.name)!.snapshot } : {}),
      relationships: world.relationships.filter((r) => r.source === e.name)
        .map((r) => ({ targetId: idOf(r.target), relationship: r.relationship })),
    })),
    spaces: world.spaces,
    environment: world.environment,
    createdAt: world.createdAt,
    knowledge: world.definition.knowledge,
    progression: world.progression,
    recentEvents: world.recentEvents,
    interaction: world.interaction,
    // Members beyond SPEC.md's list (the snapshot is open) so that nothing is lost on import.
    personaConfigs: world.personaConfigs,
    customActions: world.customActions,
    pendingEvents: world.pendingEvents,
    // The id counter and the relationship ids, so that ids given after an import are those the
    // exported world would have given (they seed new personas).
    counter: world.counter,
    relationshipIds: Object.fromEntries(world.relationships.map((r) => [`${idOf(r.source)}>${idOf(r.target)}`, r.id])),
  };
}

type SnapshotInput = DeepPartial<WorldSnapshot> & Record<string, unknown>;

export function importWorld(world: WorldDoc, worldId: string, snap: SnapshotInput): WorldDoc {
  checkWorldSnapshotExtras(snap);
  const entities = snap.entities ?? [];
  const spaces = (snap.spaces ?? []).map((s) => ({ id: s!.id!, name: s!.name!, type: s!.type ?? 'physical', capacity: s!.capacity ?? 100 }));
  const spaceIds = new Set(spaces.map((s) => s.id));
  const ids = new Set<string>();
  const names = new Set<string>();
  for (const [n, e] of entities.entries()) {
    if (ids.has(e!.id!)) throw fail('VALIDATION_ERROR', `snapshot/entities/${n}: duplicate id '${e!.id}'`);
    if (names.has(e!.name!)) throw fail('VALIDATION_ERROR', `snapshot/entities/${n}: duplicate name '${e!.name}'`);
    if (!spaceIds.has(e!.spaceId!)) throw fail('VALIDATION_ERROR', `snapshot/entities/${n}: spaceId '${e!.spaceId}' is not in snapshot/spaces`);
    ids.add(e!.id!);
    names.add(e!.name!);
  }
  const nameOf = new Map(entities.map((e) => [e!.id!, e!.name!]));
  for (const [n, e] of entities.entries()) {
    for (const [k, r] of (e!.relationships ?? []).entries()) {
      if (!nameOf.has(r!.targetId!)) throw fail('VALIDATION_ERROR', `snapshot/entities/${n}/relationships/${k}: targetId '${r!.targetId}' is not an entity of the snapshot`);
    }
  }

  const elapsed = snap.progression?.elapsedTime;
  if (elapsed !== undefined && !(elapsed >= 0 && elapsed <= MAX_ELAPSED_SECONDS)) {
    throw fail('VALIDATION_ERROR', `snapshot/progression/elapsedTime must be within [0, ${MAX_ELAPSED_SECONDS}]`);
  }
  timestampOrFail(snap.createdAt, 'snapshot/createdAt');

  // The snapshot's definition replaces the world's (filled with defaults), it is not merged into it.
  const definition = snap.definition ? normalizeDefinition(snap.definition) : structuredClone(world.definition);
  if (snap.knowledge) definition.knowledge = mergeFull(definition.knowledge, snap.knowledge);
  const extra = snap as {
    personaConfigs?: Record<string, PersonaConfig>; customActions?: ActionRecord[]; pendingEvents?: Event[];
    counter?: number; relationshipIds?: Record<string, string>;
  };
  const next: WorldDoc = {
    ...world,
    createdAt: snap.createdAt ?? world.createdAt,
    definition,
    spaces,
    environment: isPlain(snap.environment) ? mergeFull(defaultEnvironment(), snap.environment) : world.environment,
    interaction: snap.interaction ? { ...world.interaction, ...snap.interaction } as WorldDoc['interaction'] : world.interaction,
    entities: [], personas: {}, personaConfigs: {}, relationships: [],
    progression: snap.progression ? mergeFull(initialProgression(definition, snap.createdAt ?? world.createdAt), snap.progression) : initialProgression(definition, snap.createdAt ?? world.createdAt),
    recentEvents: (snap.recentEvents ?? []) as Event[],
    customActions: extra.customActions ?? world.customActions,
    pendingEvents: extra.pendingEvents ?? [],
    // The exported counter when the snapshot has one; else past every id it holds.
    counter: Number.isSafeInteger(extra.counter) ? extra.counter!
      : highestSuffix([...ids, ...definition.knowledge.facts.map((f) => f.id), ...(extra.customActions ?? []).map((a) => a.id)]),
  };
  for (const e of entities) {
    // Same member order as addEntity, so that responses are byte-identical after a round trip.
    const entity = {
      id: e!.id!, name: e!.name!, type: e!.type!,
      profile: { displayName: e!.name!, role: e!.type!, description: '', personalityHints: '', ...(e!.profile ?? {}) },
      spaceId: e!.spaceId!,
    };
    next.entities.push(entity);
    if (entity.type === 'persona') {
      const config = psyche.normalizeConfig(getOwn(extra.personaConfigs, entity.name) ?? getOwn(world.personaConfigs, entity.name), entity.name);
      setOwn(next.personaConfigs, entity.name, config);
      const runtime = newRuntime(config, `${worldId}/${entity.id}`, next.createdAt);
      if (e!.personaSnapshot) runtime.snapshot = mergeFull(runtime.snapshot, e!.personaSnapshot);
      setOwn(next.personas, entity.name, runtime);
    }
  }
  for (const e of entities) {
    for (const r of e!.relationships ?? []) {
      const known = getOwn(extra.relationshipIds, `${e!.id}>${r!.targetId}`);
      if (!known) next.counter += 1;
      next.relationships.push({
        id: known ?? `rel-${next.counter}`, source: e!.name!, target: nameOf.get(r!.targetId!)!,
        relationship: { type: 'stranger', strength: 0, trust: 0, ...(r!.relationship ?? {}) },
      });
    }
  }
  // The exported world's order of relationships (its relationshipIds, in creation order), not the
  // order of the entities that hold them: an export of the import is then the export imported.
  if (extra.relationshipIds) {
    const rank = new Map(Object.values(extra.relationshipIds).map((id, i) => [id, i]));
    const at = (id: string) => rank.get(id) ?? Number.MAX_SAFE_INTEGER;
    next.relationships = next.relationships.map((r, i) => ({ r, i })).sort((a, b) => (at(a.r.id) - at(b.r.id)) || (a.i - b.i)).map((x) => x.r);
  }
  // Checked as it would be exported, so that what an import leaves is what the contract promises.
  checkImportedWorld(exportWorld(next, worldId));
  return next;
}

/** Generated ids end in -N: new ids must start past every imported one. */
function highestSuffix(ids: Iterable<string>): number {
  let max = 0;
  for (const id of ids) max = Math.max(max, Number(/-(\d+)$/.exec(id)?.[1] ?? 0));
  return max;
}

/** A full value with a partial one merged over it (objects merge, arrays and scalars replace). */
export function mergeFull<T>(full: T, partial: unknown): T {
  return mergePatch(structuredClone(full), partial) as T;
}

export function exportPersona(persona: PersonaDoc): PersonaSnapshot {
  return persona.runtime.snapshot;
}

/** Import replaces the snapshot: members not given take the values of a new persona, as for worlds. */
export function importPersona(persona: PersonaDoc, personaId: string, snap: DeepPartial<PersonaSnapshot>): void {
  const snapshot = mergeFull(psyche.create(persona.config, personaId, persona.clock), snap);
  checkImportedPersona(snapshot);
  persona.runtime.snapshot = snapshot;
}
