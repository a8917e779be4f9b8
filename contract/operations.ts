// Every operation of SPEC.md, once: method, path, operationId, request and `result` schemas, the
// success status and the error codes it can answer. The reference registers its routes from this
// table and the OpenAPI document is generated from it; checks, reports and load tags use operationId.
// `shape` says whether SPEC.md documents the shapes ('spec') or the reference defined them for a gap
// ('reference'; see docs/interface-choices.md).
import { Type, type TSchema, type TObject } from 'typebox';
import { closed, open, map, ref, Str, Num, Bool, Opt, Arr } from './kit.ts';
import { inputRef, requireAt } from './input.ts';
import type { ErrorCode } from './errors.ts';
import * as R from './resources.ts';

// ---- Shared request pieces ----
const Id = Str({ minLength: 1, maxLength: 200 });
/** A path parameter: an id with an example, so that tools can call the operation from the document alone. */
const IdParam = (example: string, description: string) => Str({ minLength: 1, maxLength: 200, description, examples: [example] });
const WorldId = IdParam('wld_4b1ebdfd24e238daad40', 'The world id (worldId of createWorld).');
const PersonaId = IdParam('per_0f2c9a7e51b3d8a46c10', 'The persona id (personaId of createPersona).');
const WorldPersonaKey = IdParam('mara', 'A persona entity of the world, by name or entity id.');
const ActionId = IdParam('act-4', 'A custom action id (action.id of createAction).');
const RelationshipId = IdParam('rel-2', 'A relationship id (relationship.id of upsertRelationship).');
const WorldParams = closed({ id: WorldId });
const PersonaParams = closed({ id: PersonaId });
/** SPEC.md types `limit` as a string (a query value); default 20, maximum 100 (larger values are clamped). */
const Limit = Str({ pattern: '^[1-9][0-9]{0,5}$', description: 'Page size, default 20, maximum 100 (larger values are clamped).' });
const Cursor = Str({ minLength: 1, maxLength: 500, description: 'Opaque cursor from a previous page (nextCursor).' });
const PageQuery = closed({ limit: Opt(Limit), cursor: Opt(Cursor) });
const Seconds = Num({ exclusiveMinimum: 0, maximum: 31_536_000, description: 'Simulated seconds to advance (at most one year).' });
const Text = Str({ minLength: 1, maxLength: 10_000 });
const EntityName = Str({ minLength: 1, maxLength: 200 });

// ---- Shared result pieces (named, reused) ----
export const Ok = closed({ ok: Type.Literal(true) }, { $id: 'Ok' });
export const AdvanceResult = open(
  {
    affected: Arr(ref(R.AffectedItem)), events: Arr(ref(R.Event)),
    phaseChanged: Opt(Str({ description: 'The phase entered, only when a progression trigger fired.' })),
    elapsedTime: Num({ description: 'Simulated seconds elapsed in the world after the advance.' }),
  },
  { $id: 'AdvanceResult' },
);
export const WorldPersona = closed(
  { name: Str(), entityId: Str(), spaceId: Str(), config: ref(R.PersonaConfig) },
  { $id: 'WorldPersona', description: 'A persona entity of a world with its configuration.' },
);
/**
 * The vectors of a stimulus, when given, carry every member (SPEC.md's VAD is V, A and D; needsDelta is
 * a NeedState): an answered Event shows the stimulus as sent, so a partial vector would be a partial
 * VAD in the answer (issue 32). The emotion override, which SPEC.md lets be partial, is another body.
 */
export const COMPLETE_STIMULUS: Record<string, string[]> = {
  'stimulus/vadOverride': ['V', 'A', 'D'], 'stimulus/vadDelta': ['V', 'A', 'D'],
  'stimulus/needsDelta': ['autonomy', 'competence', 'relatedness'],
};
/** An event as a request body: `type` and complete stimulus vectors required, the rest optional. */
export const eventBody = () => requireAt(inputRef(R.Event), { '': ['type'], ...COMPLETE_STIMULUS });

export const Action = closed(
  {
    id: Str(), name: Str(), description: Str(), custom: Bool(),
    // As the action was created: a stimulus gives only the members it applies.
    appraisal: ref(R.Appraisal), stimulus: inputRef(R.Stimulus),
  },
  { $id: 'Action', description: 'An action that an entity can perform on a persona (interact).' },
);
export const RelationshipRecord = closed(
  { id: Str(), source: Str(), target: Str(), relationship: ref(R.WorldRelationship) },
  { $id: 'RelationshipRecord', description: 'A world-level relationship from a source entity to a target persona.' },
);
export const Persona = closed(
  { id: Str(), tenantId: Str(), config: ref(R.PersonaConfig), engineVersion: Str(), createdAt: Num() },
  { $id: 'Persona', description: 'A standalone persona.' },
);
export const MutationOperation = open(
  { op: Str({ minLength: 1 }) },
  {
    $id: 'MutationOperation',
    description: 'One operation of a batch. Known ops: add_entity {name, type, spaceId?}, remove_entity {name}, '
      + 'move_entity {name, spaceId}, add_space {id, name?, capacity?}, set_environment {environment}, '
      + 'add_fact {fact}, set_relationship {source, target, relationship}. An op that fails is reported in its own result.',
  },
);
export const MutationResult = closed(
  { op: Str(), ok: Bool(), data: Opt(Str()), error: Opt(Str()) },
  { $id: 'MutationResult' },
);

export const SHARED_COMPONENTS = [Ok, AdvanceResult, WorldPersona, Action, RelationshipRecord, Persona, MutationOperation, MutationResult] as const;

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export interface Operation {
  operationId: string;
  method: Method;
  path: string;
  tag: 'worlds' | 'world-simulation' | 'world-personas' | 'world-actions' | 'world-relationships' | 'personas' | 'persona-runtime' | 'meta';
  summary: string;
  /** What the operation does, in a few sentences (the document's description of it). */
  description: string;
  /** A valid request body, shown in the document (tools such as Dredd send it). */
  example?: unknown;
  /** OpenAPI links from the success response to the operations that read or use what it made. */
  links?: Record<string, { operationId: string; parameters: Record<string, string> }>;
  shape: 'spec' | 'reference';
  params?: TObject;
  query?: TObject;
  body?: TSchema;
  /** The `result` member of the success envelope. */
  result: TSchema;
  status: 200 | 201;
  /** Codes this operation answers besides those every authenticated operation can (401, 403, 429, 400). */
  errors: ErrorCode[];
  /** Calling it is billed on a live key: the suite only calls it with --allow-billable. */
  billable?: boolean;
  /** No API key needed. */
  public?: boolean;
  /** Answered without the `result` envelope (the OpenAPI document is served raw, for tools). */
  raw?: boolean;
}

const W: ErrorCode[] = ['WORLD_NOT_FOUND'];
const P: ErrorCode[] = ['PERSONA_NOT_FOUND'];
type Def = Omit<Operation, 'status' | 'errors' | 'shape'> & Partial<Pick<Operation, 'status' | 'errors' | 'shape'>>;
const op = (d: Def): Operation => ({ status: 200, errors: [], shape: 'reference', ...d });

export const OPERATIONS: Operation[] = [
  // ---- Worlds: documented shapes ----
  op({
    operationId: 'createWorld', method: 'POST', path: '/worlds', tag: 'worlds', shape: 'spec', status: 201,
    errors: ['ENTITY_EXISTS'], summary: 'Create a world',
    description: 'Creates a world from its definition, with its entities and the configurations of its personas. Members the definition leaves out take the defaults listed in docs/interface-choices.md.',
    links: { GetWorld: { operationId: 'getWorld', parameters: { id: '$response.body#/result/worldId' } }, ChatInWorld: { operationId: 'chat', parameters: { id: '$response.body#/result/worldId' } }, TickWorld: { operationId: 'tickWorld', parameters: { id: '$response.body#/result/worldId' } }, GetWorldSnapshot: { operationId: 'getWorldSnapshot', parameters: { id: '$response.body#/result/worldId' } }, DeleteWorld: { operationId: 'deleteWorld', parameters: { id: '$response.body#/result/worldId' } } },
    example: {"definition": {"identity": {"name": "Harbor"}, "topology": {"connections": [{"from": "dock", "to": "tavern", "distance": 50, "traversalTime": 60, "accessibility": "open", "bidirectional": true}]}}, "entities": [{"name": "mara", "type": "persona"}, {"name": "visitor", "type": "user"}], "personaConfigs": {"mara": {"identity": {"name": "Mara", "role": "fisher"}}}},
    body: closed({
      definition: requireAt(inputRef(R.WorldDefinition), { '': ['identity'], identity: ['name'] }),
      entities: Opt(Arr(closed({ name: EntityName, type: Str({ minLength: 1 }) }), { maxItems: 10_000 })),
      personaConfigs: Opt(map(inputRef(R.PersonaConfig))),
    }),
    result: closed({ worldId: Str(), createdAt: Num() }),
  }),
  op({
    operationId: 'listWorlds', method: 'GET', path: '/worlds', tag: 'worlds', shape: 'spec', query: PageQuery,
    summary: 'List worlds of the tenant (cursor pagination, stable order)',
    description: 'The tenant\'s live worlds, oldest first. Pass nextCursor back as cursor for the next page; soft-deleted worlds are not listed.',
    result: closed({ worlds: Arr(ref(R.World)), nextCursor: Opt(Str({ description: 'Present only when another page exists.' })) }),
  }),
  op({
    operationId: 'getWorld', method: 'GET', path: '/worlds/{id}', tag: 'worlds', shape: 'spec', params: WorldParams, errors: W,
    summary: 'Get a world and its persona configurations',
    description: 'A world with its entities, spaces, environment and progression, and the configuration of each of its personas.',
    result: closed({ world: ref(R.World), personaConfigs: map(ref(R.PersonaConfig)) }),
  }),
  op({
    operationId: 'tickWorld', method: 'POST', path: '/worlds/{id}/tick', tag: 'world-simulation', shape: 'spec', params: WorldParams, errors: W,
    summary: 'Advance simulated time of a world',
    description: 'Advances simulated time by seconds × time.ratio: emotions decay toward the mood, moods toward their home, and events stamped in the future are delivered when their time comes.',
    example: {"seconds": 3600},
    body: closed({ seconds: Seconds }), result: ref(AdvanceResult),
  }),
  op({
    operationId: 'chat', method: 'POST', path: '/worlds/{id}/chat', tag: 'world-simulation', shape: 'spec', params: WorldParams,
    errors: ['WORLD_NOT_FOUND', 'ENTITY_NOT_FOUND'], summary: 'Send a chat message from one entity to another',
    description: 'A message from one entity to a persona of the world. The recipient appraises it and answers; bystanders may overhear it or catch the emotion, as the interaction settings say.',
    example: {"from": "visitor", "to": "mara", "message": "Good morning! The harbor looks lovely today."},
    body: closed({ from: EntityName, to: EntityName, message: Text }),
    result: open({
      entityName: Str(), response: ref(R.EntityResponse), affected: Arr(ref(R.AffectedItem)), groupAwareness: Arr(ref(R.AffectedItem)),
    }),
  }),
  op({
    operationId: 'dispatchEvent', method: 'POST', path: '/worlds/{id}/events', tag: 'world-simulation', shape: 'spec', params: WorldParams,
    errors: ['WORLD_NOT_FOUND', 'ENTITY_NOT_FOUND'], summary: 'Dispatch an event to world entities',
    description: 'Delivers an event to its target persona, to the personas of its space, or to every persona. An event stamped in the future waits for a tick or time-jump; counting it may fire a progression trigger.',
    example: {"type": "thunder", "spaceId": "dock", "sourceEntity": "visitor"},
    body: eventBody(),
    result: open({ type: Str(), affected: Arr(ref(R.AffectedItem)), events: Arr(ref(R.Event)) }),
  }),
  op({
    operationId: 'queryWorld', method: 'POST', path: '/worlds/{id}/query', tag: 'world-simulation', shape: 'spec', params: WorldParams, errors: W,
    summary: 'Query world state (optionally filtered)',
    description: 'The world\'s entities (optionally only one space or one type), spaces, knowledge, progression and relationships.',
    example: {"spaceId": "dock"},
    body: closed({
      spaceId: Opt(Str({ description: 'Only entities in this space.' })),
      entityType: Opt(Str({ description: 'Only entities of this type.' })),
    }),
    result: open({
      entities: Arr(ref(R.Entity)), spaces: Arr(ref(R.Space)),
      knowledge: closed({ facts: Arr(ref(R.Fact)), defaultVisibility: Str() }),
      progression: ref(R.ProgressionState), relationships: map(map(ref(R.WorldRelationship))),
    }),
  }),
  op({
    operationId: 'worldContext', method: 'POST', path: '/worlds/{id}/context', tag: 'world-simulation', shape: 'spec', params: WorldParams,
    errors: ['WORLD_NOT_FOUND', 'ENTITY_NOT_FOUND'], summary: 'The context an LLM needs for one entity',
    description: 'What a language model needs to speak as one entity: who and where it is, who is there, what happened, the culture, the facts it knows and, for a persona, how it feels.',
    example: {"entityName": "mara"},
    body: closed({ entityName: EntityName }), result: ref(R.WorldContext),
  }),
  op({
    operationId: 'mutateWorld', method: 'POST', path: '/worlds/{id}/mutate', tag: 'world-simulation', shape: 'spec', params: WorldParams, errors: W,
    summary: 'Apply batch mutations; one result per operation',
    description: 'Applies a batch of mutations in order. Each has its own result; one that fails changes nothing and the others still apply.',
    example: {"operations": [{"op": "add_space", "id": "market", "name": "Market"}, {"op": "move_entity", "name": "visitor", "spaceId": "market"}]},
    body: closed({ operations: Arr(ref(MutationOperation), { minItems: 1, maxItems: 100 }) }),
    result: closed({ results: Arr(ref(MutationResult)) }),
  }),
  op({
    operationId: 'getWorldSnapshot', method: 'GET', path: '/worlds/{id}/snapshot', tag: 'world-simulation', shape: 'spec', params: WorldParams, errors: W,
    summary: 'Export a world snapshot',
    description: 'Everything the world holds, in a form that PUT /worlds/{id}/snapshot takes back: export then import gives the same world.', result: ref(R.WorldSnapshot),
  }),
  op({
    operationId: 'putWorldSnapshot', method: 'PUT', path: '/worlds/{id}/snapshot', tag: 'world-simulation', shape: 'spec', params: WorldParams, errors: W,
    summary: 'Import a world snapshot (replaces the world state)',
    description: 'Replaces the world\'s state with a snapshot. The snapshot is checked against the full schemas before anything is replaced; members left out take defaults.',
    example: {"snapshot": {"id": "wld_4b1ebdfd24e238daad40", "createdAt": 1795435107485, "environment": {"weather": "fog"}, "spaces": [{"id": "dock", "name": "Dock"}], "entities": [{"id": "ent-1", "type": "persona", "name": "mara", "spaceId": "dock", "relationships": []}]}},
    body: closed({
      snapshot: requireAt(inputRef(R.WorldSnapshot), {
        '': ['id', 'entities', 'spaces', 'environment', 'createdAt'],
        'entities/[]': ['id', 'type', 'name', 'spaceId', 'relationships'],
        'spaces/[]': ['id', 'name'],
      }),
    }),
    result: ref(Ok),
  }),

  // ---- Worlds: known by method and path only ----
  op({
    operationId: 'updateWorld', method: 'PATCH', path: '/worlds/{id}', tag: 'worlds', params: WorldParams, errors: W,
    summary: 'Update world configuration (JSON merge of the definition, environment, interaction settings)',
    description: 'JSON merge (RFC 7396) of the definition, the environment and the interaction settings: objects merge, arrays replace, null removes a member of an open object.',
    example: {"definition": {"identity": {"description": "A harbor before the storm"}}, "environment": {"weather": "rain"}},
    body: closed({
      definition: Opt(inputRef(R.WorldDefinition)), environment: Opt(inputRef(R.Environment)),
      interaction: Opt(inputRef(R.InteractionSettings)),
    }),
    result: closed({ world: ref(R.World) }),
  }),
  op({
    operationId: 'deleteWorld', method: 'DELETE', path: '/worlds/{id}', tag: 'worlds', params: WorldParams, errors: W,
    summary: 'Soft-delete a world (kept in the store, no longer listed or readable)',
    description: 'Soft-deletes a world: it is kept in the store but no longer listed or readable until it is restored.', result: ref(Ok),
  }),
  op({
    operationId: 'restoreWorld', method: 'POST', path: '/worlds/{id}/restore', tag: 'worlds', params: WorldParams,
    errors: ['WORLD_NOT_FOUND', 'NOT_DELETED'], summary: 'Restore a soft-deleted world',
    description: 'Restores a soft-deleted world; it comes back in its place in the listing.', result: closed({ world: ref(R.World) }),
  }),
  op({
    operationId: 'timeJump', method: 'POST', path: '/worlds/{id}/time-jump', tag: 'world-simulation', params: WorldParams, errors: W,
    summary: 'Jump forward in simulated time (one step, no intermediate ticks)',
    description: 'Advances simulated time like a tick, but in one step (and one more per event that comes due), without intermediate ticks.',
    example: {"seconds": 86400},
    body: closed({ seconds: Seconds }), result: ref(AdvanceResult),
  }),
  op({
    operationId: 'listWorldPersonas', method: 'GET', path: '/worlds/{id}/personas', tag: 'world-personas', params: WorldParams, errors: W,
    summary: 'List the personas of a world with their configurations',
    description: 'The persona entities of the world with their configurations.', result: closed({ personas: Arr(ref(WorldPersona)) }),
  }),
  op({
    operationId: 'addWorldPersona', method: 'POST', path: '/worlds/{id}/personas', tag: 'world-personas', params: WorldParams, status: 201,
    errors: ['WORLD_NOT_FOUND', 'ENTITY_EXISTS'], summary: 'Add a persona to a world',
    description: 'Adds a persona entity to the world, in the first space unless spaceId names another.',
    links: { GetWorldPersona: { operationId: 'getWorldPersona', parameters: { id: '$request.path.id', pid: '$response.body#/result/persona/name' } }, RemoveWorldPersona: { operationId: 'removeWorldPersona', parameters: { id: '$request.path.id', pid: '$response.body#/result/persona/name' } } },
    example: {"name": "olek", "config": {"identity": {"name": "Olek", "role": "innkeeper"}}, "spaceId": "tavern"},
    body: closed({ name: EntityName, config: Opt(inputRef(R.PersonaConfig)), spaceId: Opt(Str()) }),
    result: closed({ persona: ref(WorldPersona) }),
  }),
  op({
    operationId: 'getWorldPersona', method: 'GET', path: '/worlds/{id}/personas/{pid}', tag: 'world-personas',
    params: closed({ id: WorldId, pid: WorldPersonaKey }), errors: ['WORLD_NOT_FOUND', 'PERSONA_NOT_FOUND'],
    summary: 'A persona of a world with its current emotional state',
    description: 'One persona entity of the world, by name or entity id, with its configuration.',
    result: closed({ persona: ref(WorldPersona), state: ref(R.StandalonePersonaState) }),
  }),
  op({
    operationId: 'removeWorldPersona', method: 'DELETE', path: '/worlds/{id}/personas/{pid}', tag: 'world-personas',
    params: closed({ id: WorldId, pid: WorldPersonaKey }), errors: ['WORLD_NOT_FOUND', 'PERSONA_NOT_FOUND'],
    summary: 'Remove a persona from a world',
    description: 'Removes a persona entity from the world, with its relationships.', result: ref(Ok),
  }),
  op({
    operationId: 'createAction', method: 'POST', path: '/worlds/{id}/actions', tag: 'world-actions', params: WorldParams, status: 201, errors: W,
    summary: 'Create a custom action',
    description: 'Adds a custom action to the world; interact performs it on a persona.',
    links: { DeleteAction: { operationId: 'deleteAction', parameters: { id: '$request.path.id', aid: '$response.body#/result/action/id' } } },
    example: {"name": "offer_help", "description": "offers to help with the nets", "appraisal": {"goal_congruence": 0.6}},
    body: requireAt(closed({
      name: Str({ minLength: 1, maxLength: 200 }), description: Opt(Str({ maxLength: 2000 })),
      appraisal: Opt(inputRef(R.Appraisal)), stimulus: Opt(inputRef(R.Stimulus)),
    }), COMPLETE_STIMULUS),
    result: closed({ action: ref(Action) }),
  }),
  op({
    operationId: 'listActions', method: 'GET', path: '/worlds/{id}/actions', tag: 'world-actions', params: WorldParams, errors: W,
    summary: 'List available actions (defaults and custom)',
    description: 'The default actions and the world\'s custom actions.', result: closed({ actions: Arr(ref(Action)) }),
  }),
  op({
    operationId: 'deleteAction', method: 'DELETE', path: '/worlds/{id}/actions/{aid}', tag: 'world-actions',
    params: closed({ id: WorldId, aid: ActionId }), errors: ['WORLD_NOT_FOUND', 'ACTION_NOT_FOUND', 'ACTION_NOT_DELETABLE'],
    summary: 'Delete a custom action',
    description: 'Deletes a custom action; default actions cannot be deleted.', result: ref(Ok),
  }),
  op({
    operationId: 'interact', method: 'POST', path: '/worlds/{id}/interact', tag: 'world-actions', params: WorldParams, billable: true,
    errors: ['WORLD_NOT_FOUND', 'ENTITY_NOT_FOUND', 'ACTION_NOT_FOUND'],
    summary: 'Execute an action against a persona (billable)',
    description: 'An entity performs an action on a persona, who appraises it as the action\'s appraisal and stimulus say. Billed on live keys.',
    example: {"actionId": "act-4", "actor": "visitor", "target": "mara"},
    body: closed({ actionId: Id, actor: EntityName, target: EntityName }),
    result: open({ actionId: Str(), entityName: Str(), response: ref(R.EntityResponse), affected: Arr(ref(R.AffectedItem)) }),
  }),
  op({
    operationId: 'listWorldEvents', method: 'GET', path: '/worlds/{id}/events', tag: 'world-simulation', params: WorldParams, errors: W,
    summary: 'Read the world event log, oldest first',
    description: 'The world\'s event log, oldest first, optionally only the events of one type.',
    query: closed({ limit: Opt(Limit), cursor: Opt(Cursor), type: Opt(Str({ minLength: 1, description: 'Only events of this type.' })) }),
    result: closed({ events: Arr(ref(R.Event)), nextCursor: Opt(Str()) }),
  }),
  op({
    operationId: 'upsertRelationship', method: 'PUT', path: '/worlds/{id}/relationships', tag: 'world-relationships', params: WorldParams,
    errors: ['WORLD_NOT_FOUND', 'ENTITY_NOT_FOUND'], summary: 'Upsert the relationship of an actor toward a persona',
    description: 'Creates or updates the relationship of an entity toward a persona (type, strength, trust).',
    links: { DeleteRelationship: { operationId: 'deleteRelationship', parameters: { id: '$request.path.id', rid: '$response.body#/result/relationship/id' } } },
    example: {"source": "visitor", "target": "mara", "relationship": {"type": "friend", "strength": 0.4, "trust": 0.3}},
    body: closed({ source: EntityName, target: EntityName, relationship: Opt(inputRef(R.WorldRelationship)) }),
    result: closed({ relationship: ref(RelationshipRecord), created: Bool() }),
  }),
  op({
    operationId: 'listRelationships', method: 'GET', path: '/worlds/{id}/relationships', tag: 'world-relationships', params: WorldParams, errors: W,
    summary: 'List all relationships of a world',
    description: 'The world-level relationships between entities.', result: closed({ relationships: Arr(ref(RelationshipRecord)) }),
  }),
  op({
    operationId: 'deleteRelationship', method: 'DELETE', path: '/worlds/{id}/relationships/{rid}', tag: 'world-relationships',
    params: closed({ id: WorldId, rid: RelationshipId }), errors: ['WORLD_NOT_FOUND', 'RELATIONSHIP_NOT_FOUND'],
    summary: 'Delete a relationship',
    description: 'Deletes a world-level relationship.', result: ref(Ok),
  }),

  // ---- Standalone personas ----
  op({
    operationId: 'createPersona', method: 'POST', path: '/personas', tag: 'personas', shape: 'spec', status: 201,
    summary: 'Create a standalone persona',
    description: 'Creates a standalone persona, outside any world, from its configuration.',
    links: { GetPersona: { operationId: 'getPersona', parameters: { id: '$response.body#/result/personaId' } }, Perceive: { operationId: 'perceive', parameters: { id: '$response.body#/result/personaId' } }, GetPersonaState: { operationId: 'getPersonaState', parameters: { id: '$response.body#/result/personaId' } }, DeletePersona: { operationId: 'deletePersona', parameters: { id: '$response.body#/result/personaId' } } },
    example: {"config": {"identity": {"name": "Ana", "role": "guide", "speakingStyle": "warm"}}}, body: closed({ config: inputRef(R.PersonaConfig) }),
    result: closed({ personaId: Str(), createdAt: Num() }),
  }),
  op({
    operationId: 'listPersonas', method: 'GET', path: '/personas', tag: 'personas', query: PageQuery,
    summary: 'List standalone personas (cursor pagination, stable order)',
    description: 'The tenant\'s live standalone personas, oldest first, with cursor pagination.',
    result: closed({ personas: Arr(ref(Persona)), nextCursor: Opt(Str()) }),
  }),
  op({
    operationId: 'getPersona', method: 'GET', path: '/personas/{id}', tag: 'personas', params: PersonaParams, errors: P,
    summary: 'Persona info and configuration',
    description: 'A standalone persona and its configuration.', result: closed({ persona: ref(Persona) }),
  }),
  op({
    operationId: 'updatePersona', method: 'PATCH', path: '/personas/{id}', tag: 'personas', shape: 'spec', params: PersonaParams, errors: P,
    summary: 'Update a persona configuration (JSON merge)',
    description: 'JSON merge (RFC 7396) of the persona\'s configuration.',
    example: {"config": {"identity": {"speakingStyle": "terse"}}}, body: closed({ config: Opt(inputRef(R.PersonaConfig)) }), result: ref(Ok),
  }),
  op({
    operationId: 'deletePersona', method: 'DELETE', path: '/personas/{id}', tag: 'personas', params: PersonaParams, errors: P,
    summary: 'Soft-delete a persona',
    description: 'Soft-deletes a standalone persona: kept in the store, no longer listed or readable until restored.', result: ref(Ok),
  }),
  op({
    operationId: 'restorePersona', method: 'POST', path: '/personas/{id}/restore', tag: 'personas', params: PersonaParams,
    errors: ['PERSONA_NOT_FOUND', 'NOT_DELETED'], summary: 'Restore a soft-deleted persona',
    description: 'Restores a soft-deleted standalone persona.', result: closed({ persona: ref(Persona) }),
  }),
  op({
    operationId: 'perceive', method: 'POST', path: '/personas/{id}/perceive', tag: 'persona-runtime', params: PersonaParams, errors: P,
    summary: 'Process an event through the emotion pipeline',
    description: 'Runs an event through the persona\'s emotion pipeline (appraisal, emotion, mood, body, memory) and returns its response. An event stamped later than the persona\'s clock waits for a tick.',
    example: {"type": "greeting", "sourceEntity": "ben", "payload": {"message": "Hello, Ana!"}},
    body: eventBody(), result: open({ response: ref(R.EntityResponse) }),
  }),
  op({
    operationId: 'tickPersona', method: 'POST', path: '/personas/{id}/tick', tag: 'persona-runtime', shape: 'spec', params: PersonaParams, errors: P,
    summary: 'Advance time: mood decays, the body recovers, pending events come due',
    description: 'Advances the persona\'s clock: emotion and mood decay, the body recovers, and pending percepts are delivered at their time.',
    example: {"seconds": 600},
    body: closed({ seconds: Seconds }), result: open({ pendingEvents: Arr(ref(R.PendingEvent)) }),
  }),
  op({
    operationId: 'overrideEmotion', method: 'POST', path: '/personas/{id}/emotion', tag: 'persona-runtime', shape: 'spec', params: PersonaParams, errors: P,
    summary: 'Override the emotion (VAD) directly; members not given keep their value',
    description: 'Sets the persona\'s emotion (V, A, D) directly; members left out keep their value.',
    example: {"vad": {"V": 0.4, "A": 0.1, "D": 0}},
    body: closed({ vad: inputRef(R.VAD) }), result: ref(Ok),
  }),
  op({
    operationId: 'annotate', method: 'POST', path: '/personas/{id}/annotate', tag: 'persona-runtime', params: PersonaParams, errors: P,
    summary: 'Append text to the next LLM prompt',
    description: 'Appends a note to the persona\'s next prompt context; it is consumed by the next response.',
    example: {"text": "The user just lost their job; be gentle."}, body: closed({ text: Text }), result: ref(Ok),
  }),
  op({
    operationId: 'forceNextResponse', method: 'POST', path: '/personas/{id}/next-response', tag: 'persona-runtime', params: PersonaParams, errors: P,
    summary: 'Force the text of the next response',
    description: 'Forces the text of the persona\'s next response; consumed by it.',
    example: {"text": "I need a moment to think about that."}, body: closed({ text: Text }), result: ref(Ok),
  }),
  op({
    operationId: 'getPersonaState', method: 'GET', path: '/personas/{id}/state', tag: 'persona-runtime', shape: 'spec', params: PersonaParams, errors: P,
    summary: 'Current emotional state of a persona',
    description: 'The persona\'s current emotion, mood, body sensations and narrative, summarised.', result: ref(R.StandalonePersonaState),
  }),
  op({
    operationId: 'promptContext', method: 'POST', path: '/personas/{id}/prompt-context', tag: 'persona-runtime', params: PersonaParams, errors: P,
    summary: 'The assembled system prompt, with the pending annotations (reading it consumes nothing)',
    description: 'The system prompt for the persona: who it is, how it feels, and the notes for its next reply.', result: closed({ prompt: Str() }),
  }),
  op({
    operationId: 'getPersonaSnapshot', method: 'GET', path: '/personas/{id}/snapshot', tag: 'persona-runtime', shape: 'spec', params: PersonaParams, errors: P,
    summary: 'Export a persona snapshot',
    description: 'The persona\'s full state, in a form that PUT /personas/{id}/snapshot takes back.', result: ref(R.StandalonePersonaSnapshot),
  }),
  op({
    operationId: 'putPersonaSnapshot', method: 'PUT', path: '/personas/{id}/snapshot', tag: 'persona-runtime', shape: 'spec', params: PersonaParams, errors: P,
    summary: 'Import a persona snapshot (replaces the state; members not given start as in a new persona)',
    description: 'Replaces the persona\'s state with a snapshot, checked against the full schema first; members left out take the values of a new persona.',
    example: {"snapshot": {"mood": {"V": 0.2, "A": 0, "D": 0.1}, "selfConcept": "a patient guide"}},
    body: closed({ snapshot: inputRef(R.PersonaSnapshot) }), result: ref(Ok),
  }),

  // ---- Meta ----
  op({
    operationId: 'getOpenApi', method: 'GET', path: '/openapi.json', tag: 'meta', shape: 'spec', public: true, raw: true,
    summary: 'This OpenAPI description (no key needed)',
    description: 'This document: the interface as this deployment serves it. No key needed.', result: open({}),
  }),
];

export const operationById = new Map(OPERATIONS.map((o) => [o.operationId, o]));
